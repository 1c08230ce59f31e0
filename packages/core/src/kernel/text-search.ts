import { ProblemError } from './problems.ts'

/**
 * The terms of a full-text search: NFKC, lower-cased, split on anything that is not a letter, digit
 * or mark, each once, at most `max` of them (a 400 on `pointer` beyond). Storage matches each as a
 * word prefix in its full-text index (SQLite FTS5, Postgres `tsvector`), so terms carry no syntax of
 * either engine and need no escaping there.
 */
export function fullTextTerms(q: string, max: number, pointer = '/query/q'): string[] {
  const terms = [
    ...new Set(
      q
        .normalize('NFKC')
        .toLowerCase()
        .split(/[^\p{L}\p{N}\p{M}]+/u)
        .filter(Boolean),
    ),
  ]
  if (terms.length > max) {
    throw new ProblemError('rule_violated', `Search for at most ${max} words at once.`, {
      errors: [{ pointer, message: `At most ${max} words` }],
    })
  }
  return terms
}
