import { Kind, Type, TypeRegistry } from '@sinclair/typebox'
import { type CustomField, type OrgId, ProblemError } from '@workgraph/core'
import { object, TaskRef, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

// A type list rather than an `anyOf`, which some hosts render badly: text, a number, names, or null.
TypeRegistry.Set(
  'FieldValueArg',
  (_schema, value) =>
    value === null ||
    (typeof value === 'string' && value.length >= 1 && value.length <= 2000) ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) &&
      value.length >= 1 &&
      value.length <= 100 &&
      value.every((v) => typeof v === 'string' && v.length >= 1 && v.length <= 100)),
)
const FieldValueArg = Type.Unsafe<string | number | string[] | null>({
  [Kind]: 'FieldValueArg',
  type: ['string', 'number', 'array', 'null'],
  items: { type: 'string', minLength: 1, maxLength: 100 },
  maxItems: 100,
  description: 'Text, a number, a date, option names, or a person; null clears it.',
})

/** The active field of that name (case-insensitive) or id, read page by page from `customFields.list`. */
async function fieldNamed(call: ToolCall, orgId: OrgId, name: string): Promise<CustomField> {
  const wanted = name.trim().toLowerCase()
  let cursor: string | null = null
  do {
    const page: { data: CustomField[]; nextCursor: string | null } = await call.run('customFields.list', {
      params: { orgId },
      query: { limit: '200', ...(cursor ? { cursor } : {}) },
    })
    const found = page.data.find((f) => f.id === name || f.name.toLowerCase() === wanted)
    if (found) return found
    cursor = page.nextCursor
  } while (cursor)
  throw new ProblemError('unknown_name', `No active custom field is named “${name}”.`, {
    errors: [{ pointer: '/arguments/field', message: 'No such custom field' }],
  })
}

function optionId(field: CustomField, name: string): string {
  const wanted = name.trim().toLowerCase()
  const option = field.options.find((o) => o.id === name || o.name.toLowerCase() === wanted)
  if (!option) {
    const names = field.options.filter((o) => !o.disabled).map((o) => o.name)
    throw new ProblemError('unknown_name', `“${field.name}” has no option “${name}”: ${names.join(', ')}.`, {
      errors: [{ pointer: '/arguments/value', message: 'No such option' }],
    })
  }
  return option.id
}

/** The value as the API takes it: option and person names resolved to ids, numbers parsed. */
async function apiValue(call: ToolCall, orgId: OrgId, field: CustomField, value: unknown) {
  const list = Array.isArray(value) ? value.map(String) : [String(value)]
  switch (field.type) {
    case 'select':
      return optionId(field, list[0]!)
    case 'multiSelect':
      return list.map((name) => optionId(field, name))
    case 'person':
      return call.resolve(orgId, 'person', list[0]!)
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value)
      if (!Number.isFinite(n)) throw new ProblemError('validation_failed', `“${field.name}” takes a number.`)
      return n
    }
    default:
      return list[0]!
  }
}

export const customFieldTools: ToolDefinition[] = [
  {
    name: 'set_task_field',
    title: "Set or clear a task's custom field",
    description: "Sets a task's custom field by name (options by name, a person, a date); null clears it.",
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['customFields.list', 'customFields.get', 'tasks.update', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        field: Type.String({ minLength: 1, maxLength: 100, description: 'The custom field’s name (or id).' }),
        value: FieldValueArg,
      },
      ['task', 'field', 'value'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      const field = await fieldNamed(call, org.id, args.field)
      const value = args.value === null ? null : await apiValue(call, org.id, field, args.value)
      const task = await call.run('tasks.update', {
        params: { orgId: org.id, taskId },
        body: { fields: { [field.id]: value } },
      })
      return { key: task.key, fields: await namedValues(call, org.id, task.fields) }
    },
  },
]

/** A task's values keyed by field name, options by name: what a model reads back. */
async function namedValues(call: ToolCall, orgId: OrgId, values: Record<string, unknown>) {
  const out: Record<string, unknown> = {}
  for (const [fieldId, value] of Object.entries(values)) {
    const field: CustomField = await call.run('customFields.get', { params: { orgId, fieldId } })
    const name = (id: unknown) => field.options.find((o) => o.id === id)?.name ?? id
    out[field.name] = Array.isArray(value) ? value.map(name) : field.type === 'select' ? name(value) : value
  }
  return out
}
