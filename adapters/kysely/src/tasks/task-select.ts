import type { ReadScope } from '@workgraph/core'
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import type { Database } from '../schema.ts'
import { blockedBy } from './blocked.ts'

/**
 * Tasks with their key and state category (from the team and the state, so renaming either is one
 * write) and whether an open, unarchived task the reader may view blocks them.
 */
export function taskSelect(db: Kysely<Database>, scope: ReadScope, blocked: 'inline' | 'after' = 'inline') {
  const q = db
    .selectFrom('tasks')
    .innerJoin('teams', (j) =>
      j.onRef('teams.orgId', '=', 'tasks.orgId').onRef('teams.id', '=', 'tasks.teamId'),
    )
    .innerJoin('workflowStates as s', (j) =>
      j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
    )
    .selectAll('tasks')
    .select(['teams.key as teamKey', 's.category as stateCategory'])
    .where('tasks.deletedAt', 'is', null)
  // 'after': the caller sets the flag with `withBlockedFlags`, one query for the whole page.
  return blocked === 'inline'
    ? q.select((eb) => blockedBy(eb, scope).as('isBlocked'))
    : q.select(sql<boolean>`0`.as('isBlocked'))
}

/**
 * The rows of a page given its tasks' ids and sort keys in page order (`keys`, a compound select of
 * `sortKey` and `id`), with the same columns as `taskSelect(…, 'after')`, in the same order. The
 * keys come first (`cross join` keeps SQLite from starting at the tasks table): one primary-key
 * look-up per row of the page.
 */
export function taskSelectByKeys(
  db: Kysely<Database>,
  orgId: string,
  keys: SelectQueryBuilder<Database, keyof Database, { sortKey: unknown; id: string }>,
  direction: 'asc' | 'desc',
) {
  return db
    .selectFrom(keys.as('k'))
    .crossJoin('tasks')
    .innerJoin('teams', (j) =>
      j.onRef('teams.orgId', '=', 'tasks.orgId').onRef('teams.id', '=', 'tasks.teamId'),
    )
    .innerJoin('workflowStates as s', (j) =>
      j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
    )
    .selectAll('tasks')
    .select(['teams.key as teamKey', 's.category as stateCategory'])
    .select(sql<boolean>`0`.as('isBlocked'))
    .where('tasks.orgId', '=', orgId)
    .whereRef('tasks.id', '=', 'k.id')
    .orderBy('k.sortKey', direction)
    .orderBy('k.id', direction)
}
