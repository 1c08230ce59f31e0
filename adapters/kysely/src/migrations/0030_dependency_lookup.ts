import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Every listed task asks whether an open task blocks it (`task_dependencies` by `blocked_id`, then
 * the blocker). `(org_id, blocked_id)` made SQLite prefer the primary key, which covers the columns
 * but is led by `blocker_id`, and read the org's every edge per listed row. This index covers the
 * look-up in its own order and replaces the narrower one.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('task_dependencies_blocker')
    .on('task_dependencies')
    .columns(['org_id', 'blocked_id', 'blocker_id'])
    .execute()
  await db.schema.dropIndex('task_dependencies_blocked').execute()
}
