import type { ReadScope } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import type { Database } from './schema.ts'

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
 * grants gets exactly the team predicate, so the project path costs them nothing. The `or` suits
 * reads of a few known rows; `tasks.list` pages read the two sides apart (`tasks/list.ts`), because
 * no planner reads the `or` in page order through an index.
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

/**
 * The permission predicate of a project read by reference (`projectRef` and `orgRef` name the
 * project's id and org columns of the outer query): one of its teams is visible to the reader (an
 * indexed `exists` on `project_teams`), or the project is one where a grant reaches them (a literal
 * list). Org-wide readers are not narrowed; callers skip the predicate for them.
 */
export function visibleProjectRef<DB, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  projectRef: string,
  orgRef: string,
  scope: ReadScope,
): Expression<SqlBool> {
  const eb = outer as unknown as ExpressionBuilder<Database, never>
  const throughTeams = eb.exists(
    eb
      .selectFrom('projectTeams as vpt')
      .select('vpt.teamId')
      .whereRef('vpt.orgId', '=', orgRef as never)
      .whereRef('vpt.projectId', '=', projectRef as never)
      .where((e) => inVisibleTeams(e, 'vpt.teamId', scope)),
  )
  if (scope.projectIds.length === 0) return throughTeams
  return eb.or([throughTeams, eb(projectRef as never, 'in', [...scope.projectIds] as never)])
}

/**
 * The permission predicate of a program read by reference: a grant reaches it (on the program, or
 * on an initiative above it: `programIds`), one of its teams is visible, or it holds a project the
 * reader can view. Org-wide readers are not narrowed (`1 = 1`).
 */
export function visibleProgramRef<DB, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  programRef: string,
  orgRef: string,
  scope: ReadScope,
): Expression<SqlBool> {
  if (scope.orgWide) return sql<SqlBool>`1 = 1`
  const eb = outer as unknown as ExpressionBuilder<Database, never>
  const throughTeams = eb.exists(
    eb
      .selectFrom('programTeams as vgt')
      .select('vgt.teamId')
      .whereRef('vgt.orgId', '=', orgRef as never)
      .whereRef('vgt.programId', '=', programRef as never)
      .where((e) => inVisibleTeams(e, 'vgt.teamId', scope)),
  )
  const throughProjects = eb.exists(
    eb
      .selectFrom('programProjects as vgp')
      .select('vgp.projectId')
      .whereRef('vgp.orgId', '=', orgRef as never)
      .whereRef('vgp.programId', '=', programRef as never)
      .where((e) => visibleProjectRef(e, 'vgp.projectId', 'vgp.orgId', scope)),
  )
  const paths = [throughTeams, throughProjects]
  if (scope.programIds.length > 0)
    paths.unshift(eb(programRef as never, 'in', [...scope.programIds] as never))
  return eb.or(paths)
}

/**
 * The permission predicate of an initiative read: org-wide readers see all; others see an initiative
 * a grant reaches (on it or an initiative above it: `scope.initiativeIds`), or one that, or one of
 * whose sub-initiatives (the closure table), links a project they can view (through its teams or a
 * grant on it or on what holds it). It is part of the query, so pages are exact.
 */
export function visibleInitiativeRef<DB, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  idRef: string,
  orgRef: string,
  scope: ReadScope,
): Expression<SqlBool> {
  if (scope.orgWide) return sql<SqlBool>`1 = 1`
  const eb = outer as unknown as ExpressionBuilder<Database, keyof Database>
  const throughProjects = eb.exists(
    eb
      .selectFrom('initiativeClosure as vc')
      .innerJoin('initiativeProjects as vip', (j) =>
        j.onRef('vip.orgId', '=', 'vc.orgId').onRef('vip.initiativeId', '=', 'vc.descendantId'),
      )
      .select('vc.descendantId')
      .whereRef('vc.orgId', '=', orgRef as never)
      .whereRef('vc.ancestorId', '=', idRef as never)
      .where((e) => visibleProjectRef(e, 'vip.projectId', 'vip.orgId', scope)),
  )
  if (scope.initiativeIds.length === 0) return throughProjects
  return eb.or([eb(idRef as never, 'in', [...scope.initiativeIds] as never), throughProjects])
}
