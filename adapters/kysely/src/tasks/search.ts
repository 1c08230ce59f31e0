import { type OrgId, type PageRequest, PRIORITY_ORDER, type ReadScope, undatedSortKey } from '@workgraph/core'
import type { TaskFilter, TaskSort } from '@workgraph/core/storage'
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { matchesText } from '../text.ts'
import { blockedBy } from './blocked.ts'
import { fieldFilter } from './fields.ts'
import { taskCondition } from './where.ts'

/**
 * The search and range filters of `tasks.list`, all inside the query so pages stay exact: text
 * terms (each must begin a word of the title or the description, through the full-text index), label, top-level or subtasks, blocked, due-date and time ranges.
 */
export function applyTaskFilters<DB extends Database, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  orgId: OrgId,
  filter: TaskFilter,
  scope: ReadScope,
  dialect: Dialect,
): SelectQueryBuilder<DB, TB, O> {
  // Typed against the tasks table alone: the joins of the caller's query do not matter here.
  let out = q as unknown as SelectQueryBuilder<Database, 'tasks', O>
  if (filter.search) {
    const terms = filter.search
    out = out.where(matchesText(dialect, orgId, 'task', 'tasks', terms))
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
  // Each due-date bound is written twice: on the column, and on the ascending sort key the
  // `tasks_assignee_due` index holds (implied by the first: a dated task's key is its date), so a
  // range of due dates is a range of that index and not a walk of the person's tasks.
  const dueKey = sql<string>`coalesce(${sql.ref('tasks.dueDate')}, ${sql.lit(undatedSortKey('asc'))})`
  if (filter.dueAfter)
    out = out.where('tasks.dueDate', '>=', filter.dueAfter).where(dueKey, '>=', filter.dueAfter)
  if (filter.dueBefore)
    out = out.where('tasks.dueDate', '<=', filter.dueBefore).where(dueKey, '<=', filter.dueBefore)
  if (filter.createdAfter) out = out.where('tasks.createdAt', '>=', filter.createdAfter)
  if (filter.createdBefore) out = out.where('tasks.createdAt', '<', filter.createdBefore)
  if (filter.updatedBefore) out = out.where('tasks.updatedAt', '<', filter.updatedBefore)
  out = applyHubFilters(out, orgId, filter)
  // After the hub's filters: SQLite tests the terms in this order, and `unblocked`'s cheap test (a
  // blocker completed since) rules out most tasks before this one looks up every open blocker
  // (0.46 against 0.80 ms a workspace of 1,000 assigned tasks; docs/performance-log.md).
  if (filter.blocked !== undefined) {
    const blocked = filter.blocked
    out = out.where((eb) => (blocked ? blockedBy(eb, scope) : eb.not(blockedBy(eb, scope))))
  }
  const { customField, where } = filter
  if (customField) out = out.where((eb) => fieldFilter(eb, orgId, customField))
  if (where) out = out.where((eb) => taskCondition(eb, orgId, where, scope, dialect))
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
    case 'field':
      throw new Error('A custom field sort orders by fieldSortKey')
    case 'boardRank':
      return 'tasks.boardRank'
    case 'projectRank':
      return 'tasks.projectRank'
    case 'cycleRank':
      return 'tasks.cycleRank'
  }
}

/** The hub's relations to the reader (created, followed) and its today sections (cycle, unblocked). */
function applyHubFilters<O>(
  q: SelectQueryBuilder<Database, 'tasks', O>,
  orgId: OrgId,
  filter: TaskFilter,
): SelectQueryBuilder<Database, 'tasks', O> {
  let out = q
  if (filter.creatorId) out = out.where('tasks.creatorId', '=', filter.creatorId)
  const { subscriberId, cycleRunningAt: at, blockerCompletedSince: since } = filter
  if (subscriberId) {
    out = out.where((eb) =>
      eb.exists(
        eb
          .selectFrom('taskSubscribers as ts')
          .select(sql.lit(1).as('one'))
          .where('ts.orgId', '=', orgId)
          .whereRef('ts.taskId', '=', 'tasks.id')
          .where('ts.actorId', '=', subscriberId),
      ),
    )
  }
  if (at) {
    out = out.where((eb) =>
      eb.exists(
        eb
          .selectFrom('cycles as cy')
          .select(sql.lit(1).as('one'))
          .where('cy.orgId', '=', orgId)
          .whereRef('cy.id', '=', 'tasks.cycleId')
          .where('cy.startsAt', '<=', at)
          .where('cy.endsAt', '>', at)
          .where('cy.completedAt', 'is', null),
      ),
    )
  }
  if (since) {
    out = out.where((eb) =>
      eb.exists(
        eb
          .selectFrom('taskDependencies as dep')
          .innerJoin('tasks as bt', (j) =>
            j.onRef('bt.orgId', '=', 'dep.orgId').onRef('bt.id', '=', 'dep.blockerId'),
          )
          .select(sql.lit(1).as('one'))
          .where('dep.orgId', '=', orgId)
          .whereRef('dep.blockedId', '=', 'tasks.id')
          .where('bt.completedAt', '>=', since),
      ),
    )
  }
  return out
}
