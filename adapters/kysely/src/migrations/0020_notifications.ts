import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Notifications derived from the event log, each person's settings, the notifier's position per
 * org, followers of records other than tasks, and events only one actor may read.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  // A notification event (`notification.*`) is read by its recipient only, whatever their role.
  await db.schema.alterTable('events').addColumn('recipient_id', 'text').execute()

  await db.schema
    .createTable('notifications')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('event_id', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    // What makes it unique per recipient: the source event, or the task and day of a reminder.
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('read_at', sql.raw(ts))
    .addColumn('snoozed_until', sql.raw(ts))
    .addColumn('archived_at', sql.raw(ts))
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('notifications_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('notifications_org', ['org_id'], 'orgs', ['id'])
    .addUniqueConstraint('notifications_once', ['org_id', 'recipient_id', 'dedupe_key'])
    .execute()
  // A recipient's list, newest first.
  await db.schema
    .createIndex('notifications_recipient')
    .on('notifications')
    .columns(['org_id', 'recipient_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('notification_settings')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pk', ['org_id', 'member_id', 'kind'])
    .addForeignKeyConstraint('notification_settings_org', ['org_id'], 'orgs', ['id'])
    .execute()

  await db.schema
    .createTable('notifier_positions')
    .addColumn('org_id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('seq', sql.raw(dialect === 'postgres' ? 'bigint' : 'integer'), (c) => c.notNull())
    .addForeignKeyConstraint('notifier_positions_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // Existing workspaces start at their current end: history is not replayed as notifications.
  await sql`insert into notifier_positions (org_id, seq) select org_id, last_seq from org_event_counters`.execute(
    db,
  )

  // Followers of projects (later programs and initiatives); tasks keep their subscribers table.
  await db.schema
    .createTable('record_followers')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('record_followers_pk', ['org_id', 'record_type', 'record_id', 'actor_id'])
    .addForeignKeyConstraint('record_followers_org', ['org_id'], 'orgs', ['id'])
    .execute()
}
