import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newTask, readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('task relations', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('relates tasks both ways, lists them page by page and removes them', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const hub = await newTask(ws, 'Hub')
    const others = [await newTask(ws, 'One'), await newTask(ws, 'Two'), await newTask(ws, 'Three')]
    for (const o of others) {
      const res = await ws.api.put(`${tasks}/${hub.id}/relations/${o.id}`, { type: 'related' })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ type: 'related', task: { id: o.id } })
    }
    const listed = await readAll(ws, `${tasks}/${hub.id}/relations`, 2)
    expect(listed.map((r) => r.task.title).sort()).toEqual(['One', 'Three', 'Two'])
    expect((await ws.api.get(`${tasks}/${others[0].id}/relations`)).body.data).toMatchObject([
      { type: 'related', task: { id: hub.id } },
    ])
    // A PUT on a pair that has the type already changes nothing: same relation, no event.
    const events = async () =>
      (await ws.api.get(`/v1/orgs/${ws.orgId}/stream?limit=200`)).body.data.filter(
        (e: any) => e.kind === 'task_relation.created',
      ).length
    const before = await events()
    const first = (await ws.api.get(`${tasks}/${others[0].id}/relations`)).body.data[0]
    const again = await ws.api.put(`${tasks}/${others[0].id}/relations/${hub.id}`, { type: 'related' })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ type: 'related', task: { id: hub.id }, createdAt: first.createdAt })
    expect(await events()).toBe(before)
    // Another type replaces the relation: the pair is a duplicate now, seen from both sides.
    const replaced = await ws.api.put(`${tasks}/${others[0].id}/relations/${hub.id}`, { type: 'duplicateOf' })
    expect(replaced).toMatchObject({ status: 200, body: { type: 'duplicateOf', task: { id: hub.id } } })
    expect((await ws.api.get(`${tasks}/${hub.id}/relations`)).body.data).toContainEqual(
      expect.objectContaining({ type: 'duplicatedBy', task: expect.objectContaining({ id: others[0].id }) }),
    )
    expect((await ws.api.delete(`${tasks}/${others[0].id}/relations/${hub.id}`)).status).toBe(204)
    expect((await readAll(ws, `${tasks}/${hub.id}/relations`, 50)).length).toBe(2)
    // Idempotent: a pair no longer related is already as asked.
    expect((await ws.api.delete(`${tasks}/${others[0].id}/relations/${hub.id}`)).status).toBe(204)
  })

  it('marks a duplicate: it moves to a canceled state, with history, and the original sees it', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const original = await newTask(ws, 'Original')
    const dup = await newTask(ws, 'Copy')
    const marked = await ws.api.put(`${tasks}/${dup.id}/relations/${original.id}`, { type: 'duplicateOf' })
    expect(marked.status).toBe(200)
    const after = (await ws.api.get(`${tasks}/${dup.id}`)).body
    expect(after).toMatchObject({ stateId: ws.states.Canceled!.id, stateCategory: 'canceled' })
    expect(after.canceledAt).not.toBeNull()
    const fields = (await ws.api.get(`${tasks}/${dup.id}/history`)).body.data.map((e: any) => e.field)
    expect(fields).toEqual(expect.arrayContaining(['duplicateOf', 'stateId']))
    expect((await ws.api.get(`${tasks}/${original.id}/relations`)).body.data).toMatchObject([
      { type: 'duplicatedBy', task: { id: dup.id } },
    ])
    const third = await newTask(ws, 'Third')
    const twice = await ws.api.put(`${tasks}/${dup.id}/relations/${third.id}`, { type: 'duplicateOf' })
    expect(twice.status).toBe(409)
    // A completed task marked as a duplicate keeps its state.
    const done = await newTask(ws, 'Done', { stateId: ws.states.Done!.id })
    await ws.api.put(`${tasks}/${done.id}/relations/${original.id}`, { type: 'duplicateOf' })
    expect((await ws.api.get(`${tasks}/${done.id}`)).body.stateCategory).toBe('completed')
  })

  it('refuses relating a task to itself or to a task of another org', async () => {
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const t = await newTask(ws, 'T')
    const foreign = await newTask(other, 'Foreign')
    expect((await ws.api.put(`${tasks}/${t.id}/relations/${t.id}`, { type: 'related' })).status).toBe(422)
    expect((await ws.api.put(`${tasks}/${t.id}/relations/${foreign.id}`, { type: 'related' })).status).toBe(
      404,
    )
  })
})
