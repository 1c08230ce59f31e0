import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Workspace exports and imports. An export's NDJSON lives in `export_chunks` (one row per step of
 * the job), so it works on both databases without a filesystem; `checkpoint` is where the next step
 * resumes. An import keeps its source text, its row checkpoint, per-row errors, and
 * `import_mappings` (source record or row → created id), which makes a re-run create nothing twice.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  const json = sql.raw(dialect === 'postgres' ? 'jsonb' : 'text')
  await db.schema
    .createTable('exports')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('checkpoint', json, (c) => c.notNull())
    .addColumn('counts', json, (c) => c.notNull())
    .addColumn('chunks', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .addPrimaryKeyConstraint('exports_pk', ['org_id', 'id'])
    .execute()
  // The job's queue: unfinished exports of every org, oldest first.
  await db.schema.createIndex('exports_status').on('exports').columns(['status', 'created_at']).execute()

  await db.schema
    .createTable('export_chunks')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('export_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('export_chunks_pk', ['org_id', 'export_id', 'seq'])
    .execute()

  await db.schema
    .createTable('imports')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull())
    .addColumn('processed_rows', 'integer', (c) => c.notNull())
    .addColumn('created_count', 'integer', (c) => c.notNull())
    .addColumn('skipped_count', 'integer', (c) => c.notNull())
    .addColumn('error_count', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .addPrimaryKeyConstraint('imports_pk', ['org_id', 'id'])
    .execute()
  await db.schema.createIndex('imports_status').on('imports').columns(['status', 'created_at']).execute()

  await db.schema
    .createTable('import_errors')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('import_id', 'text', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('field', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_errors_pk', ['org_id', 'import_id', 'row'])
    .execute()

  await db.schema
    .createTable('import_mappings')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_mappings_pk', ['org_id', 'source_key'])
    .execute()
}
