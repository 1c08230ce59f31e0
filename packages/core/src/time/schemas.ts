import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, StringEnum, Timestamp } from '../kernel/schema-types.ts'

/** Most minutes one entry holds: a day. */
export const ENTRY_MINUTES_MAX = 1440

export const CalendarDate = (description: string) =>
  Type.String({ format: 'date', pattern: '^(?!0000)\\d{4}-\\d{2}-\\d{2}$', description })

export const Minutes = Type.Integer({
  minimum: 1,
  maximum: ENTRY_MINUTES_MAX,
  description: `Minutes worked, 1 to ${ENTRY_MINUTES_MAX} (a day).`,
})
export const EntryNote = Type.String({ maxLength: 1000, description: 'What the time went on.' })

export const TIME_ENTRY_SOURCES = ['manual', 'timer'] as const
export type TimeEntrySource = (typeof TIME_ENTRY_SOURCES)[number]

export const TimeEntry = Type.Object(
  {
    id: IdSchema('TimeEntryId'),
    orgId: IdSchema('OrgId'),
    taskId: IdSchema('TaskId'),
    projectId: Nullable(IdSchema('ProjectId'), "The task's project now; null for none."),
    memberId: IdSchema('MemberId', 'The person who logged it.'),
    minutes: Minutes,
    date: CalendarDate('The day worked, `YYYY-MM-DD`.'),
    note: Nullable(EntryNote),
    source: StringEnum(TIME_ENTRY_SOURCES, {
      description: 'Logged by hand, or written by stopping a timer.',
    }),
    startedAt: Nullable(Timestamp('When the timer started.'), 'Timer entries only.'),
    createdAt: Timestamp('When it was logged.'),
    updatedAt: Timestamp('When it last changed.'),
  },
  { $id: 'TimeEntry', additionalProperties: false, description: 'Time a person logged on a task.' },
)
export type TimeEntry = Static<typeof TimeEntry>

export const SUMMARY_GROUPS = ['project', 'person', 'task', 'week'] as const
export type SummaryGroup = (typeof SUMMARY_GROUPS)[number]

export const TimeSummary = Type.Object(
  {
    groupBy: StringEnum(SUMMARY_GROUPS, { description: 'What the totals are grouped by.' }),
    totalMinutes: Type.Integer({ minimum: 0, description: 'Every visible entry that matches the filters.' }),
    entries: Type.Integer({ minimum: 0, description: 'How many entries the total counts.' }),
    groups: Type.Array(
      Type.Object(
        {
          key: Nullable(
            Type.String(),
            'A ProjectId (null: tasks without a project), MemberId, TaskId, or ISO week (`2030-W03`).',
          ),
          minutes: Type.Integer({ minimum: 0 }),
          entries: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { description: 'Largest first (weeks in calendar order).' },
    ),
    truncated: Type.Boolean({
      description: 'More groups exist than are returned; the totals count them all.',
    }),
  },
  {
    $id: 'TimeSummary',
    additionalProperties: false,
    description: 'Logged minutes, totalled in the database over the entries the caller may view.',
  },
)
export type TimeSummary = Static<typeof TimeSummary>

export const Timer = Type.Object(
  {
    orgId: IdSchema('OrgId'),
    taskId: IdSchema('TaskId'),
    note: Nullable(EntryNote),
    startedAt: Timestamp('When it started.'),
    elapsedMinutes: Type.Integer({ minimum: 0, description: 'Whole minutes since it started.' }),
  },
  { $id: 'Timer', additionalProperties: false, description: "A person's running timer on a task." },
)
export type Timer = Static<typeof Timer>

export const TimerState = Type.Object(
  { timer: Type.Union([Timer, Type.Null()], { description: 'Null when no timer runs.' }) },
  { $id: 'TimerState', additionalProperties: false },
)

export const TimerStarted = Type.Object(
  {
    timer: Timer,
    stopped: Type.Union([TimeEntry, Type.Null()], {
      description: 'The entry written by stopping the timer that was running; null for none.',
    }),
  },
  { $id: 'TimerStarted', additionalProperties: false },
)

export const DISCARD_REASONS = ['too_short', 'no_access', 'membership_ended'] as const
export const TimerStopped = Type.Object(
  {
    entry: Type.Union([TimeEntry, Type.Null()], {
      description: 'The entry written; null when it was discarded.',
    }),
    discarded: Nullable(
      StringEnum(DISCARD_REASONS),
      'Why no entry was written: under a minute, the person can no longer log time on the task, or they left its workspace.',
    ),
  },
  { $id: 'TimerStopped', additionalProperties: false },
)
export type TimerStopped = Static<typeof TimerStopped>

export const ALLOCATION_UNITS = ['percent', 'hoursPerWeek'] as const
export type AllocationUnit = (typeof ALLOCATION_UNITS)[number]

export const AllocationUnitSchema = StringEnum(ALLOCATION_UNITS, {
  description: '`percent` of the person’s time (1–100) or `hoursPerWeek` (1–168).',
})
export const Amount = Type.Integer({ minimum: 1, maximum: 168, description: 'In `unit`.' })

export const Allocation = Type.Object(
  {
    id: IdSchema('AllocationId'),
    orgId: IdSchema('OrgId'),
    projectId: IdSchema('ProjectId'),
    memberId: IdSchema('MemberId', 'The person allocated.'),
    startDate: CalendarDate('First day, inclusive.'),
    endDate: CalendarDate('Last day, inclusive.'),
    unit: AllocationUnitSchema,
    amount: Amount,
    note: Nullable(Type.String({ maxLength: 1000 })),
    personTotal: Type.Object(
      {
        allocations: Type.Integer({ minimum: 1, description: 'This and every overlapping allocation.' }),
        percent: Type.Integer({ minimum: 0 }),
        hoursPerWeek: Type.Integer({ minimum: 0 }),
      },
      {
        additionalProperties: false,
        description:
          "The person's allocations in the workspace whose dates overlap this one's (this one included), summed by unit. Overlaps are allowed; this is how they show. Allocations on projects the caller cannot view are counted, never named.",
      },
    ),
    creatorId: IdSchema('MemberId'),
    createdAt: Timestamp('When it was created.'),
    updatedAt: Timestamp('When it last changed.'),
  },
  {
    $id: 'Allocation',
    additionalProperties: false,
    description: "A person's planned effort on a project over a date range.",
  },
)
export type Allocation = Static<typeof Allocation>
