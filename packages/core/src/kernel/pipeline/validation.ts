import { Kind, type TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler, type ValueError, ValueErrorType } from '@sinclair/typebox/compiler'
import './formats.ts'
import { BRAND_KEYWORD } from '../ids.ts'
import { type FieldError, ProblemError } from '../problems.ts'
import { nullableReason } from '../schema-types.ts'
import { hintInWords, identifierHint } from './identifier-hints.ts'
import { convertQueryStrings, EMPTY_QUERY_VALUE, emptyQueryParameter } from './query-strings.ts'

/** A compiled validator for one part of a request (params, query or body). */
export interface PartValidator<T = unknown> {
  /** Returns the value, converted from strings where `coerce` was set, or throws a 400 problem. */
  parse(value: unknown): T
}

export function compilePart<T>(
  schema: TSchema,
  part: 'params' | 'query' | 'body',
  options: { coerce: boolean },
): PartValidator<T> {
  const check: TypeCheck<TSchema> = TypeCompiler.Compile(schema)
  return {
    parse(value) {
      // Checked first, iteratively: the schema checker recurses (hashing array items, say), and no
      // schema of the catalogue nests anywhere near this deep.
      const deep = tooDeep(value, '')
      if (deep !== null)
        throw new ProblemError('validation_failed', `/${part}${deep}: ${TOO_DEEP}`, {
          errors: [{ pointer: `/${part}${deep}`, message: TOO_DEEP }],
        })
      const empty = part === 'query' ? emptyQueryParameter(schema, value) : null
      if (empty !== null)
        throw new ProblemError('validation_failed', `/query/${empty}: ${EMPTY_QUERY_VALUE}`, {
          errors: [{ pointer: `/query/${empty}`, message: EMPTY_QUERY_VALUE }],
        })
      const input = options.coerce ? convertQueryStrings(schema, value) : value
      if (!check.Check(input)) throw toProblem(part, [...check.Errors(input)], input)
      const bad = unstorableText(input, '')
      if (bad !== null)
        throw new ProblemError('validation_failed', `/${part}${bad}: ${UNSTORABLE}`, {
          errors: [{ pointer: `/${part}${bad}`, message: UNSTORABLE }],
        })
      return input as T
    },
  }
}

const UNSTORABLE = 'Text must not contain U+0000 or an unpaired surrogate'
const MAX_DEPTH = 32
const TOO_DEEP = `Values must not nest more than ${MAX_DEPTH} levels deep`

/** The JSON Pointer of the first value nested deeper than MAX_DEPTH, or null. */
function tooDeep(value: unknown, root: string): string | null {
  const stack: [unknown, string, number][] = [[value, root, 0]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, pointer, depth] = next
    if (typeof item !== 'object' || item === null) continue
    if (depth >= MAX_DEPTH) return pointer
    for (const [key, child] of Object.entries(item))
      stack.push([child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, depth + 1])
  }
  return null
}
// NUL and lone surrogates are valid in a JS string but not in Postgres text or jsonb (nor in UTF-8).
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for.
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The JSON Pointer of a string (value or key) the databases cannot store, or null. Iterative: bodies nest deep. */
function unstorableText(value: unknown, root: string): string | null {
  const stack: [unknown, string][] = [[value, root]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, pointer] = next
    if (typeof item === 'string') {
      if (UNSTORABLE_TEXT.test(item)) return pointer
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
        if (UNSTORABLE_TEXT.test(key)) return at
        stack.push([child, at])
      }
    }
  }
  return null
}

function toProblem(part: string, errors: ValueError[], input: unknown): ProblemError {
  const brand = errors.find((e) => typeof e.schema[BRAND_KEYWORD] === 'string' && typeof e.value === 'string')
  const fields = onePerPointer(errors.map((e) => ({ pointer: `/${part}${e.path}`, message: describe(e) })))
  if (brand) {
    const expected = brand.schema[BRAND_KEYWORD] as string
    const where = `${part}${brand.path.replaceAll('/', '.')}`
    const values = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {}
    const hint = identifierHint(expected, brand.value as string, values)
    return new ProblemError(
      'invalid_identifier',
      hint
        ? `${where} must be a ${expected}; ${hintInWords(brand.value as string, hint)}`
        : `${where} must be a ${expected}.`,
      {
        errors: fields,
        extensions: { expectedType: expected, ...(hint ? { lookup: hint.lookup } : {}) },
      },
    )
  }
  // A cursor not of the shape the server issues (CURSOR_PATTERN) is refused as any altered cursor is.
  if (
    part === 'query' &&
    errors.length > 0 &&
    errors.every((e) => e.path === '/cursor' && e.type !== ValueErrorType.ObjectAdditionalProperties)
  ) {
    const detail = 'The cursor is malformed or has been altered.'
    return new ProblemError('invalid_cursor', detail, {
      errors: [{ pointer: '/query/cursor', message: detail }],
    })
  }
  const first = fields[0]
  return new ProblemError(
    'validation_failed',
    first ? `${first.pointer}: ${first.message}` : `The ${part} is not valid.`,
    {
      errors: fields,
    },
  )
}

function describe(error: ValueError): string {
  if (error.schema[BRAND_KEYWORD]) return `Expected a ${error.schema[BRAND_KEYWORD]}`
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const guess = closestField(error.path.split('/').at(-1) ?? '', Object.keys(error.schema.properties ?? {}))
    return guess ? `Unknown field; did you mean \`${guess}\`?` : 'Unknown field'
  }
  if (error.type === ValueErrorType.StringPattern) return patternInWords(error.schema)
  if (Array.isArray(error.schema.enum)) return `Expected one of: ${error.schema.enum.join(', ')}`
  if (error.schema[Kind] === 'Nullable')
    return `${nullableReason(error.schema, error.value) ?? 'Invalid value'}, or null`
  return error.message
}

/** The first (most specific) error at each pointer: a field wrong in several ways is reported once. */
function onePerPointer(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>()
  return errors.filter((e) => {
    if (seen.has(e.pointer)) return false
    seen.add(e.pointer)
    return true
  })
}

/** A regular expression is no explanation: say what the value should be, with an example when there is one. */
function patternInWords(schema: TSchema): string {
  const example = Array.isArray(schema.examples) ? schema.examples[0] : undefined
  const what = typeof schema.description === 'string' ? schema.description.replace(/\.$/, '') : undefined
  const like = typeof example === 'string' ? ` (for example \`${example}\`)` : ''
  return what ? `Not in the expected form: ${what}${like}` : `Not in the expected form${like}`
}

/**
 * The known field a misspelt one most likely meant: the same letters ignoring case and `_`/`-`
 * (`state_id` → `stateId`), else at most two edits away; none when nothing is that close.
 */
export function closestField(name: string, known: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[_-]/g, '')
  const same = known.find((k) => plain(k) === plain(name))
  if (same) return same
  // Short names are a few edits from anything, so they need to be nearer.
  const allowed = plain(name).length >= 5 ? 2 : 1
  let best: { field: string; distance: number } | undefined
  for (const field of known) {
    const distance = editDistance(plain(name), plain(field))
    if (distance <= allowed && (!best || distance < best.distance)) best = { field, distance }
  }
  return best?.field
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}
