import {
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnsafe,
  Type,
} from '@sinclair/typebox'

/** What a history entry of one field holds before and after the change. */
export interface ChangeSchema<B extends TSchema = TSchema, A extends TSchema = TSchema> {
  before: B
  after: A
  description: string
}

export const change = <B extends TSchema, A extends TSchema>(
  before: B,
  after: A,
  description: string,
): ChangeSchema<B, A> => ({ before, after, description })

/** A field whose value before and after has one schema. */
export const sameChange = <S extends TSchema>(schema: S, description: string): ChangeSchema<S, S> =>
  change(schema, schema, description)

/** A link of a collection: the id taken away (before) or added (after); the other side is null. */
export const linkChange = <S extends TSchema>(nullableId: S, description: string): ChangeSchema<S, S> =>
  change(nullableId, nullableId, description)

export type FieldChangeSchemas = Readonly<Record<string, ChangeSchema>>

/**
 * The change a writer records, as a union over the fields of the map: a field the map does not
 * name, or a value its schema does not allow, does not compile.
 */
export type RecordedChange<M extends FieldChangeSchemas> = {
  [K in keyof M & string]: { field: K; before: Static<M[K]['before']>; after: Static<M[K]['after']> }
}[keyof M & string]

/** Entries whose `field` is a prefix and an id (`fields.<CustomFieldId>`): one branch for them all. */
export interface PrefixedChange<P extends string, C extends ChangeSchema> {
  prefix: P
  /** The pattern of the id after the prefix, without anchors. */
  idPattern: string
  change: C
  /** The branch's component name after the entry's (`CustomField` → `TaskHistoryEntryCustomField`). */
  name: string
}

export type PrefixedRecordedChange<P extends string, C extends ChangeSchema> = {
  field: `${P}${string}`
  before: Static<C['before']>
  after: Static<C['after']>
}

type Entry<E extends TProperties, C> = Static<TObject<E>> & C

/** `stateId` → `StateId`: the variant's component suffix. */
const pascal = (field: string) => field.replace(/(^|[._])([a-zA-Z])/g, (_m, _s, c: string) => c.toUpperCase())

const ref = (component: string) => `#/components/schemas/${component}`

/**
 * A history entry schema as a union discriminated by `field`: one variant per field of `fields`
 * (component `<name><Field>`), typing `before` and `after` as the writers record them; with
 * `prefixed`, entries of dynamic fields (`fields.<id>`) get one more branch matched by a pattern.
 * OpenAPI's discriminator maps fixed values only, so then the fixed fields form their own
 * discriminated union (`<name>BuiltIn`) beside the prefixed branch. `envelope` holds the entry's
 * other properties, `createdAt` last. The same map types the writers (`RecordedChange`).
 */
export function historyEntrySchema<
  E extends TProperties,
  M extends FieldChangeSchemas,
  P extends string = never,
  C extends ChangeSchema = never,
>(options: {
  name: string
  envelope: E
  fields: M
  description: string
  fieldDescription: string
  prefixed?: PrefixedChange<P, C>
}): TUnsafe<Entry<E, RecordedChange<M> | PrefixedRecordedChange<P, C>>> {
  const { name, envelope, fields, prefixed } = options
  const { createdAt, ...head } = envelope
  const variant = (id: string, field: TSchema, c: ChangeSchema) =>
    Type.Object(
      { ...head, field, before: c.before, after: c.after, ...(createdAt ? { createdAt } : {}) },
      { $id: id, additionalProperties: false, description: c.description },
    )
  const fixed = Object.entries(fields).map(([field, c]) =>
    variant(`${name}${pascal(field)}`, Type.Literal(field, { description: options.fieldDescription }), c),
  )
  const discriminated = (id: string, description: string) =>
    discriminatedUnion(
      id,
      'field',
      Object.fromEntries(Object.keys(fields).map((f, i) => [f, fixed[i]!])),
      `${description} Branch on \`field\`: each field’s \`before\` and \`after\` have their own schema.`,
    )
  if (!prefixed) return Type.Unsafe(discriminated(name, options.description))
  const escaped = prefixed.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const dynamic = variant(
    `${name}${prefixed.name}`,
    Type.String({ pattern: `^${escaped}${prefixed.idPattern}$`, description: options.fieldDescription }),
    prefixed.change,
  )
  return Type.Unsafe({
    $id: name,
    type: 'object',
    description:
      `${options.description} Either an entry of a built-in field (\`${name}BuiltIn\`, discriminated by \`field\`) ` +
      `or of a dynamic one (\`${prefixed.prefix}<id>\`, \`${name}${prefixed.name}\`).`,
    oneOf: [discriminated(`${name}BuiltIn`, `${options.description} A built-in field’s entry.`), dynamic],
  })
}

/**
 * A union of object variants (each with its `$id`) discriminated by `property`: `oneOf` the
 * variants, and OpenAPI's `discriminator` mapping each value of the property to its variant.
 */
export function discriminatedUnion(
  id: string,
  property: string,
  variants: Readonly<Record<string, TSchema>>,
  description: string,
): TSchema {
  const mapping = Object.fromEntries(
    Object.entries(variants).map(([value, variant]) => [value, ref(variant.$id!)]),
  )
  return Type.Unsafe({
    $id: id,
    type: 'object',
    description,
    oneOf: Object.values(variants),
    discriminator: { propertyName: property, mapping },
  })
}

/** Entries named by the value of their discriminant: `project_added` → `ProjectAdded`. */
export const variantSuffix = pascal

/** Changed values by field: a key the map does not name must be absent (typed `never`). */
export type ChangedValues<M extends FieldChangeSchemas, C> = {
  [K in keyof C]: K extends keyof M ? Static<M[K]['after']> | undefined : never
}

/**
 * The entries of an update, one per changed field, `before` read from the record as it was (null
 * when unset): the compiler checks both the record's and the new values against the map.
 */
export function changesOfFields<M extends FieldChangeSchemas, C extends ChangedValues<M, C>>(
  _fields: M,
  before: { [K in keyof C & keyof M]: Static<M[K]['before']> },
  changed: C,
): RecordedChange<M>[] {
  return Object.entries(changed).map(
    ([field, after]) =>
      ({
        field,
        before: (before as Record<string, unknown>)[field] ?? null,
        after: after ?? null,
      }) as RecordedChange<M>,
  )
}

/**
 * `{ field: { before, after } }` for every field in `changed`: the `changes` of an update event
 * (`EventChanges`), where `changesOfFields` writes history entries.
 */
export function changesOf<T extends object>(
  before: T,
  changed: Partial<T>,
): Record<string, { before: unknown; after: unknown }> {
  return Object.fromEntries(
    Object.entries(changed).map(([k, after]) => [
      k,
      { before: before[k as keyof T] ?? null, after: after ?? null },
    ]),
  )
}
