import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Workspace settings (one row per org, absent while default), email domains verified by DNS, and an
 * index that lets the audit log read administrative events newest first without scanning the log.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  await db.schema
    .createTable('org_settings')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id'))
    .addColumn('default_team_id', 'text')
    .addColumn('invitation_policy', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts)
    .execute()

  await db.schema
    .createTable('org_domains')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('txt_name', 'text', (c) => c.notNull())
    .addColumn('txt_value', 'text', (c) => c.notNull())
    .addColumn('last_checked_at', ts)
    .addColumn('last_check_error', 'text')
    .addColumn('verified_at', ts)
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('org_domains_pk', ['org_id', 'id'])
    // One row per name in an org: the list's order and the race on create.
    .addUniqueConstraint('org_domains_name', ['org_id', 'domain'])
    .execute()

  await db.schema.createIndex('events_kind').on('events').columns(['org_id', 'kind', 'seq']).execute()
}
