import type { OrgId, ReadScope, StateCategory } from '@workgraph/core'
import type { StateTally } from '@workgraph/core/storage'
import { type Expression, type Kysely, sql } from 'kysely'
import type { Database } from '../schema.ts'
import { visibleTask } from '../scope.ts'

/**
 * Unarchived, undeleted tasks of some projects by state category, counted and estimate-summed over
 * the tasks `scope` may view (`visibleTask`: a visible team, or a project grant that reaches the
 * reader). One query serves a project (`projects` is its id), a program or an initiative (`projects`
 * is a subquery of their visible project ids), so every rollup counts the same tasks.
 */
export async function stateTally(
  db: Kysely<Database>,
  orgId: OrgId,
  projects: string | Expression<unknown>,
  scope: ReadScope,
): Promise<StateTally[]> {
  let q = db
    .selectFrom('tasks')
    .innerJoin('workflowStates as s', (j) =>
      j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
    )
    .select((eb) => [
      's.category as category',
      eb.fn.countAll().as('tasks'),
      eb.fn.coalesce(eb.fn.sum('tasks.estimate'), sql.lit(0)).as('points'),
    ])
    .where('tasks.orgId', '=', orgId)
    .where('tasks.deletedAt', 'is', null)
    .where('tasks.archivedAt', 'is', null)
  q =
    typeof projects === 'string'
      ? q.where('tasks.projectId', '=', projects)
      : q.where('tasks.projectId', 'in', projects as never)
  if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
  const rows = await q.groupBy('s.category').execute()
  return rows.map((r) => ({
    category: r.category as StateCategory,
    tasks: Number(r.tasks),
    points: Number(r.points),
  }))
}
