import { type MemberId, newId, type OrgId, type TeamId, type UserId } from '@workgraph/core'
import type { OrgStanding } from '@workgraph/core/storage'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * `access.standingsOf` is what a hub read starts from: in one read, the standing of every workspace
 * where the user is an active member, exactly as `access.standing` answers it there (their teams,
 * the grants they and those teams hold, nobody else's), and nothing of a workspace they left.
 */
describeEachDatabase('access.standingsOf', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let home: TestWorkspace
  const orgIds: OrgId[] = []
  let userId: UserId

  beforeAll(async () => {
    server = await startTestServer(db)
    home = await newWorkspace(server)
    userId = home.owner.user.id as UserId
    const now = new Date().toISOString()
    const other = await newWorkspace(server)
    const left = await newWorkspace(server)
    const created = await server.engine.execute(
      'teams.create',
      { params: { orgId: other.orgId }, body: { name: 'Design', key: 'DES' } },
      other.owner.principal,
    )
    const team = (created.body as { id: TeamId }).id
    const colleague = await other.addMember('member')
    const memberId = newId('MemberId') as MemberId
    await server.storage.transaction(async (s) => {
      // The user joins `other` as a member of a second team and leaves `left`.
      await s.members.insert({
        id: memberId,
        orgId: other.orgId,
        userId,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      })
      await s.members.insert({
        id: newId('MemberId'),
        orgId: left.orgId,
        userId,
        kind: 'person',
        role: 'member',
        status: 'removed',
        createdAt: now,
        updatedAt: now,
      })
      await s.access.addTeamMember({ orgId: other.orgId, teamId: team, actorId: memberId, createdAt: now })
      for (const [subjectType, subjectId, capability] of [
        ['member', memberId, 'assign'],
        ['team', team, 'view'],
        ['member', colleague.memberId, 'manage'],
      ] as const)
        await s.access.insertGrant({
          id: newId('GrantId'),
          orgId: other.orgId,
          subjectType,
          subjectId,
          containerType: 'team',
          containerId: other.teamId,
          capability,
          createdAt: now,
          updatedAt: now,
          createdBy: null,
        })
    })
    orgIds.push(...[home.orgId, other.orgId].sort())
  }, 60_000)
  afterAll(() => server.drop())

  const sorted = (s: OrgStanding) => ({
    ...s,
    teamIds: [...s.teamIds].sort(),
    grants: [...s.grants].sort((a, b) => (a.id < b.id ? -1 : 1)),
  })

  it('answers what standing answers in each active workspace, by org id', async () => {
    const all = await server.storage.read((s) => s.access.standingsOf(userId))
    expect(all.map((s) => s.org.id)).toEqual(orgIds)
    for (const [i, orgId] of orgIds.entries()) {
      const one = await server.storage.read((s) => s.access.standing(orgId, userId))
      expect(sorted(all[i]!)).toEqual(sorted(one))
    }
    const inOther = all.find((s) => s.org.id !== home.orgId)!
    expect(inOther.teamIds).toHaveLength(1)
    expect(inOther.grants.map((g) => g.capability).sort()).toEqual(['assign', 'view'])
  })

  it('is empty for a user without a workspace', async () => {
    expect(await server.storage.read((s) => s.access.standingsOf(newId('UserId') as UserId))).toEqual([])
  })
})
