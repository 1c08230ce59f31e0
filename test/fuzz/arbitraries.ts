import fc from 'fast-check'

type Json = Record<string, any>

/** Where ids for a branded field come from: the fuzzed world's records, so requests reach the services. */
export type IdPool = (brand: string) => string[]

export interface SchemaArbitraries {
  /** Values that satisfy `schema` (ids mostly taken from the pool). */
  valid(schema: Json): fc.Arbitrary<unknown>
  /** Resolves a `$ref` into the document's components. */
  resolve(schema: Json): Json
}

// Building a regex's arbitrary costs milliseconds (fast-check parses the pattern), and every request
// of every operation asks for the same few id patterns again: one per pattern and length bounds.
const matchingOnce = new Map<string, fc.Arbitrary<string>>()
function matching(schema: Json, keep: (s: string) => boolean): fc.Arbitrary<string> {
  const key = JSON.stringify([schema.pattern, schema.minLength, schema.maxLength, keep === short])
  let arbitrary = matchingOnce.get(key)
  if (!arbitrary) {
    arbitrary = fc.stringMatching(new RegExp(schema.pattern)).filter(keep)
    matchingOnce.set(key, arbitrary)
  }
  return arbitrary
}
const short = (s: string) => s.length < 64
const STORABLE_TEXT = '^[^\\u0000\\uD800-\\uDFFF]*$'
// Read in Unicode mode, as JSON Schema validators read patterns: a surrogate pair is one code point.
const STORABLE = new RegExp(STORABLE_TEXT, 'u')

const EDGE_DATES = [
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '1969-12-31T23:59:59Z',
  '2024-02-29T12:00:00+14:00',
  '2030-01-07T00:00:00.000-12:00',
]

/** fast-check arbitraries from the JSON Schemas of an OpenAPI 3.1 document. */
export function schemaArbitraries(document: Json, ids: IdPool): SchemaArbitraries {
  const schemas: Record<string, Json> = document.components.schemas
  const resolve = (schema: Json): Json =>
    typeof schema.$ref === 'string' ? resolve(schemas[schema.$ref.split('/').at(-1)!]!) : schema

  /** A schema whose values hold no object or array: where a recursive schema's values can end. */
  function isLeaf(raw: Json): boolean {
    const schema = resolve(raw)
    if ('const' in schema || Array.isArray(schema.enum)) return true
    const choices = schema.anyOf ?? schema.oneOf
    if (Array.isArray(choices)) return choices.every(isLeaf)
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object']
    return types.every((type) => type !== 'object' && type !== 'array')
  }

  function valid(raw: Json, depth = 0): fc.Arbitrary<unknown> {
    const schema = resolve(raw)
    const values = validIgnoringNot(schema, depth)
    // `not: { const }` or `not: { enum }` (cycles.shift's `days`, never 0): the excluded values drawn
    // are dropped, not sent as if they were valid.
    const excluded = schema.not ? excludedBy(resolve(schema.not)) : []
    return excluded.length === 0
      ? values
      : values.filter((v) => !excluded.some((x) => JSON.stringify(x) === JSON.stringify(v)))
  }

  function validIgnoringNot(schema: Json, depth: number): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const)
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
    const choices = schema.anyOf ?? schema.oneOf
    if (Array.isArray(choices)) return fc.oneof(...choices.map((c: Json) => valid(c, depth)))
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object']
    return fc.oneof(...types.map((type) => ofType(schema, type, depth)))
  }

  function ofType(schema: Json, type: string, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null)
      case 'boolean':
        return fc.boolean()
      case 'integer':
        return fc.integer({
          min: Math.max(schema.minimum ?? -1e9, Number.MIN_SAFE_INTEGER),
          max: Math.min(schema.maximum ?? 1e9, Number.MAX_SAFE_INTEGER),
        })
      case 'number':
        return fc.double({
          min: schema.minimum ?? -1e12,
          max: schema.maximum ?? 1e12,
          noNaN: true,
          noDefaultInfinity: true,
        })
      case 'string':
        return stringOf(schema)
      case 'array': {
        const items = schema.items ? valid(schema.items, depth + 1) : fc.jsonValue()
        const min = schema.minItems ?? 0
        const max = Math.min(schema.maxItems ?? min + 4, min + 4)
        return schema.uniqueItems
          ? fc.uniqueArray(items, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
          : fc.array(items, { minLength: min, maxLength: max })
      }
      default:
        return objectOf(schema, depth)
    }
  }

  function objectOf(schema: Json, depth: number): fc.Arbitrary<unknown> {
    const properties: Record<string, Json> = schema.properties ?? {}
    const required = new Set<string>(schema.required ?? [])
    const min = schema.minProperties ?? 0
    if (depth > 6) {
      // Deep enough (a recursive schema, such as a task filter): only what the schema demands, the
      // required keys and up to `minProperties` of those whose values end here.
      const keys = [...required].filter((k) => k in properties)
      for (const [name, prop] of Object.entries(properties))
        if (keys.length < min && !keys.includes(name) && isLeaf(prop)) keys.push(name)
      return fc.record(Object.fromEntries(keys.map((k) => [k, valid(properties[k]!, depth + 1)])))
    }
    const record = Object.fromEntries(
      Object.entries(properties).map(([name, prop]) => [name, valid(prop, depth + 1)]),
    )
    const max = schema.maxProperties ?? Number.POSITIVE_INFINITY
    return (
      fc
        .record(record, { requiredKeys: [...required].filter((k) => k in properties) })
        // At most `maxProperties`: the required ones first, then the first optional ones drawn.
        .map((o) => {
          const keys = Object.keys(o).sort((a, b) => Number(required.has(b)) - Number(required.has(a)))
          return keys.length <= max ? o : Object.fromEntries(keys.slice(0, max).map((k) => [k, o[k]]))
        })
        .filter((o) => Object.keys(o).length >= min)
    )
  }

  /** Dates and instants, edges included; a pattern beside the format (the years 1 to 9999) is kept. */
  function dateOf(schema: Json): fc.Arbitrary<string> {
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined
    return datesOf(schema).filter((s) => !pattern || pattern.test(s))
  }

  function datesOf(schema: Json): fc.Arbitrary<string> {
    if (schema.format === 'date-time')
      return fc.oneof(
        {
          weight: 8,
          arbitrary: fc
            .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString()),
        },
        fc.constantFrom(...EDGE_DATES),
      )
    return fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10)),
      },
      fc.constantFrom('0000-01-01', '9999-12-31', '2024-02-29'),
    )
  }

  function stringOf(schema: Json): fc.Arbitrary<string> {
    const brand = schema['x-id-brand']
    if (typeof brand === 'string') {
      const pool = ids(brand)
      const shaped = matching(schema, short)
      return pool.length > 0 ? fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...pool) }, shaped) : shaped
    }
    if (schema.format === 'date-time' || schema.format === 'date') return dateOf(schema)
    if (schema.format === 'email') return fc.emailAddress()
    if (schema.format === 'uri') {
      const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined
      return fc
        .oneof(fc.webUrl(), fc.constantFrom('https://example.com/a', 'mailto:a@example.com', 'x:y'))
        .filter((s) => fits(schema, s) && (!pattern || pattern.test(s)))
    }
    // Free text (kernel/openapi/schemas.ts `STORABLE_TEXT`): any text but U+0000 and unpaired surrogates.
    if (schema.pattern === STORABLE_TEXT) return freeText(schema).filter((s) => STORABLE.test(s))
    if (typeof schema.pattern === 'string') {
      const pool = ids(`pattern:${schema.pattern}`)
      const matches = matching(schema, (s) => fits(schema, s))
      return pool.length > 0 ? fc.oneof(fc.constantFrom(...pool), matches) : matches
    }
    return freeText(schema)
  }

  function freeText(schema: Json): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0
    const max = schema.maxLength ?? 2000
    return fc
      .oneof(
        { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, min + 40) }) },
        {
          weight: 2,
          arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, min + 40), unit: 'grapheme' }),
        },
        {
          weight: 1,
          arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, min + 40), unit: 'binary' }),
        },
        // At the declared maximum: the database must hold what validation lets through.
        { weight: 1, arbitrary: fc.constant('é'.repeat(Math.min(max, 100_000))).filter(() => max >= min) },
      )
      .filter((s) => fits(schema, s))
  }

  return { valid: (schema) => valid(schema), resolve }
}

function fits(schema: Json, s: string): boolean {
  return s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY)
}

/** The values a `not` schema of a `const` or an `enum` rules out (none for any other `not`). */
function excludedBy(not: Json): unknown[] {
  if ('const' in not) return [not.const]
  return Array.isArray(not.enum) ? not.enum : []
}
