import { PROBLEMS } from '@workgraph/core'

type Json = Record<string, any>

/** What a body must never show a client: stack frames, source paths, driver or SQL text. */
const LEAKS: [string, RegExp][] = [
  ['stack frame', /\bat [\w.<>]+ \(|\n\s+at /],
  ['source path', /node_modules|file:\/\/|\/work\/|\.ts:\d+|\.js:\d+/],
  ['driver message', /SQLITE_|SqliteError|sqlite3|better-sqlite|\bpg\b|Kysely|kysely/],
  [
    'SQL',
    /syntax error at or near|violates [\w ]*constraint|duplicate key value|relation "|column "|invalid byte sequence|out of range for type|\bSELECT\b[^"]*\bFROM\b|\bINSERT INTO\b/,
  ],
  ['internal exception', /TypeError|RangeError|ReferenceError|Maximum call stack|Cannot read propert/],
]

/**
 * The fuzzer's oracle for one response: no 5xx; every error an RFC 9457 document whose code is in
 * the catalogue, matches the status and is listed for the operation; nothing internal in a body.
 * Returns what is wrong, or null. (Schema validity of 2xx bodies is the OpenAPI validator's job.)
 */
export function judge(
  response: { status: number; contentType: string; text: string },
  declared: Json | undefined,
): string | null {
  const { status, contentType, text } = response
  if (status >= 500) return `${status}: ${text.slice(0, 300)}`
  if (status >= 400) {
    if (!contentType.startsWith('application/problem+json')) return `${status} with ${contentType}`
    let doc: Json
    try {
      doc = JSON.parse(text)
    } catch {
      return `${status}: the problem is not JSON`
    }
    const entry = PROBLEMS[doc.code as keyof typeof PROBLEMS]
    if (!entry) return `${status}: code ${doc.code} is not in the catalogue`
    if (entry.status !== status || doc.status !== status)
      return `${status}: code ${doc.code} is a ${entry.status}`
    for (const field of ['type', 'title', 'detail'])
      if (typeof doc[field] !== 'string') return `${status} ${doc.code}: no ${field}`
    const listed = declared?.responses?.[String(status)]?.description as string | undefined
    if (declared && !listed?.includes(`\`${doc.code}\``))
      return `${status} ${doc.code}: not listed for ${declared.operationId}`
  }
  const leaks = status >= 400 ? LEAKS : LEAKS.slice(0, 2)
  for (const [what, pattern] of leaks) if (pattern.test(text)) return `${status}: ${what} in the body`
  return null
}
