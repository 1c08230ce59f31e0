import { type ActorId, loadProfile, readScope } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('event visibility in the log query', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('gives org-wide readers every event and others their teams and themselves', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const other = await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Visible' })
    await ws.api.post(`${base}/tasks`, { teamId: other.body.id, title: 'Hidden' })
    const guest = await ws.addMember('guest')
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'view',
    })

    const scopeOf = (actorId: string, role: 'owner' | 'guest') =>
      server.storage.read(async (s) =>
        readScope(
          await loadProfile(s, {
            id: actorId as ActorId,
            kind: 'person',
            orgId: ws.orgId,
            role,
            userId: null,
            name: 'x',
          }),
        ),
      )
    const all = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    expect(all.find((e) => e.kind === 'task.created')?.teamId).toBe(ws.teamId)
    expect(all.find((e) => e.kind === 'grant.created')?.teamId).toBeNull()

    const ownerScope = await scopeOf(all.find((e) => e.kind === 'member.created')!.resourceId, 'owner')
    const forOwner = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000, ownerScope))
    const guestScope = await scopeOf(guest.memberId, 'guest')
    const forGuest = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000, guestScope))
    expect(forOwner.map((e) => e.seq)).toEqual(all.map((e) => e.seq))
    const expected = all.filter((e) => e.teamId === ws.teamId || e.resourceId === guest.memberId)
    expect(forGuest.map((e) => e.seq)).toEqual(expected.map((e) => e.seq))
    expect(forGuest.some((e) => e.teamId === other.body.id)).toBe(false)
    expect(forGuest.some((e) => e.kind === 'task.created')).toBe(true)
  })
})
