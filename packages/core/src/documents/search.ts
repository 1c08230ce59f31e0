import { ProblemError } from '../kernel/problems.ts'

/** Most words a document search takes: each is one more term of the full-text query. */
export const DOCUMENT_SEARCH_MAX_TERMS = 8

/**
 * The terms of a search: NFKC, lower-cased, split on anything that is not a letter, digit or mark,
 * each once. Storage matches each as a word prefix in its full-text index (SQLite FTS5, Postgres
 * `tsvector`), so terms carry no syntax of either engine and need no escaping there.
 */
export function documentSearchTerms(q: string): string[] {
  const terms = [
    ...new Set(
      q
        .normalize('NFKC')
        .toLowerCase()
        .split(/[^\p{L}\p{N}\p{M}]+/u)
        .filter(Boolean),
    ),
  ]
  if (terms.length > DOCUMENT_SEARCH_MAX_TERMS) {
    throw new ProblemError(
      'rule_violated',
      `Search for at most ${DOCUMENT_SEARCH_MAX_TERMS} words at once.`,
      { errors: [{ pointer: '/query/q', message: `At most ${DOCUMENT_SEARCH_MAX_TERMS} words` }] },
    )
  }
  return terms
}
