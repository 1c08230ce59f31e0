import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * A person's open tasks by due date (`hub.today`'s sections, `hub.tasks` by due date, `tasks.list`
 * with `assigneeId` and `sort=dueDate`) were read whole through `(org_id, assignee_id)` and sorted:
 * 1,000 rows per section in a workspace of 10,000 tasks, to show ten. This index is in that order,
 * the order's key exactly as the list writes it (`coalesce(due_date, '9999-12-31')`: undated tasks
 * last), ties by id, so a page stops at its limit and a due-date range is a range of it. It starts
 * with the old index's columns, which it replaces. docs/performance-log.md, "hub.today by due date".
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('tasks_assignee').execute()
  await sql`create index tasks_assignee_due on tasks (org_id, assignee_id, (coalesce(due_date, '9999-12-31')), id)`.execute(
    db,
  )
}
