import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * The personal daily plan: per person and date, ordered items that name a task of any workspace (by
 * reference, never a copy of its content) or hold free text.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  await db.schema
    .createTable('plan_items')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // No foreign keys to the task or its org: a membership can end and a task can be deleted; the
    // item stays and reads as hidden.
    .addColumn('org_id', 'text')
    .addColumn('task_id', 'text')
    .addColumn('text', 'text')
    .addColumn('time_start', 'text')
    .addColumn('time_end', 'text')
    .addColumn('estimate_minutes', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('carried_from', 'text')
    .addColumn('carry_count', 'integer', (c) => c.notNull())
    .addColumn('done_at', sql.raw(ts))
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_items_pk', ['user_id', 'id'])
    // A task once per day (text items have null task ids, which never collide).
    .addUniqueConstraint('plan_items_task', ['user_id', 'date', 'org_id', 'task_id'])
    .addCheckConstraint(
      'plan_items_kind',
      sql`(kind = 'task' and org_id is not null and task_id is not null and text is null) or (kind = 'text' and task_id is null and text is not null)`,
    )
    .execute()
  await db.schema
    .createIndex('plan_items_day')
    .on('plan_items')
    .columns(['user_id', 'date', 'position', 'id'])
    .execute()
}
