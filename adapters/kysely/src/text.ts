import type { HubSearchType, OrgId } from '@workgraph/core'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Dialect } from './schema.ts'
import { workspaceWords } from './workspace-words.ts'

/**
 * The full-text match of one kind of record, in each database's own engine (migration 0025): on
 * SQLite the shared FTS5 index `search_fts` over `search_entries` (joined by kind and record id), on
 * Postgres the table's GIN-indexed `search` column. Every term must begin a word; terms are letters,
 * digits and marks only (core's `fullTextTerms`), so they need no escaping in either query language.
 * This is Postgres's `tsquery`; SQLite's is `workspaceFtsQuery`.
 */
export function tsQuery(terms: readonly string[]): string {
  return terms.map((t) => `'${t}':*`).join(' & ')
}

/**
 * The SQLite FTS5 query of one workspace: every term as a word prefix of the title or body, among the
 * workspace's own words (migration 0076, workspace-words.ts). The kind, when one is wanted, is the
 * entries' `kind` column in SQL.
 */
export function workspaceFtsQuery(orgId: OrgId, terms: readonly string[]): string {
  return terms.map((t) => `{title body} : "${workspaceWords(orgId, t)}"*`).join(' AND ')
}

/**
 * Whether the row of `table` (its SQL name) matches every term: a condition on the outer query.
 * SQLite reads the matching record ids of the org from the index once (an uncorrelated `in`);
 * Postgres tests the row's `tsvector`. No terms: nothing matches.
 */
export function matchesText(
  dialect: Dialect,
  orgId: OrgId,
  kind: HubSearchType,
  table: string,
  terms: readonly string[],
): RawBuilder<SqlBool> {
  if (terms.length === 0) return sql<SqlBool>`1 = 0`
  const t = sql.raw(table)
  if (dialect === 'sqlite') {
    return sql<SqlBool>`${t}.id in (select se.record_id from search_fts
      join search_entries se on se.seq = search_fts.rowid
      where search_fts match ${workspaceFtsQuery(orgId, terms)} and se.org_id = ${orgId} and se.kind = ${kind})`
  }
  return sql<SqlBool>`${t}.search @@ to_tsquery('simple', ${tsQuery(terms)})`
}
