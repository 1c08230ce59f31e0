import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Mail delivery of notifications (docs/mail.md): the person's digest hour and mail kinds beside the
 * `notification_delivery` they chose (its old values mapped onto the new ones), the mail pass's
 * position in each org's log, the outbox and the last digest of each person.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer'

  await db.schema
    .alterTable('user_preferences')
    .addColumn('digest_hour', 'integer', (c) => c.notNull().defaultTo(9))
    .execute()
  // The kinds set explicitly, as JSON text; the others are on.
  await db.schema
    .alterTable('user_preferences')
    .addColumn('mail_kinds', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute()
  // `immediate` was the default every row got, now `instant`; a weekly digest no longer exists, and
  // the daily one is the nearest to what the person asked for.
  await sql`update user_preferences set notification_delivery = case notification_delivery
    when 'immediate' then 'instant' when 'weeklyDigest' then 'dailyDigest' else notification_delivery end`.execute(
    db,
  )

  await db.schema
    .createTable('mail_positions')
    .addColumn('org_id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('seq', sql.raw(bigint), (c) => c.notNull())
    .addForeignKeyConstraint('mail_positions_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // Existing workspaces start at their current end: earlier notifications are not mailed now.
  await sql`insert into mail_positions (org_id, seq) select org_id, last_seq from org_event_counters`.execute(
    db,
  )

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('lease_until', sql.raw(ts))
    .addColumn('last_attempt_at', sql.raw(ts))
    .addColumn('last_error', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('sent_at', sql.raw(ts))
    .execute()
  // The sender's query: pending mail by when it is due.
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute()

  await db.schema
    .createTable('mail_digests')
    .addColumn('user_id', 'text', (c) => c.notNull().primaryKey().references('users.id'))
    // The person's local date of the last digest: one a day, whatever the number of instances.
    .addColumn('last_on', 'text', (c) => c.notNull())
    .addColumn('last_at', sql.raw(ts), (c) => c.notNull())
    .execute()
}
