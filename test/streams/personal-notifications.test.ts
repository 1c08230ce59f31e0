import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { openSse } from '../support/sse.ts'
import { newWorkspace } from '../support/workspace.ts'

/**
 * A recipient's notifications reach their own streams (the org's SSE and poll streams and the hub
 * stream) as events no one else reads, whatever their role: a guest who sees one team, whose
 * notification events belong to no team, gets them too.
 */
describeEachDatabase('notifications on personal streams', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('delivers each notification event to its recipient only, member or guest', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const ops = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body.id
    const bob = await ws.addMember('member')
    const guest = await teamGuest(ws, 'comment', ops)
    const guestLive = await openSse(`${server.url}/v1/stream/sse?from=now`, { token: guest.token })
    const orgLive = await openSse(`${server.url}/v1/stream/sse?orgId=${ws.orgId}&from=now`, {
      token: guest.token,
    })

    await ws.api.post(`${base}/tasks`, { teamId: ops, title: 'For the guest', assigneeId: guest.memberId })
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'For Bob', assigneeId: bob.memberId })
    const run = await server.engine.notify({ onError: (e) => console.error(e) })
    expect(run.failed).toBe(0)

    const mine = async (who: { api: typeof ws.api }) =>
      ((await who.api.get(`${base}/notifications`)).body.data as any[]).map((n) => n.id)
    const guestIds = await mine(guest)
    const bobIds = await mine(bob)
    expect(guestIds).toHaveLength(1)
    expect(bobIds).toHaveLength(1)

    const notificationEvents = (events: any[]) =>
      events.filter((e) => e.kind.startsWith('notification.')).map((e) => [e.kind, e.resourceId])
    for (const [who, ids] of [
      [guest, guestIds],
      [bob, bobIds],
    ] as const) {
      const polled = (await who.api.get(`${base}/stream?limit=500`)).body.data
      expect(notificationEvents(polled)).toEqual(ids.map((id) => ['notification.created', id]))
      const hub = (await who.api.get('/v1/hub/stream?limit=500')).body.data
      expect(notificationEvents(hub)).toEqual(ids.map((id) => ['notification.created', id]))
    }
    // The owner, who sees the whole workspace, reads neither.
    expect(notificationEvents((await ws.api.get(`${base}/stream?limit=500`)).body.data)).toEqual([])

    // Live: the guest's SSE streams carry their notification, and its change when they read it.
    await guest.api.post(`${base}/notifications/${guestIds[0]}/read`)
    for (const live of [guestLive, orgLive]) {
      const seen = () => notificationEvents(live.events())
      await live.until(() => seen().length === 2)
      expect(seen()).toEqual([
        ['notification.created', guestIds[0]],
        ['notification.updated', guestIds[0]],
      ])
      live.close()
    }
  })
})
