import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * A reader granted more than 32 projects (a top-level initiative, say) lists tasks with one
 * `project_id in (…)` of hundreds of ids, and Postgres estimates that list value by value against the
 * column's most-common-values list (100 entries by default): 0.6–0.9 ms of planning for 200 ids,
 * several times the query's execution. With 10 entries it planned the same query, with the same plan,
 * in 0.13 ms. Projects are many and rarely dominant, so the shorter list costs little accuracy.
 * SQLite keeps no such statistics per value: nothing to do there. docs/performance-log.md.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return
  await sql`alter table tasks alter column project_id set statistics 10`.execute(db)
}
