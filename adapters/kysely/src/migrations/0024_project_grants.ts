import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Grants on projects need no new table (`grants.container_type` is text). A reader holding project
 * grants lists tasks with `project_id in (…)`: this index reads those projects' tasks in list order,
 * and replaces `tasks_project`, its prefix.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('tasks_project_created')
    .on('tasks')
    .columns(['org_id', 'project_id', 'created_at', 'id'])
    .execute()
  await db.schema.dropIndex('tasks_project').execute()
}
