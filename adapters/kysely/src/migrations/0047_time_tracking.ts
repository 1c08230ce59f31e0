import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Time tracking: logged time on tasks, one running timer per person, and allocations (a person's
 * planned effort on a project over a date range).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')

  await db.schema
    .createTable('time_entries')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    // The Monday of the ISO week of `date`, so summaries group by week with a plain column.
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('time_entries_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('time_entries_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .addForeignKeyConstraint('time_entries_member', ['org_id', 'member_id'], 'members', ['org_id', 'id'])
    .addCheckConstraint('time_entries_minutes', sql`minutes between 1 and 1440`)
    .execute()
  await db.schema
    .createIndex('time_entries_date')
    .on('time_entries')
    .columns(['org_id', 'date', 'id'])
    .execute()
  await db.schema
    .createIndex('time_entries_task')
    .on('time_entries')
    .columns(['org_id', 'task_id', 'date'])
    .execute()
  await db.schema
    .createIndex('time_entries_member')
    .on('time_entries')
    .columns(['org_id', 'member_id', 'date'])
    .execute()

  // One row per person: the primary key is the "one timer across workspaces" rule. No foreign key
  // to the task or its org: a membership can end while a timer runs; stopping then discards it.
  await db.schema
    .createTable('timers')
    .addColumn('user_id', 'text', (c) => c.notNull().primaryKey().references('users.id'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('started_at', ts, (c) => c.notNull())
    .execute()

  // No foreign key to the project: deleting a project leaves its allocations behind, and every read
  // joins the project, so they are never seen again.
  await db.schema
    .createTable('allocations')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('allocations_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('allocations_member', ['org_id', 'member_id'], 'members', ['org_id', 'id'])
    .addCheckConstraint('allocations_dates', sql`start_date <= end_date`)
    .addCheckConstraint('allocations_unit', sql`unit in ('percent', 'hoursPerWeek')`)
    .execute()
  await db.schema
    .createIndex('allocations_member')
    .on('allocations')
    .columns(['org_id', 'member_id', 'start_date'])
    .execute()
  await db.schema
    .createIndex('allocations_project')
    .on('allocations')
    .columns(['org_id', 'project_id', 'start_date'])
    .execute()
}
