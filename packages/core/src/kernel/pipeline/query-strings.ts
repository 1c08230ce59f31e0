import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

// Path and query values arrive as text. Only text written the way JSON writes the value becomes a
// number or a boolean: `limit=true`, `1.5`, `1e1`, `0x10` or ` 2` stay text and fail the schema's
// type, where TypeBox's own conversion would have read them as 1, 1, 1, 16 and 2.
const INTEGER = /^-?(0|[1-9][0-9]*)$/
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/

/** The object's string properties converted to the types their schemas declare, when written exactly. */
export function convertQueryStrings(schema: TSchema, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const properties: Record<string, TSchema> = schema.properties ?? {}
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const [name, text] of Object.entries(converted)) {
    const property = properties[name]
    if (property && typeof text === 'string') converted[name] = fromText(property, text)
  }
  return converted
}

function fromText(schema: TSchema, text: string): unknown {
  const variants: TSchema[] | undefined = schema.anyOf ?? schema.oneOf
  if (Array.isArray(variants)) {
    // The text itself when a variant takes it, else the first variant its conversion satisfies.
    if (variants.some((variant) => Value.Check(variant, text))) return text
    for (const variant of variants) {
      const value = fromText(variant, text)
      if (value !== text && Value.Check(variant, value)) return value
    }
    return text
  }
  if ('const' in schema) return typeof schema.const === 'string' ? text : scalar(typeof schema.const, text)
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type]
  // Text where text is allowed stays text: `?name=null` is the name "null".
  if (types.includes('string')) return text
  for (const type of types) {
    const value = scalar(type, text)
    if (value !== text) return value
  }
  return text
}

function scalar(type: unknown, text: string): unknown {
  if (type === 'integer' && INTEGER.test(text)) return Number(text)
  if (type === 'number' && NUMBER.test(text)) return Number(text)
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  if (type === 'null' && text === 'null') return null
  return text
}

/** Why an empty query value is refused (docs/api-conventions.md, "Query parameters"). */
export const EMPTY_QUERY_VALUE = 'Empty value: leave the parameter out, or give it a value'

/**
 * The name of the first parameter of the schema sent with an empty value (`?subjectId=`), or null.
 * An empty value is neither the parameter's absence nor a value: read as absent, it would widen a
 * filter the client meant to narrow, so it is refused whatever the parameter's type. A parameter
 * the schema does not know is left to the schema's own refusal ("Unknown field").
 */
export function emptyQueryParameter(schema: TSchema, value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const properties: Record<string, TSchema> = schema.properties ?? {}
  for (const [name, text] of Object.entries(value)) if (text === '' && properties[name]) return name
  return null
}
