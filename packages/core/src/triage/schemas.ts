import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { NullableTimestamp } from '../kernel/schema-types.ts'
import { Task } from '../tasks/schemas.ts'

export const TriageItem = Type.Object(
  {
    id: IdSchema('TaskId', 'The task’s id (the keyset of the list).'),
    task: Task,
    snoozedUntil: NullableTimestamp('Hidden from the queue until then; null when not snoozed.'),
  },
  { $id: 'TriageItem', additionalProperties: false, description: 'A task waiting in a team’s triage.' },
)
export type TriageItem = Static<typeof TriageItem>

export const TRIAGE_OUTCOMES = ['accepted', 'declined', 'duplicate'] as const
export type TriageOutcome = (typeof TRIAGE_OUTCOMES)[number]
