import { createHmac, timingSafeEqual } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import { sha256 } from './pipeline/canonical.ts'
import { ProblemError } from './problems.ts'

export const PAGE_LIMIT_DEFAULT = 50
export const PAGE_LIMIT_MAX = 200

/**
 * What every cursor the server issues looks like: base64url JSON, a dot, and its base64url HMAC-SHA256
 * (`CursorCodec`). The schema says so, so that a client or a fuzzer generating a cursor from the
 * document gets the shape right; a text of another shape is refused as `invalid_cursor`, like a
 * cursor of the right shape whose signature does not match (pipeline/validation.ts).
 */
export const CURSOR_PATTERN = '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$'

/** The `cursor` query parameter, at most `maxLength` characters (what the list's cursors can reach). */
export function CursorParam(maxLength: number, description: string) {
  return Type.String({ pattern: CURSOR_PATTERN, maxLength, description })
}

/** Query parameters every list operation accepts. */
export const PageQuery = {
  cursor: Type.Optional(CursorParam(2048, 'The `nextCursor` of the previous page (opaque, signed).')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_LIMIT_MAX,
      default: PAGE_LIMIT_DEFAULT,
      description: `Page size (default ${PAGE_LIMIT_DEFAULT}, max ${PAGE_LIMIT_MAX}).`,
    }),
  ),
}

/** A position in a keyset-ordered list: the sort key of the last row and its id. */
export interface KeysetPosition {
  value: string | number | null
  id: string
}

/** What storage needs to read one page: rows after `after`, at most `limit + 1` of them. */
export interface PageRequest<S extends string = string> {
  sort: S
  direction: 'asc' | 'desc'
  after: KeysetPosition | null
  limit: number
}

export interface Page<T> {
  data: T[]
  nextCursor: string | null
}

interface CursorBody {
  /**
   * The list it belongs to (operation and filters), so a cursor is not replayed on another list: a
   * digest of it, so that long filters do not lengthen the cursor past its schema's `maxLength`.
   */
  s: string
  v: string | number | null
  i: string
}

/**
 * Opaque, tamper-proof cursors: base64url(JSON) + HMAC. The key comes from storage so that every
 * server instance accepts every other instance's cursors.
 */
export class CursorCodec {
  readonly #key: Buffer
  constructor(key: Buffer) {
    this.#key = key
  }

  encode(scope: string, position: KeysetPosition): string {
    const body = Buffer.from(
      JSON.stringify({ s: scopeDigest(scope), v: position.value, i: position.id } satisfies CursorBody),
    ).toString('base64url')
    return `${body}.${this.#sign(body)}`
  }

  /** Decodes a cursor for `scope`; anything altered, truncated or from another list is a 400. */
  decode(scope: string, cursor: string): KeysetPosition {
    const [body, mac, extra] = cursor.split('.')
    if (!body || !mac || extra !== undefined) throw invalidCursor()
    const expected = Buffer.from(this.#sign(body))
    const given = Buffer.from(mac)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor()
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorBody
    if (parsed.s !== scopeDigest(scope))
      throw invalidCursor('The cursor belongs to another list or other filters.')
    return { value: parsed.v, id: parsed.i }
  }

  /** Seals any JSON value for `scope` (stream positions); same signature and checks as list cursors. */
  seal(scope: string, value: unknown): string {
    const body = Buffer.from(JSON.stringify({ s: scopeDigest(scope), v: value })).toString('base64url')
    return `${body}.${this.#sign(body)}`
  }

  /** Opens a sealed value; anything altered or sealed for another scope is a 400 `invalid_cursor`. */
  open(scope: string, cursor: string): unknown {
    const [body, mac, extra] = cursor.split('.')
    if (!body || !mac || extra !== undefined) throw invalidCursor()
    const expected = Buffer.from(this.#sign(body))
    const given = Buffer.from(mac)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor()
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { s: string; v: unknown }
    if (parsed.s !== scopeDigest(scope))
      throw invalidCursor('The cursor belongs to another list or other filters.')
    return parsed.v
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url')
  }
}

/** 128 bits of the scope's SHA-256: the signature makes the cursor unforgeable, this only names its list. */
function scopeDigest(scope: string): string {
  let digest = digests.get(scope)
  if (digest === undefined) {
    digest = sha256(scope).slice(0, 22)
    if (digests.size >= MAX_DIGESTS) digests.delete(digests.keys().next().value!)
    digests.set(scope, digest)
  }
  return digest
}

/**
 * Scopes recently digested: a client paging one list sends the same scope every request (a hash
 * per page was about 1% of a task page's CPU). Bounded; the oldest scope goes first.
 */
const digests = new Map<string, string>()
const MAX_DIGESTS = 1_000

function invalidCursor(detail = 'The cursor is malformed or has been altered.'): ProblemError {
  return new ProblemError('invalid_cursor', detail, {
    errors: [{ pointer: '/query/cursor', message: detail }],
  })
}

/** Turns `limit + 1` rows from storage into a page and the cursor of the next one. */
export function toPage<T>(rows: T[], limit: number, next: (last: T) => string): Page<T> {
  if (rows.length <= limit) return { data: rows, nextCursor: null }
  const data = rows.slice(0, limit)
  return { data, nextCursor: next(data[data.length - 1] as T) }
}

/**
 * Runs a read whose cursor came in the request body (a read by POST): a refused cursor points at
 * `/body/cursor`, where the client sent it, instead of the query string.
 */
export async function withBodyCursor<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (!(error instanceof ProblemError) || error.code !== 'invalid_cursor') throw error
    throw new ProblemError('invalid_cursor', error.message, {
      errors: [{ pointer: '/body/cursor', message: error.message }],
    })
  }
}
