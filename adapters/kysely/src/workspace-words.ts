import type { OrgId } from '@workgraph/core'

/**
 * SQLite's full-text index holds every word of a workspace's records with the workspace in front
 * (`org01jd…rocket`, migration 0076), so a workspace's search reads only its own postings: a prefix
 * term (`"org01jd…rock"*`) merges one workspace's words, not every workspace's, and bm25 counts the
 * rows holding a term in that workspace only. A word is what core's `fullTextTerms` calls one (letters,
 * digits, marks), so a query term and an indexed word get the same prefix; the index's tokenizer
 * (unicode61) then reads them alike on both sides. Org ids are of one length, so no prefix is the
 * start of another (and every search still filters its entries by `org_id`).
 */
export function workspaceWords(orgId: string, text: string): string {
  const prefix = orgToken(orgId)
  return text.replace(WORD, (word) => prefix + word)
}

/** An org id as one lower-case token, the `scope` column's (migration 0025) and the words' prefix. */
const orgToken = (orgId: OrgId | string) => orgId.toLowerCase().replaceAll('_', '')

const WORD = /[\p{L}\p{N}\p{M}]+/gu

/** The subset of better-sqlite3's `Database` that registers a function. */
interface FunctionHost {
  function(
    name: string,
    options: { deterministic: boolean },
    fn: (orgId: unknown, text: unknown) => string | null,
  ): unknown
}

/**
 * Registers `workspace_words` on a connection: every SQLite connection that writes a searchable record
 * needs it, since the search index's triggers call it (a connection without it fails the write with
 * "no such function").
 */
export function registerWorkspaceWords(database: FunctionHost): void {
  database.function('workspace_words', { deterministic: true }, (orgId, text) =>
    text == null ? null : workspaceWords(String(orgId), String(text)),
  )
}
