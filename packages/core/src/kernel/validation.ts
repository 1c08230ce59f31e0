import { FormatRegistry, Kind, type TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler, type ValueError } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import { BRAND_KEYWORD } from './ids.ts'
import { type FieldError, ProblemError } from './problems.ts'
import { nullableReason } from './schema-types.ts'

// TypeBox refuses unknown formats, so the ones API schemas use are registered once here.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i
const DATE = /^\d{4}-\d{2}-\d{2}$/
FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)))
FormatRegistry.Set('date', (v) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
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
      if (check.Check(input)) return input as T
      throw toProblem(part, [...check.Errors(input)])
    },
  }
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
