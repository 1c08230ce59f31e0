import { type ConsentId, createUser, type MemberId, newId, type TeamId, type UserId } from '@workgraph/core'
import type { MemberStanding } from '@workgraph/core/storage'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshCode, redeem } from '../oauth/support.ts'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const byId = <T extends { id: string }>(rows: readonly T[]) =>
  [...rows].sort((x, y) => (x.id < y.id ? -1 : 1))

// A stream round reads all its readers' standings in one statement (`access.standings`) and all
// its credentials in one (`oauth.credentialStates`): each must answer what the single reads it
// replaces answer, for active, deactivated and removed members, people with no membership, live,
// revoked and unknown consents and tokens, and for more of each than one statement takes (256).
describeEachDatabase("a stream round's batch reads equal the single reads they replace", (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('standings: every member with its teams and grants, whatever its status; no one else', async () => {
    const ws = await newWorkspace(server)
    const run = (id: string, params: Record<string, unknown>, body?: unknown) =>
      server.engine.execute(
        id,
        { params: { orgId: ws.orgId, ...params }, ...(body ? { body } : {}) },
        ws.owner.principal,
      )
    const other = (await run('teams.create', {}, { name: 'Other', key: 'OTH' })).body as { id: string }
    const project = (await run('projects.create', {}, { name: 'P', teamIds: [other.id] })).body as {
      id: string
    }
    // In a team with a team grant and a direct grant; only a direct grant; in two teams, then deactivated;
    // removed (its teams and grants go with it); a plain member.
    const teamed = await ws.addMember('member')
    await run('teams.members.add', { teamId: ws.teamId, actorId: teamed.memberId })
    await run(
      'grants.create',
      {},
      {
        subjectType: 'team',
        subjectId: ws.teamId,
        containerType: 'project',
        containerId: project.id,
        capability: 'comment',
      },
    )
    await grant(ws, teamed.memberId, 'contribute', { type: 'team', id: other.id })
    const guest = await ws.addMember('guest')
    await grant(ws, guest.memberId, 'view', { type: 'project', id: project.id })
    const away = await ws.addMember('member')
    await run('teams.members.add', { teamId: ws.teamId, actorId: away.memberId })
    await run('teams.members.add', { teamId: other.id, actorId: away.memberId })
    await run('members.deactivate', { memberId: away.memberId })
    const gone = await ws.addMember('member')
    await grant(ws, gone.memberId, 'view', { type: 'project', id: project.id })
    await run('members.remove', { memberId: gone.memberId })
    const plain = await ws.addMember('member')
    const stranger = await createUser(server.storage, {
      email: `stranger.${Date.now()}@example.com`,
      name: 'S',
    })
    // Past one statement's 256: members added straight to storage, each with a team membership.
    const many: UserId[] = []
    for (let i = 0; i < 300; i++) {
      const user = await createUser(server.storage, {
        email: `many${i}.${Date.now()}@example.com`,
        name: `M${i}`,
      })
      const memberId: MemberId = newId('MemberId')
      const now = new Date().toISOString()
      await server.storage.transaction(async (s) => {
        await s.members.insert({
          id: memberId,
          orgId: ws.orgId,
          userId: user.id,
          kind: 'person',
          role: 'member',
          status: 'active',
          createdAt: now,
          updatedAt: now,
        })
        if (i % 3 === 0)
          await s.access.addTeamMember({
            orgId: ws.orgId,
            teamId: ws.teamId as TeamId,
            actorId: memberId,
            createdAt: now,
          })
      })
      many.push(user.id)
    }

    const people = [ws.owner, teamed, guest, away, gone, plain].map((p) => p.user.id)
    const userIds = [...many.slice(0, 150), ...people, stranger.id, ...many.slice(150), teamed.user.id]
    const batch = await server.storage.read((s) => s.access.standings(ws.orgId, userIds))
    const normal = (s: MemberStanding) => ({
      member: s.member,
      teamIds: [...s.teamIds].sort(),
      grants: byId(s.grants),
    })
    const expected = new Map<UserId, MemberStanding>()
    for (const userId of new Set(userIds)) {
      const one = await server.storage.read((s) => s.access.standing(ws.orgId, userId))
      if (one.member) expected.set(userId, { member: one.member, teamIds: one.teamIds, grants: one.grants })
    }
    expect([...batch.keys()].sort()).toEqual([...expected.keys()].sort())
    for (const [userId, standing] of expected) expect(normal(batch.get(userId)!)).toEqual(normal(standing))

    // What the cases were meant to cover is there: not a vacuous equality.
    expect(batch.has(stranger.id)).toBe(false)
    expect(batch.get(gone.user.id)?.member.status).toBe('removed')
    expect(batch.get(gone.user.id)?.grants).toEqual([])
    expect(batch.get(away.user.id)?.member.status).toBe('deactivated')
    expect(batch.get(away.user.id)?.teamIds).toHaveLength(2)
    expect(
      batch
        .get(teamed.user.id)
        ?.grants.map((g) => g.subjectType)
        .sort(),
    ).toEqual(['member', 'team'])
    expect(batch.get(many[297]!)?.teamIds).toEqual([ws.teamId])
    expect(batch.get(many[298]!)?.teamIds).toEqual([])
  })

  it('credentialStates: the consents that exist and the jtis that are revoked, among more than 256 of each', async () => {
    const tokens = await redeem(server.url, await freshCode(server.url))
    const principal = await server.engine.tokens.verifyAccessToken(tokens.body.access_token as string)
    expect(principal.grantId).toBeTruthy()
    const later = new Date(Date.now() + 3_600_000).toISOString()
    const jtis = Array.from({ length: 300 }, (_, i) => `jti-${i}-${Date.now()}`)
    await server.storage.transaction(async (s) => {
      await s.oauth.revokeAccessToken(jtis[3]!, later)
      await s.oauth.revokeAccessToken(jtis[280]!, later)
    })
    const grantIds = [
      ...Array.from({ length: 299 }, () => newId('ConsentId')),
      principal.grantId as ConsentId,
    ]
    const states = await server.storage.read((s) =>
      s.oauth.credentialStates(grantIds, [...jtis, principal.tokenId!]),
    )
    expect([...states.liveGrants]).toEqual([principal.grantId])
    expect([...states.revokedJtis].sort()).toEqual([jtis[280]!, jtis[3]!].sort())
    // As the single reads answer them.
    for (const id of [grantIds[0]!, grantIds[299]!])
      expect(states.liveGrants.has(id)).toBe(await server.storage.read((s) => s.oauth.grantIsLive(id)))
    for (const jti of [jtis[3]!, jtis[4]!, principal.tokenId!])
      expect(states.revokedJtis.has(jti)).toBe(
        !(await server.storage.read((s) => s.oauth.accessTokenIsLive(jti, null))),
      )
    // Nothing asked, nothing read.
    const none = await server.storage.read((s) => s.oauth.credentialStates([], []))
    expect(none.liveGrants.size + none.revokedJtis.size).toBe(0)
  })
})
