import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * The person's own data (profile fields, preferences, favorites across workspaces), the last time an
 * app obtained a token on a consent, and saved views (org-scoped, personal or shared with a team).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const json = dialect === 'postgres' ? 'jsonb' : 'text'

  await db.schema.alterTable('users').addColumn('avatar_url', 'text').execute()
  await db.schema.alterTable('users').addColumn('time_zone', 'text').execute()
  await db.schema.alterTable('users').addColumn('locale', 'text').execute()
  await db.schema.alterTable('oauth_consents').addColumn('last_used_at', sql.raw(ts)).execute()

  await db.schema
    .createTable('user_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    // No foreign key: a membership can end; reads answer null then.
    .addColumn('default_org_id', 'text')
    .addColumn('week_start', 'text', (c) => c.notNull())
    .addColumn('notification_delivery', 'text', (c) => c.notNull())
    .addColumn('date_format', 'text', (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .execute()

  // Per person across workspaces: the record's org is a column, not the key.
  await db.schema
    .createTable('favorites')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'id'])
    .addUniqueConstraint('favorites_record', ['user_id', 'org_id', 'record_type', 'record_id'])
    .execute()
  await db.schema
    .createIndex('favorites_order')
    .on('favorites')
    .columns(['user_id', 'position', 'id'])
    .execute()

  await db.schema
    .createTable('saved_views')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    // Null for a personal view; the team it is shared with otherwise.
    .addColumn('team_id', 'text')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('filter', sql.raw(json), (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('saved_views_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('saved_views_owner', ['org_id', 'owner_id'], 'members', ['org_id', 'id'])
    .addForeignKeyConstraint('saved_views_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('saved_views_owner')
    .on('saved_views')
    .columns(['org_id', 'owner_id', 'id'])
    .execute()
  await db.schema
    .createIndex('saved_views_team')
    .on('saved_views')
    .columns(['org_id', 'team_id', 'id'])
    .execute()
}
