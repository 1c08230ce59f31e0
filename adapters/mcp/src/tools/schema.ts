import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { OPERATIONS, PlanStep } from '@workgraph/core'

/**
 * Tool inputs reuse the catalogue's schemas: a field the REST body or query declares is taken from
 * the operation itself, so a tool and its operation can never disagree on what a title or a
 * priority may be. Only fields that take names instead of ids are declared here.
 */
export function fieldOf(
  operationId: string,
  part: 'body' | 'query',
  field: string,
  /** A shorter description than the REST reference's, for `tools/list`. */
  brief?: string,
): TSchema {
  const op = OPERATIONS.find((o) => o.id === operationId)
  const schema = (part === 'body' ? op?.body : op?.query) as TObject | undefined
  const found = schema?.properties?.[field]
  if (!found) throw new Error(`${operationId} has no ${part} field ${field}`)
  return brief === undefined ? found : briefly(found, brief)
}

/** The same fields, optional; `briefs` shortens some descriptions. */
export function optionalFieldsOf(
  operationId: string,
  part: 'body' | 'query',
  fields: string[],
  briefs: Record<string, string> = {},
) {
  return Object.fromEntries(fields.map((f) => [f, Type.Optional(fieldOf(operationId, part, f, briefs[f]))]))
}

/** A copy of `schema` with another description (none when empty): the validation stays the same. */
export function briefly<T extends TSchema>(schema: T, description: string): T {
  const { description: _long, ...rest } = schema
  return (description ? { ...rest, description } : rest) as T
}

/** An object schema whose properties named in `briefs` get shorter descriptions. */
export function brieflyAll<T extends TObject>(schema: T, briefs: Record<string, string>): T {
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => [k, k in briefs ? briefly(v, briefs[k]!) : v]),
  )
  return { ...schema, properties } as T
}

/**
 * How tools name things, said once in the server's instructions rather than in every argument of
 * every tool: `tools/list` is loaded into each conversation a host starts.
 */
export const NAMING =
  'Name things as people do: tasks by key (ENG-42), teams by key or name, states, labels, projects, programs, initiatives and milestones by name, ' +
  'cycles by number, name, `current`, `next` or `previous`, people by email, name or `me`; ids work everywhere. ' +
  '`workspace` (name, slug or id) may be left out when you belong to one. ' +
  'Lists answer `nextCursor`: pass it back as `cursor` for the next page (null: no more). ' +
  'Tools reading every workspace list the ones that failed or timed out in `partial`. ' +
  'A failed call answers `code`, `detail` and, for an argument, `errors` with its `pointer` (`/arguments/team`) and close matches in `candidates`.'

export const Workspace = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
  }),
)
export const TeamRef = Type.String({
  minLength: 1,
  maxLength: 120,
})
export const TaskRef = Type.String({
  minLength: 1,
  maxLength: 60,
})
export const StateRef = Type.String({
  minLength: 1,
  maxLength: 120,
})
export const PersonRef = Type.String({
  minLength: 1,
  maxLength: 320,
})
/** A person, or null for nobody: the plan step's own `assignee` schema (a type list, not an `anyOf`). */
export const PersonOrNone = PlanStep.properties.assignee
export const Cursor = Type.Optional(Type.String({ maxLength: 2000 }))
export const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 }))

export const object = (properties: Record<string, TSchema>, required?: string[]) => {
  const schema = Type.Object(properties, { additionalProperties: false })
  if (required) schema.required = required
  return schema
}
