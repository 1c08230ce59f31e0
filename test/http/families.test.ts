import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * One family per act (issue 28): the same item operations serve links, linked items and status
 * updates whatever their parent, and the removed operations' acts go through the ones that cover them.
 */
describeEachDatabase('one family per act', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A task and a project of the workspace's team, a program and an initiative. */
  async function parents(ws: TestWorkspace) {
    const o = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const project = (await ws.api.post(`${o}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const program = (await ws.api.post(`${o}/programs`, { name: 'R' })).body
    const initiative = (await ws.api.post(`${o}/initiatives`, { name: 'G' })).body
    return {
      o,
      paths: {
        task: `${o}/tasks/${task.id}`,
        project: `${o}/projects/${project.id}`,
        program: `${o}/programs/${program.id}`,
        initiative: `${o}/initiatives/${initiative.id}`,
      },
    }
  }

  it('serves the links of every kind of parent with links.get/update/move/delete, on the parent’s capability', async () => {
    const ws = await newWorkspace(server)
    const { o, paths } = await parents(ws)
    const viewer = await teamGuest(ws, 'view')
    for (const type of ['task', 'project', 'program', 'initiative'] as const) {
      const list = `${paths[type]}/links`
      const first = (await ws.api.post(list, { url: 'https://example.com/a', title: 'A' })).body
      const second = (await ws.api.post(list, { url: 'https://example.com/b' })).body
      expect(first).toMatchObject({ parentType: type, position: 0 })
      expect(first.id).toMatch(/^lnk_/)
      const item = `${o}/links/${second.id}`
      expect((await ws.api.get(item)).body).toEqual(second)
      expect((await ws.api.patch(item, { title: 'B' })).body).toMatchObject({ title: 'B', position: 1 })
      const moved = await ws.api.post(`${item}/move`, { beforeId: first.id })
      expect(moved).toMatchObject({ status: 200, body: { position: 0 } })
      expect((await ws.api.get(list)).body.data.map((l: any) => l.id)).toEqual([second.id, first.id])
      // Another parent's link is no anchor.
      expect((await ws.api.post(`${item}/move`, { afterId: 'lnk_01JD3Q2R4S5T6V7W8X9YZABCDE' })).status).toBe(
        422,
      )
      // Without the parent's capability: refused, and nothing changes.
      for (const res of [
        await viewer.api.patch(item, { title: 'x' }),
        await viewer.api.post(`${item}/move`, { afterId: first.id }),
        await viewer.api.delete(item),
      ])
        expect([403, 404]).toContain(res.status)
      expect((await ws.api.get(item)).body).toMatchObject({ title: 'B', position: 0 })
      expect((await ws.api.delete(item)).status).toBe(204)
      expect((await ws.api.get(item)).status).toBe(404)
    }
    // The viewer sees the task's and the project's links, and may change none.
    const taskLink = (await ws.api.post(`${paths.task}/links`, { url: 'https://example.com/c' })).body
    expect((await viewer.api.get(`${o}/links/${taskLink.id}`)).status).toBe(200)
    expect((await viewer.api.patch(`${o}/links/${taskLink.id}`, { title: 'x' })).status).toBe(403)
    const kinds = (await ws.api.get(`${o}/stream?limit=500`)).body.data
      .filter((e: any) => e.kind.startsWith('link.'))
      .map((e: any) => e.data.parentType)
    expect(new Set(kinds)).toEqual(new Set(['task', 'project', 'program', 'initiative']))
  })

  it('serves a task’s and a project’s linked items with linkedItems.get/refresh/delete', async () => {
    const ws = await newWorkspace(server)
    const { o, paths } = await parents(ws)
    const api = server.as(
      await server.engine.tokens.issueAccessToken({
        userId: ws.owner.user.id,
        scopes: ['work:read', 'work:write', 'connectors:link'],
      }),
    )
    for (const type of ['task', 'project'] as const) {
      const linked = (await api.post(`${paths[type]}/linked-items`, { url: `https://example.com/${type}` }))
        .body
      const item = `${o}/linked-items/${linked.id}`
      expect((await api.get(item)).body).toEqual(linked)
      // No provider reads the URL: the refresh reaches the item and says what it needs.
      expect(await api.post(`${item}/refresh`)).toMatchObject({
        status: 422,
        body: { code: 'connection_required' },
      })
      expect((await api.delete(item)).status).toBe(204)
      expect((await api.get(item)).status).toBe(404)
      expect((await api.get(`${paths[type]}/linked-items`)).body.data).toEqual([])
    }
  })

  it('serves the status updates of every subject with updates.*', async () => {
    const ws = await newWorkspace(server)
    const { o, paths } = await parents(ws)
    for (const type of ['project', 'program', 'initiative'] as const) {
      const posted = await ws.api.post(`${paths[type]}/updates`, { body: 'Going well.', health: 'onTrack' })
      expect(posted).toMatchObject({ status: 201, body: { subjectType: type } })
      expect(posted.headers.get('location')).toBe(`${o}/updates/${posted.body.id}`)
      const item = `${o}/updates/${posted.body.id}`
      expect((await ws.api.get(item)).body).toEqual(posted.body)
      await ws.api.patch(item, { health: 'atRisk' })
      await ws.api.patch(item, { health: 'offTrack' })
      const history = (await ws.api.get(`${item}/history?limit=1`)).body
      expect(history.data.map((r: any) => r.health)).toEqual(['atRisk'])
      const older = (await ws.api.get(`${item}/history?limit=1&cursor=${history.nextCursor}`)).body
      expect(older).toMatchObject({ data: [{ health: 'onTrack' }], nextCursor: null })
      expect((await ws.api.post(`${item}/comments`, { body: 'Thanks' })).status).toBe(201)
      expect((await ws.api.get(`${item}/comments`)).body.data).toHaveLength(1)
      expect((await ws.api.post(`${item}/reactions`, { emoji: '🎉' })).status).toBe(201)
      expect((await ws.api.get(`${item}/reactions`)).body.data).toHaveLength(1)
      expect((await ws.api.post(`${item}/archive`)).body.archivedAt).not.toBeNull()
      expect((await ws.api.post(`${item}/restore`)).body.archivedAt).toBeNull()
      expect((await ws.api.delete(item)).status).toBe(204)
      expect((await ws.api.get(item)).status).toBe(404)
    }
  })

  it('completes and cancels a project with projects.update, emitting what complete and cancel did', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const statuses = (await ws.api.get(`${o}/project-statuses`)).body.data
    const of = (category: string) => statuses.find((s: any) => s.category === category).id
    const done = (await ws.api.post(`${o}/projects`, { name: 'Done', teamIds: [ws.teamId] })).body
    const dropped = (await ws.api.post(`${o}/projects`, { name: 'Dropped', teamIds: [ws.teamId] })).body
    await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'Open', projectId: dropped.id })
    expect((await ws.api.patch(`${o}/projects/${done.id}`, { statusId: of('completed') })).status).toBe(200)
    const canceled = await ws.api.patch(`${o}/projects/${dropped.id}`, {
      statusId: of('canceled'),
      openTasks: 'keep',
      reason: 'Superseded',
    })
    expect(canceled.body).toMatchObject({ statusCategory: 'canceled' })
    expect(canceled.body).not.toHaveProperty('reason')
    const events = (await ws.api.get(`${o}/stream?limit=200`)).body.data
    const completed = events.find((e: any) => e.kind === 'project.completed')
    expect(completed).toMatchObject({ resourceId: done.id, data: { openTasks: null } })
    expect(completed.data.changes.statusId.after).toBe(of('completed'))
    const cancel = events.find((e: any) => e.kind === 'project.canceled')
    expect(cancel).toMatchObject({
      resourceId: dropped.id,
      data: { openTasks: 'keep', reason: 'Superseded' },
    })
    // Neither also emitted an ordinary update for the status change.
    expect(events.filter((e: any) => e.kind === 'project.updated' && e.data.changes?.statusId)).toEqual([])
  })

  it('marks a triage item a duplicate with tasks.relations.add duplicateOf, as markDuplicate did', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    expect((await ws.api.patch(`${o}/teams/${ws.teamId}/settings`, { triageEnabled: true })).status).toBe(200)
    const requester = await teamGuest(ws, 'comment')
    const original = (await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'Known bug' })).body
    const item = (await requester.api.post(`${o}/teams/${ws.teamId}/triage`, { title: 'Same bug' })).body
    expect(item.stateCategory).toBe('triage')
    const res = await ws.api.put(`${o}/tasks/${item.id}/relations/${original.id}`, { type: 'duplicateOf' })
    expect(res.status).toBe(200)
    expect((await ws.api.get(`${o}/tasks/${item.id}`)).body.stateCategory).toBe('canceled')
    const triaged = (await ws.api.get(`${o}/stream?limit=200`)).body.data.find(
      (e: any) => e.kind === 'task.triaged',
    )
    expect(triaged).toMatchObject({
      resourceId: item.id,
      data: { outcome: 'duplicate', duplicateOfId: original.id, requesterId: requester.memberId },
    })
    await server.engine.notify({ onError: (e) => console.error(e) })
    const inbox = (await requester.api.get(`${o}/notifications`)).body.data
    expect(inbox.map((n: any) => n.kind)).toContain('triaged')
    // A task outside triage is only related and canceled: no triage decision.
    const other = (await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'Again' })).body
    await ws.api.put(`${o}/tasks/${other.id}/relations/${original.id}`, { type: 'duplicateOf' })
    const decisions = (await ws.api.get(`${o}/stream?limit=200`)).body.data.filter(
      (e: any) => e.kind === 'task.triaged',
    )
    expect(decisions.map((e: any) => e.resourceId)).toEqual([item.id])
  })

  it('reads notifications up to a time with notifications.batch’s before', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const bob = await ws.addMember('member')
    for (const title of ['One', 'Two'])
      await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title, assigneeId: bob.memberId })
    await server.engine.notify({ onError: (e) => console.error(e) })
    const batch = `${o}/notifications/batch`
    const past = await bob.api.post(batch, {
      action: 'read',
      filter: { view: 'all', before: '2000-01-01T00:00:00.000Z' },
    })
    expect(past.body).toEqual({ updated: 0 })
    const all = await bob.api.post(batch, {
      action: 'read',
      filter: { view: 'all', before: '2999-01-01T00:00:00.000Z' },
    })
    expect(all.body.updated).toBeGreaterThan(0)
    expect((await bob.api.get(`${o}/notifications/counts`)).body.unread).toBe(0)
    expect(await bob.api.post(batch, { action: 'read', filter: { before: 'yesterday' } })).toMatchObject({
      status: 400,
    })
  })
})
