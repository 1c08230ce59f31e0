import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * One family of URL links: a task's links join those of projects, programs and initiatives in
 * `resource_links` (parent type `task`), and `task_links` goes. Each keeps its ULID under the one
 * prefix of links (`tlnk_…` becomes `lnk_…`), its author and times; its position is its rank by
 * creation on the task, the order a task's links were listed in until now.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`
    insert into resource_links
      (org_id, id, parent_type, parent_id, url, title, position, created_by, created_at, updated_at)
    select org_id, 'lnk_' || substr(id, 6), 'task', task_id, url, title,
      row_number() over (partition by org_id, task_id order by created_at, id) - 1,
      created_by, created_at, updated_at
    from task_links`.execute(db)
  await db.schema.dropTable('task_links').execute()
}
