import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * A reader with project grants lists its teams and each granted project as separate sides
 * (docs/performance-log.md, "Project grants"): a project's side reads its page in the list's order
 * through `tasks_project_created` (0024) or, for `-updatedAt`, through this index.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('tasks_project_updated')
    .on('tasks')
    .columns(['org_id', 'project_id', 'updated_at', 'id'])
    .execute()
}
