import { type OrgId, type PageRequest, PRIORITY_ORDER, type ReadScope, undatedSortKey } from '@workgraph/core'
import type { TaskFilter, TaskSort } from '@workgraph/core/storage'
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

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
  if (!scope.orgWide) blockers = blockers.where((b) => inVisibleTeams(b, 'b.teamId', scope))
  return eb.exists(blockers)
}

/** `%`, `_` and the escape character itself match literally. */
function likeContains(token: string): string {
  return `%${token.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * The search and range filters of `tasks.list`, all inside the query so pages stay exact: text
 * tokens (each must appear in the title or the description, compared lower-cased; SQLite folds
 * ASCII letters only), label, top-level or subtasks, blocked, due-date and time ranges.
 */
export function applyTaskFilters<DB extends Database, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  orgId: OrgId,
  filter: TaskFilter,
  scope: ReadScope,
): SelectQueryBuilder<DB, TB, O> {
  // Typed against the tasks table alone: the joins of the caller's query do not matter here.
  let out = q as unknown as SelectQueryBuilder<Database, 'tasks', O>
  for (const token of filter.search ?? []) {
    const pattern = likeContains(token)
    out = out.where(
      sql<SqlBool>`(lower(${sql.ref('tasks.title')}) like ${pattern} escape '\\' or lower(coalesce(${sql.ref(
        'tasks.description',
      )}, '')) like ${pattern} escape '\\')`,
    )
  }
  if (filter.labelId) {
    const labelId = filter.labelId
    out = out.where((eb) =>
      eb.exists(
        eb
          .selectFrom('taskLabels as tl')
          .select(sql.lit(1).as('one'))
          .where('tl.orgId', '=', orgId)
          .whereRef('tl.taskId', '=', 'tasks.id')
          .where('tl.labelId', '=', labelId),
      ),
    )
  }
  if (filter.parentId === null) out = out.where('tasks.parentId', 'is', null)
  if (filter.blocked !== undefined) {
    const blocked = filter.blocked
    out = out.where((eb) => (blocked ? blockedBy(eb, scope) : eb.not(blockedBy(eb, scope))))
  }
  if (filter.dueAfter) out = out.where('tasks.dueDate', '>=', filter.dueAfter)
  if (filter.dueBefore) out = out.where('tasks.dueDate', '<=', filter.dueBefore)
  if (filter.createdAfter) out = out.where('tasks.createdAt', '>=', filter.createdAfter)
  if (filter.createdBefore) out = out.where('tasks.createdAt', '<', filter.createdBefore)
  if (filter.updatedBefore) out = out.where('tasks.updatedAt', '<', filter.updatedBefore)
  return out as unknown as SelectQueryBuilder<DB, TB, O>
}

/**
 * The column or expression a sort key orders by. Priority sorts by its rank (urgent 1 … none 5);
 * a missing due date by a sentinel that puts undated tasks last in either direction. Core's
 * `taskSortValue` computes the same values for cursors.
 */
export function taskSortKey(page: PageRequest<TaskSort>): string | Expression<unknown> {
  switch (page.sort) {
    case 'createdAt':
      return 'tasks.createdAt'
    case 'updatedAt':
      return 'tasks.updatedAt'
    case 'priority': {
      const ranks = PRIORITY_ORDER.map((p, i) => sql`when ${sql.lit(p)} then ${sql.lit(i + 1)}`)
      return sql`(case ${sql.ref('tasks.priority')} ${sql.join(ranks, sql` `)} end)`
    }
    case 'dueDate':
      return sql`coalesce(${sql.ref('tasks.dueDate')}, ${sql.lit(undatedSortKey(page.direction))})`
  }
}
