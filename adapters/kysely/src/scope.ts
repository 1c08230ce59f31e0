import type { ReadScope } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'

/**
 * The permission predicate of a read: `column in (the teams the actor may view)`. Core computes the
 * list from the grants it loads once per request, so the query carries a literal the planner can
 * estimate (and read team by team through `tasks_team_number`), and an empty list reads nothing.
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

/**
 * The permission predicate of a task read (`table` names the tasks row: `tasks`, or an alias): its
 * team is visible, or its project holds a grant that reaches the actor. A reader without project
 * grants gets exactly the team predicate, so the project path costs them nothing. For the others
 * the `or` keeps pages exact but is slow on large orgs (docs/performance.md, "Project grants").
 */
export function visibleTask<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  table: string,
  scope: ReadScope,
): Expression<SqlBool> {
  const team = inVisibleTeams(eb, `${table}.teamId`, scope)
  if (scope.projectIds.length === 0) return team
  const project = eb(`${table}.projectId` as never, 'in', [...scope.projectIds] as never)
  return scope.teamIds.length === 0 ? project : eb.or([team, project])
}
