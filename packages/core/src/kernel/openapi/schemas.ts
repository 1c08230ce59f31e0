import type { TSchema } from '@sinclair/typebox'

// Schemas as the document holds them: plain JSON Schema, every named sub-schema a component.

type Json = Record<string, unknown>

const YEAR_ONE_ON = '^(?!0000)'
/** Any text but U+0000 and unpaired surrogates (in Unicode mode a pair is one code point). */
export const STORABLE_TEXT = '^[^\\u0000\\uD800-\\uDFFF]*$'

function isFreeText(node: Json): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type]
  return (
    types.includes('string') &&
    node.pattern === undefined &&
    node.format === undefined &&
    node.enum === undefined &&
    node.const === undefined
  )
}

/** Plain JSON Schema of a TypeBox schema, with every `$id`'d sub-schema moved to components. */
export function collect(schema: TSchema, schemas: Record<string, Json>, replaced: ReadonlySet<string>): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== 'object') return node
    const { $id, ...rest } = node as Json
    if (typeof $id === 'string' && replaced.has($id)) return { $ref: `#/components/schemas/${$id}` }
    // A recursive schema (TypeBox's `Type.Recursive`, the task filter) refers to itself by its `$id`.
    if (typeof rest.$ref === 'string' && !rest.$ref.startsWith('#'))
      return { ...rest, $ref: `#/components/schemas/${rest.$ref}` }
    const plain = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v)]))
    const unionType = typeOfUnion(rest)
    if (unionType) plain.type = unionType
    // RFC 3339 admits the year 0000; the server stores the years 1 to 9999 (kernel/pipeline/formats.ts) and
    // refuses it: the pattern says so, for generators and validators that read only the document.
    if ((plain.format === 'date' || plain.format === 'date-time') && plain.pattern === undefined)
      plain.pattern = YEAR_ONE_ON
    // Text is stored as the databases can hold it: no U+0000 and no unpaired surrogate anywhere
    // (kernel/pipeline/validation.ts refuses them with 400 `validation_failed`). Free text says so by a
    // pattern, read in Unicode mode as JSON Schema validators read it; ids, formats, enums and
    // patterns of their own already exclude both.
    if (isFreeText(plain)) plain.pattern = STORABLE_TEXT
    if (typeof $id === 'string') {
      // Two different schemas under one name would silently describe one with the other.
      if (schemas[$id] && JSON.stringify(schemas[$id]) !== JSON.stringify(plain))
        throw new Error(`Two different schemas share the $id ${$id}`)
      schemas[$id] ??= plain
      return { $ref: `#/components/schemas/${$id}` }
    }
    return plain
  }
  return walk(JSON.parse(JSON.stringify(schema))) as Json
}

/**
 * The `type` list of a bare `anyOf` whose members all declare their types: some document readers
 * (the interactive reference's among them) refuse a union without a `type` beside it.
 */
function typeOfUnion(node: Json): string[] | undefined {
  const members = node.anyOf
  if (!Array.isArray(members) || node.type !== undefined) return undefined
  const types = new Set<string>()
  for (const member of members as Json[]) {
    const type = member?.type
    if (typeof type === 'string') types.add(type)
    else if (Array.isArray(type)) for (const t of type) types.add(t as string)
    else return undefined
  }
  return [...types]
}
