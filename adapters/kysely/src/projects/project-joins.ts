import type { MemberId, ProjectId, TeamId } from '@workgraph/core'
import type { ProjectRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type Joins = Pick<
  ProjectRepo,
  | 'listTeams'
  | 'getTeam'
  | 'addTeam'
  | 'removeTeam'
  | 'listMembers'
  | 'getMember'
  | 'addMember'
  | 'removeMember'
  | 'addLabel'
  | 'removeLabel'
>

/** What a project is joined to: its teams, members and labels (one row each, idempotent adds). */
export function projectJoinRepo(db: Kysely<Database>): Joins {
  const member = (r: { projectId: string; memberId: string; createdAt: unknown }) => ({
    projectId: r.projectId as ProjectId,
    memberId: r.memberId as MemberId,
    addedAt: iso(r.createdAt as string),
  })

  const team = (r: { projectId: string; teamId: string; createdAt: unknown }) => ({
    projectId: r.projectId as ProjectId,
    teamId: r.teamId as TeamId,
    addedAt: iso(r.createdAt as string),
  })

  return {
    async listTeams(orgId, id, page, scope) {
      let q = db
        .selectFrom('projectTeams')
        .select(['projectId', 'teamId', 'createdAt'])
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
      if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'teamId', scope))
      const rows = await keysetPage(q, page, { sort: 'teamId', id: 'teamId' }).execute()
      return rows.map(team)
    },
    async getTeam(orgId, id, teamId) {
      const row = await db
        .selectFrom('projectTeams')
        .select(['projectId', 'teamId', 'createdAt'])
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('teamId', '=', teamId)
        .executeTakeFirst()
      return row ? team(row) : null
    },
    async listMembers(orgId, id, page) {
      const q = db
        .selectFrom('projectMembers')
        .select(['projectId', 'memberId', 'createdAt'])
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
      const rows = await keysetPage(q, page, { sort: 'memberId', id: 'memberId' }).execute()
      return rows.map(member)
    },
    async getMember(orgId, id, memberId) {
      const row = await db
        .selectFrom('projectMembers')
        .select(['projectId', 'memberId', 'createdAt'])
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('memberId', '=', memberId)
        .executeTakeFirst()
      return row ? member(row) : null
    },
    async addMember(orgId, id, memberId, at) {
      const result = await db
        .insertInto('projectMembers')
        .values({ orgId, projectId: id, memberId, createdAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeMember(orgId, id, memberId) {
      const result = await db
        .deleteFrom('projectMembers')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('memberId', '=', memberId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async addLabel(orgId, id, labelId, at) {
      const result = await db
        .insertInto('projectLabels')
        .values({ orgId, projectId: id, labelId, createdAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeLabel(orgId, id, labelId) {
      const result = await db
        .deleteFrom('projectLabels')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('labelId', '=', labelId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async addTeam(orgId, id, teamId, at) {
      const result = await db
        .insertInto('projectTeams')
        .values({ orgId, projectId: id, teamId, createdAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeTeam(orgId, id, teamId) {
      const result = await db
        .deleteFrom('projectTeams')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('teamId', '=', teamId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}
