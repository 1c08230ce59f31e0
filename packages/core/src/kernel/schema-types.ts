import {
  Kind,
  type Static,
  type TArray,
  type TObject,
  type TSchema,
  type TUnsafe,
  Type,
  TypeRegistry,
} from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'

// A string from a fixed list: plain `enum` in JSON Schema (what OpenAPI tools and client
// generators read best) instead of TypeBox's `anyOf` of `const`s.
TypeRegistry.Set<{ enum: string[] }>(
  'StringEnum',
  (schema, value) => typeof value === 'string' && schema.enum.includes(value),
)

/**
 * A comma-separated list of some of `values` (spaces around each allowed), as a pattern: the document
 * then states what the server's parsing of the list accepts, where a bare string would not.
 */
export const commaListPattern = (values: readonly string[]): string => {
  const one = `\\s*(${values.join('|')})\\s*`
  return `^${one}(,${one})*$`
}

export const StringEnum = <T extends string>(
  values: readonly T[],
  options: Record<string, unknown> = {},
): TUnsafe<T> => Type.Unsafe<T>({ ...options, [Kind]: 'StringEnum', type: 'string', enum: [...values] })

// `T | null` as OpenAPI 3.1 writes it for scalars, `type: ["string", "null"]`, which reference
// renderers read better than `anyOf`. The inner schema rides along under a symbol (TypeBox clones
// keep it, JSON drops it) and checks non-null values, compiled once per distinct schema.
const Inner = Symbol('NullableInner')
const compiled = new Map<string, TypeCheck<TSchema>>()
function innerCheck(schema: object): TypeCheck<TSchema> {
  const inner = (schema as { [Inner]: TSchema })[Inner]
  const key = JSON.stringify(inner)
  const known = compiled.get(key)
  if (known) return known
  const check = TypeCompiler.Compile(inner)
  compiled.set(key, check)
  return check
}
TypeRegistry.Set('Nullable', (schema, value) => value === null || innerCheck(schema as object).Check(value))

/** The first reason the inner schema refuses a value, for error messages. */
export function nullableReason(schema: object, value: unknown): string | undefined {
  return innerCheck(schema).Errors(value).First()?.message
}

/**
 * `schema` with `keywords` added (a request's tighter `minLength`); for a nullable, to its inner
 * schema too, which is what checks every non-null value: a keyword on the outer one alone would be
 * published in the document and never checked.
 */
export function withKeywords(schema: TSchema, keywords: Record<string, unknown>): TSchema {
  const inner = (schema as { [Inner]?: TSchema })[Inner]
  const { description: _description, ...checked } = keywords
  return inner ? { ...schema, ...keywords, [Inner]: { ...inner, ...checked } } : { ...schema, ...keywords }
}

export const Nullable = <T extends TSchema>(schema: T, description?: string): TUnsafe<Static<T> | null> => {
  if (typeof schema.type !== 'string') throw new Error('Nullable takes a scalar schema')
  // The inner schema's `$id` stays with the inner schema: a nullable copy is not that component.
  const { $id: _id, ...inner } = schema
  return Type.Unsafe<Static<T> | null>({
    ...inner,
    ...(description ? { description } : {}),
    [Kind]: 'Nullable',
    [Inner]: schema,
    type: [schema.type, 'null'],
    ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
  })
}

// Any JSON value, with its types spelled out: reference renderers refuse the bare `{}` schema.
TypeRegistry.Set('AnyJson', () => true)
export const AnyJson = (description: string): TUnsafe<unknown> =>
  Type.Unsafe<unknown>({
    [Kind]: 'AnyJson',
    description,
    type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
  })

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description })
export const NullableTimestamp = (description: string) =>
  Nullable(Type.String({ format: 'date-time' }), description)

/** The response envelope of every list operation. */
export const PageOf = <T extends TSchema>(
  item: T,
  name: string,
): TObject<{ data: TArray<T>; nextCursor: TUnsafe<string | null> }> =>
  Type.Object(
    {
      data: Type.Array(item),
      nextCursor: Nullable(Type.String(), 'Pass as `cursor` for the next page; null on the last page.'),
    },
    { $id: `${name}Page`, additionalProperties: false },
  )

export const Name = (description: string, maxLength = 200) =>
  Type.String({ minLength: 1, maxLength, description })
