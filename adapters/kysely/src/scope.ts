import type { ReadScope } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'

/**
 * The permission predicate of a read: `column in (the teams the actor may view)`. Core computes the
 * list from the grants it loads once per request, so the query carries a literal the planner can
 * estimate (and read team by team through `tasks_team_created`), and an empty list reads nothing.
 * Pages and counts are exact; nothing is filtered afterwards. Org-wide readers get no predicate.
 */
export function inVisibleTeams<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  column: string,
  scope: ReadScope,
): Expression<SqlBool> {
  if (scope.teamIds.length === 0) return sql<SqlBool>`1 = 0`
  return eb(column as never, 'in', [...scope.teamIds] as never)
}
