import { createHmac, timingSafeEqual } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import { ProblemError } from './problems.ts'

export const PAGE_LIMIT_DEFAULT = 50
export const PAGE_LIMIT_MAX = 200

/** Query parameters every list operation accepts. */
export const PageQuery = {
  cursor: Type.Optional(
    Type.String({ maxLength: 2048, description: 'The `nextCursor` of the previous page.' }),
  ),
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
  /** The list it belongs to (operation and filters), so a cursor is not replayed on another list. */
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
      JSON.stringify({ s: scope, v: position.value, i: position.id } satisfies CursorBody),
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
    if (parsed.s !== scope) throw invalidCursor('The cursor belongs to another list or other filters.')
    return { value: parsed.v, id: parsed.i }
  }

  /** Seals any JSON value for `scope` (stream positions); same signature and checks as list cursors. */
  seal(scope: string, value: unknown): string {
    const body = Buffer.from(JSON.stringify({ s: scope, v: value })).toString('base64url')
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
    if (parsed.s !== scope) throw invalidCursor('The cursor belongs to another list or other filters.')
    return parsed.v
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url')
  }
}

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
