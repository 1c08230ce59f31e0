import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * The org's default update cadences, requests for updates, and initiative metrics with their
 * check-ins. Projects that kept the old default cadence (`none`) now follow the org's default, which
 * starts off: nothing they show changes until an admin sets one.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  await db.schema
    .createTable('update_settings')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('every_weeks', 'integer', (c) => c.notNull())
    .addColumn('weekday', 'text', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('update_settings_pk', ['org_id', 'subject_type'])
    .addForeignKeyConstraint('update_settings_org', ['org_id'], 'orgs', ['id'])
    .execute()

  await db.schema
    .createTable('update_requests')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('requester_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('update_requests_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('update_requests_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // The latest request of a subject.
  await db.schema
    .createIndex('update_requests_subject')
    .on('update_requests')
    .columns(['org_id', 'subject_type', 'subject_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('initiative_metrics')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('initiative_id', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('currency_code', 'text')
    .addColumn('precision', 'integer', (c) => c.notNull())
    .addColumn('initial', 'double precision', (c) => c.notNull())
    .addColumn('target', 'double precision', (c) => c.notNull())
    .addColumn('current', 'double precision', (c) => c.notNull())
    .addColumn('progress_source', 'text', (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('initiative_metrics_pk', ['org_id', 'initiative_id'])
    .addForeignKeyConstraint('initiative_metrics_initiative', ['org_id', 'initiative_id'], 'initiatives', [
      'org_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('initiative_metric_values')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('initiative_id', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('initiative_metric_values_pk', ['org_id', 'id'])
    .addForeignKeyConstraint(
      'initiative_metric_values_initiative',
      ['org_id', 'initiative_id'],
      'initiatives',
      ['org_id', 'id'],
    )
    .execute()
  await db.schema
    .createIndex('initiative_metric_values_history')
    .on('initiative_metric_values')
    .columns(['org_id', 'initiative_id', 'created_at', 'id'])
    .execute()

  await db
    .updateTable('projects')
    .set({ update_cadence: 'orgDefault' })
    .where('update_cadence', '=', 'none')
    .execute()
}
