import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../../access/schemas.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { Nullable, StringEnum, Timestamp } from '../../kernel/schema-types.ts'
import { Task } from '../schemas.ts'

/** `blockerId` blocks `blockedId`: the blocked task waits until the blocker is done. */
export const TaskDependency = Type.Object(
  {
    blockerId: IdSchema('TaskId'),
    blockedId: IdSchema('TaskId'),
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the dependency was added.'),
  },
  { $id: 'TaskDependency', additionalProperties: false },
)
export type TaskDependency = Static<typeof TaskDependency>

export const RELATION_TYPES = ['related', 'duplicateOf', 'duplicatedBy'] as const
export type RelationType = (typeof RELATION_TYPES)[number]

/** A relation as seen from one task: the other task and how it relates. */
export const TaskRelation = Type.Object(
  {
    type: StringEnum(RELATION_TYPES, {
      description:
        '`related`: symmetric. `duplicateOf`: this task duplicates `task`. `duplicatedBy`: `task` duplicates this one.',
    }),
    task: Task,
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the relation was added.'),
  },
  { $id: 'TaskRelation', additionalProperties: false },
)
export type TaskRelation = Static<typeof TaskRelation>

export const TaskSubscriber = Type.Object(
  {
    taskId: IdSchema('TaskId'),
    actorId: ActorIdSchema,
    addedAt: Timestamp('When the actor subscribed.'),
  },
  { $id: 'TaskSubscriber', additionalProperties: false },
)
export type TaskSubscriber = Static<typeof TaskSubscriber>

export const LinkUrl = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2048,
  description: 'An http or https URL.',
})
export const LinkTitle = Nullable(Type.String({ minLength: 1, maxLength: 500 }), 'Shown instead of the URL.')
