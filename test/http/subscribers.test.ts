import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newTask, readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('task subscribers', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('subscribes the creator and the assignee automatically', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const member = await ws.addMember('member')
    const t = await newTask(ws, 'Watched')
    await ws.api.patch(`${tasks}/${t.id}`, { assigneeId: member.memberId })
    const subs = await readAll(ws, `${tasks}/${t.id}/subscribers`, 1)
    expect(subs.map((s) => s.actorId).sort()).toEqual([t.creatorId, member.memberId].sort())
  })

  it('lets anyone who may comment subscribe and unsubscribe themselves; others need manage', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const t = await newTask(ws, 'Watched')
    const commenter = await teamGuest(ws, 'comment')
    const path = (actor: string) => `${tasks}/${t.id}/subscribers/${actor}`
    const mine = await commenter.api.put(path(commenter.memberId))
    expect(mine.status).toBe(200)
    expect(mine.body).toMatchObject({ taskId: t.id, actorId: commenter.memberId })
    expect((await commenter.api.put(path(commenter.memberId))).body.addedAt).toBe(mine.body.addedAt)
    const other = await ws.addMember('member')
    const forOther = await commenter.api.put(path(other.memberId))
    expect(forOther.status).toBe(403)
    expect(forOther.body.capability).toBe('manage')
    expect((await ws.api.put(path(other.memberId))).status).toBe(200)
    expect((await commenter.api.delete(path(t.creatorId))).status).toBe(403)
    expect((await commenter.api.delete(path(commenter.memberId))).status).toBe(204)
    expect((await commenter.api.delete(path(commenter.memberId))).status).toBe(204)
    const viewer = await teamGuest(ws, 'view')
    expect((await viewer.api.put(path(viewer.memberId))).status).toBe(403)
    const subs = await readAll(ws, `${tasks}/${t.id}/subscribers`, 50)
    expect(subs.map((s) => s.actorId).sort()).toEqual([t.creatorId, other.memberId].sort())
    const fields = (await ws.api.get(`${tasks}/${t.id}/history`)).body.data.map((e: any) => e.field)
    expect(fields.filter((f: string) => f === 'subscribers').length).toBe(3)
  })

  it('refuses to subscribe someone who is not in the workspace', async () => {
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server)
    const t = await newTask(ws, 'Watched')
    const stranger = (await other.api.get(`/v1/orgs/${other.orgId}/members`)).body.data[0].id
    const res = await ws.api.put(`/v1/orgs/${ws.orgId}/tasks/${t.id}/subscribers/${stranger}`)
    expect(res.status).toBe(404)
  })
})
