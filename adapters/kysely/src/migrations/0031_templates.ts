import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Task and project templates of teams, recurring work with one row per occurrence (its primary key
 * is what makes each occurrence's task be created once, however many schedulers run), and people's
 * reminders on tasks.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  const json = sql.raw(dialect === 'postgres' ? 'jsonb' : 'text')

  await db.schema
    .createTable('templates')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('task', json)
    .addColumn('project', json)
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('templates_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('templates_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()
  await db.schema.createIndex('templates_name').on('templates').columns(['org_id', 'name', 'id']).execute()
  await db.schema
    .createIndex('templates_team')
    .on('templates')
    .columns(['org_id', 'team_id', 'name', 'id'])
    .execute()

  await db.schema
    .createTable('recurrences')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('schedule', json, (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('next_occurrence', 'text')
    .addColumn('last_occurrence', 'text')
    .addColumn('paused_at', ts)
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('recurrences_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('recurrences_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .addForeignKeyConstraint('recurrences_template', ['org_id', 'template_id'], 'templates', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('recurrences_created')
    .on('recurrences')
    .columns(['org_id', 'created_at', 'id'])
    .execute()
  // The scheduler's scan: active ones by their next date.
  await db.schema
    .createIndex('recurrences_due')
    .on('recurrences')
    .columns(['next_occurrence', 'org_id', 'id'])
    .execute()

  await db.schema
    .createTable('recurrence_occurrences')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('recurrence_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    // One row per occurrence: a second scheduler's insert waits for the first and then conflicts.
    .addPrimaryKeyConstraint('recurrence_occurrences_pk', ['org_id', 'recurrence_id', 'date'])
    .addForeignKeyConstraint(
      'recurrence_occurrences_recurrence',
      ['org_id', 'recurrence_id'],
      'recurrences',
      ['org_id', 'id'],
    )
    .execute()

  await db.schema
    .createTable('task_reminders')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('remind_at', ts, (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('delivered_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('task_reminders_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('task_reminders_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('task_reminders_mine')
    .on('task_reminders')
    .columns(['org_id', 'task_id', 'member_id', 'remind_at', 'id'])
    .execute()
  await db.schema
    .createIndex('task_reminders_due')
    .on('task_reminders')
    .columns(['delivered_at', 'remind_at'])
    .execute()
}
