import { createHash } from 'node:crypto'

/** JSON with object keys sorted, so that equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    )
  })
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url')
}

/** A strong ETag of a representation: equal bodies give equal tags on every instance. */
export function etagOf(body: unknown): string {
  return `"${sha256(canonicalJson(body)).slice(0, 32)}"`
}

// RFC 9110 §8.8.3: `*`, or entity-tags (`"…"` or `W/"…"`) separated by commas. The OpenAPI document
// gives it as the pattern of `If-Match` and `If-None-Match`, so what it admits is what is accepted.
export const ETAG_LIST_PATTERN =
  '^\\s*(\\*|(W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*"(\\s*,\\s*(W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*")*)\\s*$'
const ETAG_LIST = new RegExp(ETAG_LIST_PATTERN)

/** Whether an `If-Match` / `If-None-Match` value is well-formed, so a typo is not taken for a stale ETag. */
export function isEtagList(header: string): boolean {
  return ETAG_LIST.test(header)
}

/** RFC 9110 list matching for `If-Match` / `If-None-Match` (strong comparison; `*` matches any). */
export function etagMatches(header: string, etag: string): boolean {
  const tags = header.split(',').map((t) => t.trim())
  return tags.includes('*') || tags.includes(etag)
}
