import { ProblemError } from '../kernel/problems.ts'

/** A record a name may point at: its id, the names it answers to, and how to show it. */
export interface NameCandidate<T> {
  value: T
  id: string
  /** Keys, slugs, emails and names; compared trimmed and case-insensitively. */
  names: readonly (string | null | undefined)[]
  /** What a person reads in a list of candidates: `ENG (Engineering)`. */
  label: string
}

/** How many near matches an unknown name lists. */
const SUGGESTIONS = 5

/**
 * Picks the one candidate `input` names: an exact id, else an exact (case-insensitive) key, email or
 * name. Several matches → 422 `ambiguous_name` listing them; none → 422 `unknown_name` with the
 * closest names. Candidates are what the caller may see, so neither answer leaks a hidden record.
 */
export function matchName<T>(
  what: string,
  input: string,
  candidates: readonly NameCandidate<T>[],
  pointer = '',
): T {
  const wanted = fold(input)
  const byId = candidates.find((c) => c.id === input.trim())
  if (byId) return byId.value
  const exact = candidates.filter((c) => c.names.some((n) => n != null && fold(n) === wanted))
  if (exact.length === 1) return exact[0]!.value
  if (exact.length > 1) {
    const list = exact.map((c) => ({ id: c.id, label: c.label }))
    throw new ProblemError(
      'ambiguous_name',
      `"${input}" matches ${exact.length} ${what}s: ${list.map((c) => c.label).join(', ')}. Use one of their ids or a more exact name.`,
      {
        errors: [{ pointer, message: `More than one ${what} is named "${input}"` }],
        extensions: { kind: what, name: input, candidates: list },
      },
    )
  }
  const suggestions = closest(wanted, candidates).map((c) => ({ id: c.id, label: c.label }))
  throw new ProblemError(
    'unknown_name',
    `No ${what} named "${input}".${suggestions.length ? ` Closest: ${suggestions.map((c) => c.label).join(', ')}.` : ''}`,
    {
      errors: [{ pointer, message: `No ${what} named "${input}"` }],
      extensions: { kind: what, name: input, candidates: suggestions },
    },
  )
}

function fold(s: string): string {
  return s.trim().toLowerCase()
}

/** Candidates ordered by how near their nearest name is; containment counts as very near. */
function closest<T>(wanted: string, candidates: readonly NameCandidate<T>[]): NameCandidate<T>[] {
  const scored = candidates.map((c) => {
    let best = Number.POSITIVE_INFINITY
    for (const raw of c.names) {
      if (raw == null) continue
      const name = fold(raw)
      const score = name.includes(wanted) || wanted.includes(name) ? 0.5 : distance(wanted, name)
      best = Math.min(best, score)
    }
    return { c, best }
  })
  const limit = Math.max(2, Math.ceil(wanted.length / 2))
  return scored
    .filter((s) => s.best <= limit)
    .sort((a, b) => a.best - b.best)
    .slice(0, SUGGESTIONS)
    .map((s) => s.c)
}

/** Levenshtein distance, one row at a time. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
    }
    previous = current
  }
  return previous[b.length]!
}
