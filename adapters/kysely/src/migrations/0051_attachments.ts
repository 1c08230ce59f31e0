import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Attachments: files on tasks, comments, projects and documents; the bytes live in a blob store. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  await db.schema
    .createTable('attachments')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('uploader_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('attachments_pk', ['org_id', 'id'])
    .execute()
  // attachments.list reads one record's files in id order.
  await db.schema
    .createIndex('attachments_record')
    .on('attachments')
    .columns(['org_id', 'record_type', 'record_id', 'id'])
    .execute()
}
