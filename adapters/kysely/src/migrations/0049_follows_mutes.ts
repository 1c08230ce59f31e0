import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Follow rules on containers and muted records, per member of one workspace. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  await db.schema
    .createTable('notification_subscriptions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    // A JSON array of kinds, as text on both databases.
    .addColumn('kinds', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_subscriptions_pk', ['org_id', 'id'])
    .addUniqueConstraint('notification_subscriptions_target', [
      'org_id',
      'member_id',
      'target_type',
      'target_id',
    ])
    .addForeignKeyConstraint('notification_subscriptions_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // The notifier's lookup: who follows this container.
  await db.schema
    .createIndex('notification_subscriptions_on')
    .on('notification_subscriptions')
    .columns(['org_id', 'target_type', 'target_id'])
    .execute()
  await db.schema
    .createIndex('notification_subscriptions_mine')
    .on('notification_subscriptions')
    .columns(['org_id', 'member_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('notification_mutes')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('until', sql.raw(ts))
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_mutes_pk', ['org_id', 'id'])
    .addUniqueConstraint('notification_mutes_record', ['org_id', 'member_id', 'record_type', 'record_id'])
    .addForeignKeyConstraint('notification_mutes_org', ['org_id'], 'orgs', ['id'])
    .execute()
  await db.schema
    .createIndex('notification_mutes_mine')
    .on('notification_mutes')
    .columns(['org_id', 'member_id', 'created_at', 'id'])
    .execute()
}
