import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * A reader with team and project grants lists the two sides separately (docs/performance.md,
 * "Project grants"): the project side, `project_id in (…)`, reads its page in the list's order
 * through `tasks_project_created` (0024) or, for `-updatedAt`, through this index.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('tasks_project_updated')
    .on('tasks')
    .columns(['org_id', 'project_id', 'updated_at', 'id'])
    .execute()
}
