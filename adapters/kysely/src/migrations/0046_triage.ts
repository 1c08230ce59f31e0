import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Team settings (estimates, auto-close and auto-archive periods, triage on/off, default state, who
 * handles triage) and the triage snooze of a task. A team without a settings row has the defaults.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const json = dialect === 'postgres' ? 'jsonb' : 'text'
  await db.schema
    .createTable('team_settings')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('estimate_scale', 'text', (c) => c.notNull())
    .addColumn('auto_close_days', 'integer')
    .addColumn('auto_archive_days', 'integer')
    .addColumn('triage_enabled', 'integer', (c) => c.notNull()) // 0 or 1 in both dialects
    .addColumn('default_state_id', 'text')
    .addColumn('triage_responsibility', 'text', (c) => c.notNull())
    .addColumn('triage_action', 'text', (c) => c.notNull())
    .addColumn('triage_member_ids', sql.raw(json), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('team_settings_pk', ['org_id', 'team_id'])
    .addForeignKeyConstraint('team_settings_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()
  await db.schema
    .createTable('triage_snoozes')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('snoozed_until', sql.raw(ts), (c) => c.notNull())
    .addColumn('snoozed_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('triage_snoozes_pk', ['org_id', 'task_id'])
    .addForeignKeyConstraint('triage_snoozes_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'], (f) =>
      f.onDelete('cascade'),
    )
    .execute()
}
