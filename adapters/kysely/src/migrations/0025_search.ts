import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Full-text indexes for the hub's search and `tasks.list?q=`, in each database's own engine.
 *
 * Postgres: a generated `tsvector` column `search` with a GIN index on tasks, projects, initiatives,
 * comments and status updates (documents have theirs since 0022). Names and titles weigh A, the
 * rest D, as for documents.
 *
 * SQLite: one FTS5 index over every kind, so bm25 scores compare across kinds: `search_entries`
 * holds (org, kind, record id, title, body) with an INTEGER PRIMARY KEY the FTS5 rows point to
 * (implicit rowids of the source tables could be renumbered by VACUUM), `search_fts` indexes it as
 * external content, and triggers on each source table keep both in step with every write. Its
 * third column `scope` holds the org and kind as tokens, so a query matches inside one workspace.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create table search_entries (
      seq integer primary key,
      org_id text not null,
      kind text not null,
      record_id text not null,
      title text not null,
      body text not null,
      scope text not null,
      unique (org_id, kind, record_id)
    )`.execute(db)
    await sql`create virtual table search_fts using fts5(
      title, body, scope, content='search_entries', content_rowid='seq', tokenize='unicode61 remove_diacritics 0'
    )`.execute(db)
    await sql`create trigger search_entries_insert after insert on search_entries begin
      insert into search_fts(rowid, title, body, scope) values (new.seq, new.title, new.body, new.scope);
    end`.execute(db)
    await sql`create trigger search_entries_delete after delete on search_entries begin
      insert into search_fts(search_fts, rowid, title, body, scope) values ('delete', old.seq, old.title, old.body, old.scope);
    end`.execute(db)
    await sql`create trigger search_entries_update after update of title, body on search_entries begin
      insert into search_fts(search_fts, rowid, title, body, scope) values ('delete', old.seq, old.title, old.body, old.scope);
      insert into search_fts(rowid, title, body, scope) values (new.seq, new.title, new.body, new.scope);
    end`.execute(db)
    for (const source of SOURCES) {
      const { kind, table, title, body, columns } = source
      const of = (row: 'new' | 'old', expr: string) => expr.replaceAll('$', `${row}.`)
      await sql
        .raw(`create trigger search_${kind}_insert after insert on ${table} begin
          insert into search_entries(org_id, kind, record_id, title, body, scope)
          values (new.org_id, '${kind}', new.id, ${of('new', title)}, ${of('new', body)}, ${scopeOf('new.org_id', kind)});
        end`)
        .execute(db)
      await sql
        .raw(`create trigger search_${kind}_update after update of ${columns} on ${table} begin
          update search_entries set title = ${of('new', title)}, body = ${of('new', body)}
          where org_id = new.org_id and kind = '${kind}' and record_id = new.id;
        end`)
        .execute(db)
      await sql
        .raw(`create trigger search_${kind}_delete after delete on ${table} begin
          delete from search_entries where org_id = old.org_id and kind = '${kind}' and record_id = old.id;
        end`)
        .execute(db)
      await sql
        .raw(`insert into search_entries(org_id, kind, record_id, title, body, scope)
          select org_id, '${kind}', id, ${title.replaceAll('$', '')}, ${body.replaceAll('$', '')}, ${scopeOf('org_id', kind)}
          from ${table}`)
        .execute(db)
    }
    return
  }
  for (const source of SOURCES) {
    if (source.kind === 'document') continue
    const title = source.title.replaceAll('$', '')
    const body = source.body.replaceAll('$', '')
    await sql
      .raw(`alter table ${source.table} add column search tsvector generated always as (
        setweight(to_tsvector('simple'::regconfig, ${title}), 'A') || setweight(to_tsvector('simple'::regconfig, ${body}), 'D')
      ) stored`)
      .execute(db)
    await sql.raw(`create index ${source.table}_search on ${source.table} using gin (search)`).execute(db)
  }
}

/**
 * The `scope` column of an entry: its org and kind as two tokens (`org01jd… task`), so a search
 * narrows to one workspace and kind inside the FTS5 query itself (`adapters/kysely/src/hub/text.ts`)
 * instead of reading every workspace's matches and filtering them afterwards.
 */
const scopeOf = (orgColumn: string, kind: string) => `replace(lower(${orgColumn}), '_', '') || ' ${kind}'`

/** What each kind indexes: `$column` is the row's column (`new.` or `old.` in a trigger). */
const SOURCES = [
  {
    kind: 'task',
    table: 'tasks',
    title: '$title',
    body: "coalesce($description, '')",
    columns: 'title, description',
  },
  {
    kind: 'project',
    table: 'projects',
    title: '$name',
    body: "coalesce($description, '')",
    columns: 'name, description',
  },
  {
    kind: 'initiative',
    table: 'initiatives',
    title: '$name',
    body: "coalesce($description, '')",
    columns: 'name, description',
  },
  { kind: 'comment', table: 'comments', title: "''", body: "coalesce($body, '')", columns: 'body' },
  { kind: 'update', table: 'status_updates', title: "''", body: '$body', columns: 'body' },
  { kind: 'document', table: 'documents', title: '$title', body: '$content', columns: 'title, content' },
] as const
