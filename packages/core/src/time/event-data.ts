import { type TSchema, Type } from '@sinclair/typebox'
import { recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { Allocation, DISCARD_REASONS, TimeEntry, Timer } from './schemas.ts'

/** An allocation as its events carry it (allocations.ts): a deletion's has no person's total. */
const EventAllocation = Type.Composite(
  [
    Type.Omit(Allocation, ['personTotal']),
    Type.Object({ personTotal: Type.Optional(Allocation.properties.personTotal) }),
  ],
  {
    $id: 'EventAllocation',
    additionalProperties: false,
    description: 'An allocation as its events carry it; a deleted one without the person’s total.',
  },
)

/** Updates of entries and allocations name the changed fields only. */
const changedFields = Type.Array(Type.String(), { description: 'The names of the fields that changed.' })

/** The `data` of time tracking events, as entries.ts, timer.ts and allocations.ts emit it. */
export const TIME_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(['timeEntry.created', 'timeEntry.deleted'], recordData('entry', TimeEntry)),
  'timeEntry.updated': Type.Object({ entry: TimeEntry, changes: changedFields }),
  'timer.started': recordData('timer', Timer),
  'timer.stopped': Type.Object({
    timer: Timer,
    entryId: Nullable(IdSchema('TimeEntryId'), 'The entry written; null when it was discarded.'),
    discarded: Nullable(StringEnum(DISCARD_REASONS), 'Why no entry was written; null when one was.'),
  }),
  ...sameData(['allocation.created', 'allocation.deleted'], recordData('allocation', EventAllocation)),
  'allocation.updated': Type.Object({ allocation: EventAllocation, changes: changedFields }),
}
