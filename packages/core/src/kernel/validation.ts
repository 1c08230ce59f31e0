import { FormatRegistry, Kind, type TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler, type ValueError } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import { BRAND_KEYWORD } from './ids.ts'
import { type FieldError, ProblemError } from './problems.ts'
import { nullableReason } from './schema-types.ts'

// TypeBox refuses unknown formats, so the ones API schemas use are registered once here.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i
const DATE = /^\d{4}-\d{2}-\d{2}$/
// Instants from year 1 to 9999 (UTC): both databases store them, and they print back in this format
// (Postgres has no year 0, which JS would accept).
const EARLIEST = Date.parse('0001-01-01T00:00:00Z')
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')
const inRange = (ms: number) => ms >= EARLIEST && ms <= LATEST
FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && inRange(Date.parse(v)))
FormatRegistry.Set('date', (v) => DATE.test(v) && inRange(Date.parse(`${v}T00:00:00Z`)))
FormatRegistry.Set('email', (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v))
FormatRegistry.Set('uri', (v) => URL.canParse(v))

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
      const input = options.coerce ? Value.Convert(schema, value) : value
      if (!check.Check(input)) throw toProblem(part, [...check.Errors(input)])
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

function toProblem(part: string, errors: ValueError[]): ProblemError {
  const brand = errors.find((e) => typeof e.schema[BRAND_KEYWORD] === 'string' && typeof e.value === 'string')
  const fields = dedupe(errors.map((e) => ({ pointer: `/${part}${e.path}`, message: describe(e) })))
  if (brand) {
    const expected = brand.schema[BRAND_KEYWORD] as string
    return new ProblemError(
      'invalid_identifier',
      `${part}${brand.path.replaceAll('/', '.')} must be a ${expected}.`,
      {
        errors: fields,
        extensions: { expectedType: expected },
      },
    )
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
  if (error.message === 'Unexpected property') return 'Unknown field'
  if (Array.isArray(error.schema.enum)) return `Expected one of: ${error.schema.enum.join(', ')}`
  if (error.schema[Kind] === 'Nullable')
    return `${nullableReason(error.schema, error.value) ?? 'Invalid value'}, or null`
  return error.message
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>()
  return errors.filter((e) => {
    const key = `${e.pointer} ${e.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
