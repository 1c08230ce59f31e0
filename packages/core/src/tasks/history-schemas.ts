import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { AnyJson, Nullable, Timestamp } from '../kernel/schema-types.ts'

/** One recorded change of one field of a task. */
export const TaskHistoryEntry = Type.Object(
  {
    id: IdSchema('TaskHistoryId'),
    taskId: IdSchema('TaskId'),
    actorId: Nullable(
      ActorIdSchema,
      'Who made the change; null for the system (a rollover when a cycle ends).',
    ),
    field: Type.String({
      description:
        'The field that changed, as named in the Task representation (`title`, `stateId`, `parentId`, ...), or `created` for the creation of the task.',
    }),
    before: AnyJson('The value before the change; null for `created`.'),
    after: AnyJson('The value after the change; for `created`, `{ key, title }` of the new task.'),
    createdAt: Timestamp('When the change happened.'),
  },
  { $id: 'TaskHistoryEntry', additionalProperties: false },
)
export type TaskHistoryEntry = Static<typeof TaskHistoryEntry>
