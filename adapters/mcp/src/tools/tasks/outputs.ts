import { type TObject, Type } from '@sinclair/typebox'

/**
 * What the task tools answer, for `outputSchema`: the fields every answer has. Rows may carry more
 * (`fields` adds them), so the objects stay open; hosts reading `structuredContent` can rely on these.
 * `type` lists with `null` (not `anyOf`) keep them short: `required` binds only when there is an object.
 */
const Text = Type.String()
const TextOrNull = Type.Unsafe<string | null>({ type: ['string', 'null'] })
const ObjectOrNull = (schema: TObject) => Type.Unsafe({ ...schema, type: ['object', 'null'] })
const ref = (name: string) => Type.Unsafe({ $ref: `#/$defs/${name}` })

export const TaskRow = Type.Object({
  key: Text,
  title: Text,
  state: Text,
  assignee: TextOrNull,
  priority: Text,
})

export const TaskPage = Type.Object({ tasks: Type.Array(TaskRow), nextCursor: TextOrNull })

/** Shared by the answer's lists of tasks (parent, subtasks, blockers) and of containers. */
const $defs = {
  task: Type.Object({ key: Text, title: Text, state: Text }),
  named: ObjectOrNull(Type.Object({ id: Text, name: TextOrNull })),
}

export const TaskDetail = Type.Object(
  {
    ...TaskRow.properties,
    isBlocked: Type.Boolean(),
    labels: Type.Array(Text),
    project: ref('named'),
    milestone: ref('named'),
    cycle: ObjectOrNull(Type.Object({ id: Text, number: Type.Integer(), name: TextOrNull })),
    parent: Type.Unsafe({ anyOf: [ref('task'), { type: 'null' }] }),
    subtasks: Type.Array(ref('task')),
    blockedBy: Type.Array(ref('task')),
    blocks: Type.Array(ref('task')),
    relations: Type.Array(Type.Object({ type: Text, key: Text })),
    comments: Type.Unsafe({ type: 'array' }),
    more: Type.Unsafe({ type: 'object' }),
  },
  { $defs },
)
