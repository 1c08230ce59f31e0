import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable } from '../kernel/schema-types.ts'
import { Cycle, CycleSettings } from './schemas.ts'

/** The `data` of cycle events, as service.ts, reschedule.ts, rollover.ts and cadence.ts emit it. */
export const CYCLE_EVENT_DATA: Record<string, TSchema> = {
  'cycle.created': recordData('cycle', Cycle),
  'cycle.updated': changedData('cycle', Cycle),
  ...sameData(['cycle.archived', 'cycle.restored'], recordData('cycle', Cycle)),
  'cycle.completed': Type.Object({
    cycle: Cycle,
    nextCycleId: Nullable(IdSchema('CycleId'), 'The cycle its unfinished tasks moved to; null when none.'),
    rolledOverTaskIds: Type.Array(IdSchema('TaskId'), { description: 'The unfinished tasks moved on.' }),
  }),
  'cycle.deleted': Type.Object({
    id: IdSchema('CycleId'),
    teamId: IdSchema('TeamId'),
    number: Type.Integer({ description: 'The number it had in its team.' }),
  }),
  'cycle_settings.updated': changedData('settings', CycleSettings),
}
