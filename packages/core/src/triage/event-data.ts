import { type TSchema, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { Task } from '../tasks/schemas.ts'
import { TRIAGE_OUTCOMES } from './schemas.ts'

/** The `data` of triage events, as service.ts emits it. */
export const TRIAGE_EVENT_DATA: Record<string, TSchema> = {
  'task.triaged': Type.Object({
    task: Task,
    outcome: StringEnum(TRIAGE_OUTCOMES),
    requesterId: Type.String({ description: 'Who asked: the task’s creator.' }),
    reason: Nullable(Type.String(), 'The reason given; null when none.'),
    duplicateOfId: Nullable(IdSchema('TaskId'), 'The task it duplicates; null unless `duplicate`.'),
  }),
  'task.triage_snoozed': Type.Object({
    taskId: IdSchema('TaskId'),
    key: Type.String(),
    snoozedUntil: Type.String({ format: 'date-time' }),
  }),
}
