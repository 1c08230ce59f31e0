import type { CustomFieldValues, LabelId, OrgId, ProjectId, ReadScope, TeamId } from '@workgraph/core'
import type { ProjectRow } from '@workgraph/core/storage'
import { type ExpressionBuilder, sql } from 'kysely'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

/** How a project row is read: its mapping, its derived columns (health, open blockers) and who may see it. */

export type Row = { [K in keyof Database['projects']]: unknown } & {
  statusCategory: unknown
  health: unknown
  lastUpdateAt: unknown
  openBlockers: unknown
}
type Project = ProjectRow

export function toProject(
  r: Row,
  teamIds: TeamId[],
  labelIds: LabelId[],
  fields: CustomFieldValues,
): Project {
  return {
    id: r.id as ProjectId,
    orgId: r.orgId as OrgId,
    name: r.name as string,
    description: r.description as string | null,
    icon: r.icon as string | null,
    color: r.color as string,
    statusId: r.statusId as Project['statusId'],
    statusCategory: r.statusCategory as Project['statusCategory'],
    leadId: r.leadId as Project['leadId'],
    teamIds,
    labelIds,
    fields,
    priority: r.priority as Project['priority'],
    startDate: r.startDate as string | null,
    targetDate: r.targetDate as string | null,
    creatorId: r.creatorId as Project['creatorId'],
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    startedAt: isoOrNull(r.startedAt as string | null),
    completedAt: isoOrNull(r.completedAt as string | null),
    canceledAt: isoOrNull(r.canceledAt as string | null),
    archivedAt: isoOrNull(r.archivedAt as string | null),
    convertedFromTaskId: (r.convertedFromTaskId ?? null) as Project['convertedFromTaskId'],
    health: (r.health ?? null) as Project['health'],
    lastUpdateAt: isoOrNull((r.lastUpdateAt ?? null) as string | null),
    blocked: Number(r.openBlockers) > 0,
    openBlockers: Number(r.openBlockers),
    updateCadence: r.updateCadence as Project['updateCadence'],
    updateWeekday: r.updateWeekday as Project['updateWeekday'],
  }
}

/**
 * The project's latest unarchived status update (newest `createdAt`, then id): a correlated
 * subquery on the `status_updates_subject` index, so `health` can be selected and filtered in SQL.
 */
export function latestUpdate(eb: ExpressionBuilder<Database, 'projects'>) {
  return eb
    .selectFrom('statusUpdates as su')
    .whereRef('su.orgId', '=', 'projects.orgId')
    .where('su.subjectType', '=', 'project')
    .whereRef('su.subjectId', '=', 'projects.id')
    .where('su.archivedAt', 'is', null)
    .orderBy('su.createdAt', 'desc')
    .orderBy('su.id', 'desc')
    .limit(1)
}

/**
 * The `blocks` relations onto the project or its milestones whose blocker is open: an unarchived
 * project not completed or canceled and, for a milestone, one that is not done (it has no counted
 * task, or one that is neither completed nor canceled). Every blocker counts, visible or not:
 * hidden ones are counted, never named.
 */
export function openBlockers(eb: ExpressionBuilder<Database, 'projects'>) {
  // The relation's milestone's counted tasks (typed loosely: `r` is an alias of the outer query).
  const milestoneTasks = (e: ExpressionBuilder<any, any>) =>
    (e as ExpressionBuilder<Database, 'projectRelations'>)
      .selectFrom('tasks as mt')
      .whereRef('mt.orgId', '=', sql.ref('r.orgId'))
      .whereRef('mt.milestoneId', '=', sql.ref('r.milestoneId'))
      .where('mt.deletedAt', 'is', null)
      .where('mt.archivedAt', 'is', null)
  return eb
    .selectFrom('projectRelations as r')
    .innerJoin('projects as b', (j) => j.onRef('b.orgId', '=', 'r.orgId').onRef('b.id', '=', 'r.projectId'))
    .innerJoin('projectStatuses as bs', (j) =>
      j.onRef('bs.orgId', '=', 'b.orgId').onRef('bs.id', '=', 'b.statusId'),
    )
    .select((e) => e.fn.countAll().as('n'))
    .whereRef('r.orgId', '=', 'projects.orgId')
    .whereRef('r.relatedProjectId', '=', 'projects.id')
    .where('r.type', '=', 'blocks')
    .where('b.archivedAt', 'is', null)
    .where('bs.category', 'not in', ['completed', 'canceled'])
    .where((e) =>
      e.or([
        e('r.milestoneId', 'is', null),
        e.not(e.exists(milestoneTasks(e).select('mt.id'))),
        e.exists(
          milestoneTasks(e)
            .innerJoin('workflowStates as ms', (j) =>
              j.onRef('ms.orgId', '=', 'mt.orgId').onRef('ms.id', '=', 'mt.stateId'),
            )
            .where('ms.category', 'not in', ['completed', 'canceled'])
            .select('mt.id'),
        ),
      ]),
    )
}

/**
 * The permission predicate of a project read: one of its teams is visible to the reader, or a grant
 * on the project itself reaches them. It is part of the query (an indexed `exists` on
 * `project_teams`, or a literal list of project ids), so pages are exact.
 */
export function visibleProject(eb: ExpressionBuilder<Database, 'projects'>, scope: ReadScope) {
  const throughTeams = eb.exists(
    eb
      .selectFrom('projectTeams as pt')
      .select('pt.teamId')
      .whereRef('pt.orgId', '=', 'projects.orgId')
      .whereRef('pt.projectId', '=', 'projects.id')
      .where((e) => inVisibleTeams(e, 'pt.teamId', scope)),
  )
  if (scope.projectIds.length === 0) return throughTeams
  return eb.or([throughTeams, eb('projects.id', 'in', [...scope.projectIds])])
}
