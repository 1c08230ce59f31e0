import { type OrgId, ProblemError } from '@workgraph/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/http.ts'
import { hubWorkspaces, postIn as post } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * `hub.inbox.batch`: one action on notifications of several workspaces, each workspace in a
 * transaction of its own. Alice belongs to A, B and C (a guest there); D is not hers.
 */
describeEachDatabase('hub: inbox batch', (db) => {
  let server: TestServer & { drop(): Promise<void> }
  let b: TestWorkspace
  let c: TestWorkspace
  let d: TestWorkspace
  let api: ReturnType<TestServer['as']>
  beforeAll(async () => {
    server = await startTestServer(db)
    ;({ b, c, api } = await hubWorkspaces(server))
    d = await newWorkspace(server)
  })
  afterAll(() => server.drop())

  describe('inbox batch', () => {
    it('marks notifications of several workspaces read, with a partial result per workspace', async () => {
      const members = (await api.get('/v1/me')).body.memberships
      const memberIn = (ws: TestWorkspace) => members.find((m: any) => m.orgId === ws.orgId).memberId
      await post(b, '/tasks', { teamId: b.teamId, title: 'for alice in B', assigneeId: memberIn(b) })
      await post(c, '/tasks', { teamId: c.teamId, title: 'for alice in C', assigneeId: memberIn(c) })
      await post(c, '/tasks', { teamId: c.teamId, title: 'again for alice', assigneeId: memberIn(c) })
      await server.engine.notify({ onError: (e) => console.error(e) })
      const before = (await api.get('/v1/hub/inbox/counts')).body
      const unread = (ws: TestWorkspace, counts: any) =>
        counts.data.find((x: any) => x.orgId === ws.orgId).unread
      expect(unread(b, before)).toBeGreaterThan(0)
      expect(unread(c, before)).toBeGreaterThan(0)
      // In C only the first: the other stays unread.
      const cAll = (await api.get(`/v1/hub/inbox?orgId=${c.orgId}&unread=true`)).body.data.map(
        (n: any) => n.id,
      )
      const cIds = cAll.slice(0, 1)

      const res = await api.post('/v1/hub/inbox/batch', {
        action: 'read',
        workspaces: [{ orgId: b.orgId }, { orgId: c.orgId, ids: cIds }, { orgId: d.orgId }],
      })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([
        { orgId: b.orgId, updated: unread(b, before) },
        { orgId: c.orgId, updated: cIds.length },
      ])
      expect(res.body.partial).toEqual([{ orgId: d.orgId, code: 'not_found' }])
      const after = (await api.get('/v1/hub/inbox/counts')).body
      expect(unread(b, after)).toBe(0)
      expect(unread(c, after)).toBe(cAll.length - 1)
      // Each workspace's log has a notification.updated per notification changed.
      const logged = async (ws: TestWorkspace) =>
        (
          await server.storage.read((s) =>
            s.events.list(ws.orgId as OrgId, 0, 1000, undefined, ['notification.updated']),
          )
        ).map((e) => e.resourceId)
      expect(await logged(c)).toEqual(cIds)
      expect((await logged(b)).length).toBe(unread(b, before))

      const again = await api.post('/v1/hub/inbox/batch', {
        action: 'read',
        workspaces: [{ orgId: b.orgId }],
      })
      expect(again.body.data).toEqual([{ orgId: b.orgId, updated: 0 }])
      const twice = await api.post('/v1/hub/inbox/batch', {
        action: 'read',
        workspaces: [{ orgId: b.orgId }, { orgId: b.orgId }],
      })
      expect(twice.status).toBe(422)
      expect((await api.post('/v1/hub/inbox/batch', { action: 'snooze', workspaces: [] })).status).toBe(400)
    })

    it('commits each workspace on its own: one whose transaction fails is in partial, the others stand', async () => {
      const members = (await api.get('/v1/me')).body.memberships
      const memberIn = (ws: TestWorkspace) => members.find((m: any) => m.orgId === ws.orgId).memberId
      await post(b, '/tasks', { teamId: b.teamId, title: 'more for alice in B', assigneeId: memberIn(b) })
      await post(c, '/tasks', { teamId: c.teamId, title: 'more for alice in C', assigneeId: memberIn(c) })
      await server.engine.notify({ onError: (e) => console.error(e) })
      const unread = async (ws: TestWorkspace) =>
        (await api.get('/v1/hub/inbox/counts')).body.data.find((x: any) => x.orgId === ws.orgId).unread
      const logged = async (ws: TestWorkspace) =>
        (
          await server.storage.read((s) =>
            s.events.list(ws.orgId as OrgId, 0, 1000, undefined, ['notification.updated']),
          )
        ).length
      const unreadB = await unread(b)
      const unreadC = await unread(c)
      const loggedC = await logged(c)
      expect(unreadB).toBeGreaterThan(0)
      expect(unreadC).toBeGreaterThan(0)

      // C's transaction fails after its notifications were changed, when its events are appended.
      const storage = server.storage
      const original = storage.transaction
      storage.transaction = ((fn: (tx: any) => Promise<unknown>) =>
        original.call(storage, (tx) => {
          const append = tx.events.append
          tx.events = {
            ...tx.events,
            append: async (orgId, list) => {
              if (orgId === c.orgId && list.some((e) => e.kind === 'notification.updated'))
                throw new ProblemError('service_unavailable', 'injected')
              return append(orgId, list)
            },
          }
          return fn(tx)
        })) as typeof original
      let res: Awaited<ReturnType<typeof api.post>>
      try {
        res = await api.post(
          '/v1/hub/inbox/batch',
          { action: 'read', workspaces: [{ orgId: c.orgId }, { orgId: b.orgId }] },
          { 'idempotency-key': 'batch-one-failing' },
        )
      } finally {
        storage.transaction = original
      }
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: [{ orgId: b.orgId, updated: unreadB }],
        partial: [{ orgId: c.orgId, code: 'service_unavailable' }],
      })
      // B's change committed; C's rolled back whole: still unread, and no event in its log.
      expect(await unread(b)).toBe(0)
      expect(await unread(c)).toBe(unreadC)
      expect(await logged(c)).toBe(loggedC)
      // The key replays the stored answer without running again.
      const replay = await api.post(
        '/v1/hub/inbox/batch',
        { action: 'read', workspaces: [{ orgId: c.orgId }, { orgId: b.orgId }] },
        { 'idempotency-key': 'batch-one-failing' },
      )
      expect(replay.body).toEqual(res.body)
      expect(await unread(c)).toBe(unreadC)
      // Run again without the failure, C changes too.
      const retry = await api.post('/v1/hub/inbox/batch', {
        action: 'read',
        workspaces: [{ orgId: c.orgId }],
      })
      expect(retry.body).toEqual({ data: [{ orgId: c.orgId, updated: unreadC }], partial: [] })
      expect(await logged(c)).toBe(loggedC + unreadC)
    })
  })
})
