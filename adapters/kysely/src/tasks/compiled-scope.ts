import type { ReadScope } from '@workgraph/core'

/**
 * A reader's scope in a query compiled once (`compiledOnce`): what of it changes the SQL (org-wide,
 * or how many teams and projects), its values as arguments, and the scope rebuilt from stand-ins.
 */
export function scopeShape(scope: ReadScope): string {
  return scope.orgWide ? 'org' : `${scope.teamIds.length}/${scope.projectIds.length}`
}

/** The scope's values as arguments: none for an org-wide reader (its query has no predicate). */
export function scopeArgs(scope: ReadScope): string[] {
  return scope.orgWide ? [] : [...scope.teamIds, ...scope.projectIds]
}

/** The scope with stand-ins for its teams and projects, to build the query once. */
export function scopeStandIn(scope: ReadScope, args: readonly string[]): ReadScope {
  if (scope.orgWide) return scope
  const teams = scope.teamIds.length
  return { ...scope, teamIds: args.slice(0, teams), projectIds: args.slice(teams) }
}
