import type { MemberId, ProjectId, TeamId } from '@workgraph/core'
import type { ProjectRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { joinTable, teamIn } from '../join-table.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

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

  const teams = joinTable(db, {
    table: 'projectTeams',
    holder: 'projectId',
    other: 'teamId',
    at: 'createdAt',
  })
  const members = joinTable(db, {
    table: 'projectMembers',
    holder: 'projectId',
    other: 'memberId',
    at: 'createdAt',
  })
  const labels = joinTable(db, {
    table: 'projectLabels',
    holder: 'projectId',
    other: 'labelId',
    at: 'createdAt',
  })

  return {
    async listTeams(orgId, id, page, scope) {
      const visible = scope.orgWide ? undefined : teamIn(scope)
      return (await teams.list(orgId, id, page, 'teamId', visible)).map(team)
    },
    async getTeam(orgId, id, teamId) {
      const row = await teams.get(orgId, id, teamId)
      return row ? team(row) : null
    },
    async listMembers(orgId, id, page) {
      return (await members.list(orgId, id, page, 'memberId')).map(member)
    },
    async getMember(orgId, id, memberId) {
      const row = await members.get(orgId, id, memberId)
      return row ? member(row) : null
    },
    addMember: (orgId, id, memberId, at) => members.add(orgId, id, memberId, at),
    removeMember: (orgId, id, memberId) => members.remove(orgId, id, memberId),
    addLabel: (orgId, id, labelId, at) => labels.add(orgId, id, labelId, at),
    removeLabel: (orgId, id, labelId) => labels.remove(orgId, id, labelId),
    addTeam: (orgId, id, teamId, at) => teams.add(orgId, id, teamId, at),
    removeTeam: (orgId, id, teamId) => teams.remove(orgId, id, teamId),
  }
}
