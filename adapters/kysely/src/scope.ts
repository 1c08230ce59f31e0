import type { OrgId, ReadScope } from '@workgraph/core'
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'

/**
 * The permission predicate of a read, as a subquery: the teams in which the actor, or a team it
 * belongs to, holds a grant. Queries put `team_id in (…)` in their WHERE clause, so pages and
 * counts are exact and nothing is filtered afterwards. Org-wide readers get no predicate at all.
 */
export function visibleTeamIds(db: Kysely<Database>, orgId: OrgId, scope: ReadScope) {
  const actorTeams = db
    .selectFrom('teamMemberships')
    .select('teamMemberships.teamId')
    .where('teamMemberships.orgId', '=', orgId)
    .where('teamMemberships.actorId', '=', scope.actorId)
  return db
    .selectFrom('grants')
    .select('grants.containerId')
    .where('grants.orgId', '=', orgId)
    .where('grants.containerType', '=', 'team')
    .where((eb) =>
      eb.or([
        eb('grants.subjectId', '=', scope.actorId),
        eb.and([eb('grants.subjectType', '=', 'team'), eb('grants.subjectId', 'in', actorTeams)]),
      ]),
    )
}
