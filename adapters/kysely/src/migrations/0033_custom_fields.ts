import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Custom field definitions (options, teams and record kinds as JSON: small, always read whole) and
 * their values on tasks and projects, one row per record and field, typed into the column the
 * field's type sorts and filters by.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const real = dialect === 'postgres' ? 'double precision' : 'real'

  await db.schema
    .createTable('custom_fields')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('record_kinds', 'text', (c) => c.notNull())
    .addColumn('team_ids', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('custom_fields_pk', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('custom_fields_name')
    .on('custom_fields')
    .columns(['org_id', 'name', 'id'])
    .execute()

  await db.schema
    .createTable('custom_field_values')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('field_id', 'text', (c) => c.notNull())
    // text, date, url, select (option id), person (member id)
    .addColumn('value_text', 'text')
    .addColumn('value_number', sql.raw(real))
    // multi-select: a JSON array of option ids
    .addColumn('value_json', 'text')
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('custom_field_values_pk', ['org_id', 'record_kind', 'record_id', 'field_id'])
    .addForeignKeyConstraint('custom_field_values_field', ['org_id', 'field_id'], 'custom_fields', [
      'org_id',
      'id',
    ])
    .execute()
  // Filters by value; the sort reads one row per task through the primary key.
  await db.schema
    .createIndex('custom_field_values_text')
    .on('custom_field_values')
    .columns(['org_id', 'field_id', 'value_text'])
    .execute()
  await db.schema
    .createIndex('custom_field_values_number')
    .on('custom_field_values')
    .columns(['org_id', 'field_id', 'value_number'])
    .execute()
}
