import { type TObject, type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { withKeywords } from './schema-types.ts'

/**
 * How a request body takes one of its resource's fields: `true` as the resource declares it; a
 * string, the same schema with what the field does in this request as its description; an object,
 * the same schema with keywords a write adds (a description, a tighter `maxItems`). Never another
 * type: what a client sends and what it reads stay one type (docs/api-conventions.md).
 */
export type FieldUse = true | string | { description?: string; [keyword: string]: unknown }

type Picked<T extends TProperties, K extends keyof T> = { [P in K]: T[P] }
type OptionalPicked<T extends TProperties, K extends keyof T> = { [P in K]: TOptional<T[P]> }

/** Some of a resource's fields, required, as a request body's properties (see `FieldUse`). */
export function fieldsOf<T extends TProperties, K extends keyof T & string>(
  resource: TObject<T>,
  fields: { [P in K]: FieldUse },
): Picked<T, K> {
  const picked: Record<string, TSchema> = {}
  for (const [key, use] of Object.entries(fields) as [K, FieldUse][]) {
    const schema = resource.properties[key]
    if (!schema) throw new Error(`${String(resource.$id)} has no field ${key}`)
    // A named component is one schema wherever it is used: a request cannot restate it.
    if (use !== true && schema.$id !== undefined)
      throw new Error(`${String(resource.$id)}.${key} is the component ${schema.$id}: take it as it is`)
    // Spread keeps TypeBox's symbol keys (its kind, a nullable's inner schema), so it checks the same,
    // and the keywords a write adds reach a nullable's inner schema, which checks its values.
    picked[key] =
      use === true ? schema : withKeywords(schema, typeof use === 'string' ? { description: use } : use)
  }
  return picked as Picked<T, K>
}

/** Some of a resource's fields, each optional, as a request body's properties (see `FieldUse`). */
export function optionalFieldsOf<T extends TProperties, K extends keyof T & string>(
  resource: TObject<T>,
  fields: { [P in K]: FieldUse },
): OptionalPicked<T, K> {
  const picked = fieldsOf(resource, fields) as Record<string, TSchema>
  return Object.fromEntries(
    Object.entries(picked).map(([key, schema]) => [key, Type.Optional(schema)]),
  ) as OptionalPicked<T, K>
}
