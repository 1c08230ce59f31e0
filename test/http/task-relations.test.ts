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
      const res = await ws.api.post(`${tasks}/${hub.id}/relations`, { type: 'related', taskId: o.id })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ type: 'related', task: { id: o.id } })
    }
    const listed = await readAll(ws, `${tasks}/${hub.id}/relations`, 2)
    expect(listed.map((r) => r.task.title).sort()).toEqual(['One', 'Three', 'Two'])
    expect((await ws.api.get(`${tasks}/${others[0].id}/relations`)).body.data).toMatchObject([
      { type: 'related', task: { id: hub.id } },
    ])
    const again = await ws.api.post(`${tasks}/${others[0].id}/relations`, { type: 'related', taskId: hub.id })
    expect(again.status).toBe(409)
    expect((await ws.api.delete(`${tasks}/${others[0].id}/relations/${hub.id}`)).status).toBe(204)
    expect((await readAll(ws, `${tasks}/${hub.id}/relations`, 50)).length).toBe(2)
    expect((await ws.api.delete(`${tasks}/${others[0].id}/relations/${hub.id}`)).status).toBe(404)
  })

  it('marks a duplicate: it moves to a canceled state, with history, and the original sees it', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const original = await newTask(ws, 'Original')
    const dup = await newTask(ws, 'Copy')
    const marked = await ws.api.post(`${tasks}/${dup.id}/relations`, {
      type: 'duplicateOf',
      taskId: original.id,
    })
    expect(marked.status).toBe(201)
    const after = (await ws.api.get(`${tasks}/${dup.id}`)).body
    expect(after).toMatchObject({ stateId: ws.states.Canceled!.id, stateCategory: 'canceled' })
    expect(after.canceledAt).not.toBeNull()
    const fields = (await ws.api.get(`${tasks}/${dup.id}/history`)).body.data.map((e: any) => e.field)
    expect(fields).toEqual(expect.arrayContaining(['duplicateOf', 'stateId']))
    expect((await ws.api.get(`${tasks}/${original.id}/relations`)).body.data).toMatchObject([
      { type: 'duplicatedBy', task: { id: dup.id } },
    ])
    const third = await newTask(ws, 'Third')
    const twice = await ws.api.post(`${tasks}/${dup.id}/relations`, { type: 'duplicateOf', taskId: third.id })
    expect(twice.status).toBe(409)
    // A completed task marked as a duplicate keeps its state.
    const done = await newTask(ws, 'Done', { stateId: ws.states.Done!.id })
    await ws.api.post(`${tasks}/${done.id}/relations`, { type: 'duplicateOf', taskId: original.id })
    expect((await ws.api.get(`${tasks}/${done.id}`)).body.stateCategory).toBe('completed')
  })

  it('refuses relating a task to itself or to a task of another org', async () => {
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const t = await newTask(ws, 'T')
    const foreign = await newTask(other, 'Foreign')
    expect((await ws.api.post(`${tasks}/${t.id}/relations`, { type: 'related', taskId: t.id })).status).toBe(
      400,
    )
    expect(
      (await ws.api.post(`${tasks}/${t.id}/relations`, { type: 'related', taskId: foreign.id })).status,
    ).toBe(404)
  })
})
