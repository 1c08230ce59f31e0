import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Providers a workspace turned off (a row per disabled provider; none means all are on), app-owned
 * properties on records (namespaced by OAuth client), and the index `linkedItems.lookup` reads by URL.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  await db.schema
    .createTable('disabled_connector_providers')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('disabled_by', 'text', (c) => c.notNull())
    .addColumn('disabled_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('disabled_connector_providers_pk', ['org_id', 'provider_id'])
    .execute()
  await db.schema
    .createTable('record_properties')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    // The OAuth client of the writing token; '' for tokens without one (first-party and local).
    .addColumn('client_key', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    // JSON text on both databases: a value may be a bare string, which jsonb would hand back unquoted.
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('record_properties_pk', [
      'org_id',
      'record_type',
      'record_id',
      'client_key',
      'key',
    ])
    .execute()
  await db.schema
    .createIndex('linked_items_url')
    .on('linked_items')
    .columns(['org_id', 'url', 'id'])
    .execute()
}
