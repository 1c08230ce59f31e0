import type { ReadScope } from '@workgraph/core'
import { type ExpressionBuilder, sql } from 'kysely'
import type { Database } from '../schema.ts'
import { visibleTask } from '../scope.ts'

type Eb = ExpressionBuilder<Database, 'tasks'>

/**
 * Whether an open (not completed or canceled), unarchived task blocks the task: the same rule as
 * `isBlocked`. Only blockers the reader may view count, so neither the flag nor the `blocked`
 * filter reveals a task of a team the reader cannot see.
 */
export function blockedBy(eb: Eb, scope: ReadScope) {
  // Cross joins with the conditions in WHERE: the same inner join, but SQLite then keeps the
  // dependency row (one index seek on the blocked task) as the outer loop. Left to itself, for a
  // reader scoped to a few teams it drove the subquery from `b.team_id in (…)`, reading every
  // task of those teams once per listed row. Postgres plans both forms alike.
  let blockers = eb
    .selectFrom('taskDependencies as d')
    .crossJoin('tasks as b')
    .crossJoin('workflowStates as bs')
    .select(sql.lit(1).as('one'))
    .whereRef('d.orgId', '=', 'tasks.orgId')
    .whereRef('d.blockedId', '=', 'tasks.id')
    .whereRef('b.orgId', '=', 'd.orgId')
    .whereRef('b.id', '=', 'd.blockerId')
    .whereRef('bs.orgId', '=', 'b.orgId')
    .whereRef('bs.id', '=', 'b.stateId')
    .where('b.deletedAt', 'is', null)
    .where('b.archivedAt', 'is', null)
    .where('bs.category', 'not in', ['completed', 'canceled'])
  if (!scope.orgWide) blockers = blockers.where((b) => visibleTask(b, 'b', scope))
  return eb.exists(blockers)
}
