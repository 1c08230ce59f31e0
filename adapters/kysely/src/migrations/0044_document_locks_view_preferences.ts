import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Document locks (who locked it, when; null while unlocked) and display preferences of saved views:
 * a view's default (`member_id` '') and each member's own overrides, one row per view and member.
 * The empty string rather than null keeps the pair a plain primary key on both databases.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  const json = sql.raw(dialect === 'postgres' ? 'jsonb' : 'text')
  await db.schema.alterTable('documents').addColumn('locked_at', ts).execute()
  await db.schema.alterTable('documents').addColumn('locked_by_id', 'text').execute()

  await db.schema
    .createTable('view_preferences')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('view_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('preferences', json, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('view_preferences_pk', ['org_id', 'view_id', 'member_id'])
    .addForeignKeyConstraint(
      'view_preferences_view',
      ['org_id', 'view_id'],
      'saved_views',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .execute()
}
