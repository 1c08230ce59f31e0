import { type CreateTableBuilder, type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Documents of teams and projects (later programs and initiatives, hence no foreign key on the
 * holder), their content versions and subscribers, and a full-text index on title and content:
 * FTS5 on SQLite, a generated `tsvector` with a GIN index on Postgres.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const sqlite = dialect === 'sqlite'

  let documents: CreateTableBuilder<'documents', string> = db.schema.createTable('documents')
  // SQLite: an INTEGER PRIMARY KEY keeps the rowid the FTS5 index points to stable (VACUUM may
  // renumber implicit rowids); the natural key stays unique.
  if (sqlite) documents = documents.addColumn('seq', 'integer', (c) => c.primaryKey())
  documents = documents
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('holder_type', 'text', (c) => c.notNull())
    .addColumn('holder_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('last_editor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
  documents = sqlite
    ? documents.addUniqueConstraint('documents_key', ['org_id', 'id'])
    : documents.addPrimaryKeyConstraint('documents_pk', ['org_id', 'id'])
  await documents.addForeignKeyConstraint('documents_org', ['org_id'], 'orgs', ['id']).execute()
  // The org's list, newest first; a holder's list.
  await db.schema
    .createIndex('documents_created')
    .on('documents')
    .columns(['org_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('documents_holder')
    .on('documents')
    .columns(['org_id', 'holder_type', 'holder_id', 'created_at', 'id'])
    .execute()

  if (sqlite) {
    // External content: the index reads title and content from `documents`, triggers keep it in step.
    // unicode61 without diacritic folding matches what Postgres's `simple` configuration does.
    await sql`create virtual table documents_fts using fts5(
      title, content, content='documents', content_rowid='seq', tokenize='unicode61 remove_diacritics 0'
    )`.execute(db)
    await sql`create trigger documents_fts_insert after insert on documents begin
      insert into documents_fts(rowid, title, content) values (new.seq, new.title, new.content);
    end`.execute(db)
    await sql`create trigger documents_fts_delete after delete on documents begin
      insert into documents_fts(documents_fts, rowid, title, content) values ('delete', old.seq, old.title, old.content);
    end`.execute(db)
    await sql`create trigger documents_fts_update after update of title, content on documents begin
      insert into documents_fts(documents_fts, rowid, title, content) values ('delete', old.seq, old.title, old.content);
      insert into documents_fts(rowid, title, content) values (new.seq, new.title, new.content);
    end`.execute(db)
  } else {
    // The title weighs more than the content in the rank (A over D).
    await sql`alter table documents add column search tsvector generated always as (
      setweight(to_tsvector('simple'::regconfig, title), 'A') || setweight(to_tsvector('simple'::regconfig, content), 'D')
    ) stored`.execute(db)
    await sql`create index documents_search on documents using gin (search)`.execute(db)
  }

  await db.schema
    .createTable('document_versions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('restored_from_id', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('document_versions_pk', ['org_id', 'id'])
    // One version per number: two concurrent saves of one document cannot both become version n.
    .addUniqueConstraint('document_versions_number', ['org_id', 'document_id', 'number'])
    .addForeignKeyConstraint('document_versions_document', ['org_id', 'document_id'], 'documents', [
      'org_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('document_subscribers')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('document_subscribers_pk', ['org_id', 'document_id', 'actor_id'])
    .addForeignKeyConstraint('document_subscribers_document', ['org_id', 'document_id'], 'documents', [
      'org_id',
      'id',
    ])
    .execute()
}
