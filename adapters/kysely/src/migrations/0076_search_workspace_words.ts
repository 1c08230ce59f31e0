import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * SQLite: the full-text index `search_fts` (0025) rebuilt with every word of a title or body prefixed by
 * its workspace (`workspace_words(org_id, text)`, adapters/kysely/src/workspace-words.ts, registered on
 * every connection), so one workspace's search reads its own postings only. With one index for every
 * workspace, each workspace's match merged a prefix term's postings over all of them, and bm25 counted
 * every row of every workspace holding each term: the same work once per membership in `hub.search`
 * (issue 31). bm25 now counts a term's rows in the workspace searched, so a workspace's ranking no
 * longer moves with what other workspaces write.
 *
 * The index is contentless (`content=''`, deletes by rowid): its text is no longer the entries' text.
 * `scope` keeps its tokens (org and kind), so every row's length, and with it bm25, is as before.
 * Postgres: nothing (each table's `tsvector` is its own).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return
  for (const name of ['search_entries_insert', 'search_entries_delete', 'search_entries_update'])
    await sql.raw(`drop trigger ${name}`).execute(db)
  await sql`drop table search_fts`.execute(db)
  await sql`create virtual table search_fts using fts5(
    title, body, scope, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0'
  )`.execute(db)
  await sql`create trigger search_entries_insert after insert on search_entries begin
    insert into search_fts(rowid, title, body, scope)
    values (new.seq, workspace_words(new.org_id, new.title), workspace_words(new.org_id, new.body), new.scope);
  end`.execute(db)
  await sql`create trigger search_entries_delete after delete on search_entries begin
    delete from search_fts where rowid = old.seq;
  end`.execute(db)
  await sql`create trigger search_entries_update after update of title, body on search_entries begin
    delete from search_fts where rowid = old.seq;
    insert into search_fts(rowid, title, body, scope)
    values (new.seq, workspace_words(new.org_id, new.title), workspace_words(new.org_id, new.body), new.scope);
  end`.execute(db)
  await sql`insert into search_fts(rowid, title, body, scope)
    select seq, workspace_words(org_id, title), workspace_words(org_id, body), scope from search_entries`.execute(
    db,
  )
}
