import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { OPERATIONS, PlanStep } from '@workgraph/core'

/**
 * Tool inputs reuse the catalogue's schemas: a field the REST body or query declares is taken from
 * the operation itself, so a tool and its operation can never disagree on what a title or a
 * priority may be. Only fields that take names instead of ids are declared here.
 */
export function fieldOf(operationId: string, part: 'body' | 'query', field: string): TSchema {
  const op = OPERATIONS.find((o) => o.id === operationId)
  const schema = (part === 'body' ? op?.body : op?.query) as TObject | undefined
  const found = schema?.properties?.[field]
  if (!found) throw new Error(`${operationId} has no ${part} field ${field}`)
  return found
}

/** The same fields, optional. */
export function optionalFieldsOf(operationId: string, part: 'body' | 'query', fields: string[]) {
  return Object.fromEntries(fields.map((f) => [f, Type.Optional(fieldOf(operationId, part, f))]))
}

export const Workspace = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Workspace name, slug or id; may be left out when you belong to one workspace.',
  }),
)
export const TeamRef = Type.String({
  minLength: 1,
  maxLength: 120,
  description: 'Team key (`ENG`), name or id.',
})
export const TaskRef = Type.String({
  minLength: 1,
  maxLength: 60,
  description: 'Task key such as `ENG-42`, or id.',
})
export const StateRef = Type.String({
  minLength: 1,
  maxLength: 120,
  description: "Workflow state name (`In Progress`) of the task's team, or id.",
})
export const PersonRef = Type.String({
  minLength: 1,
  maxLength: 320,
  description: 'A person: email, name, `me`, or member id.',
})
/** A person, or null for nobody: the plan step's own `assignee` schema (a type list, not an `anyOf`). */
export const PersonOrNone = PlanStep.properties.assignee
export const Cursor = Type.Optional(
  Type.String({ maxLength: 2000, description: 'The `nextCursor` of the previous page.' }),
)
export const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 }))

export const object = (properties: Record<string, TSchema>, required?: string[]) => {
  const schema = Type.Object(properties, { additionalProperties: false })
  if (required) schema.required = required
  return schema
}
