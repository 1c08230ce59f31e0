import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { progressFields } from '../tasks/progress.ts'

export const CYCLE_STATUSES = ['upcoming', 'active', 'past', 'completed'] as const
export type CycleStatus = (typeof CYCLE_STATUSES)[number]
export const CycleStatusSchema = StringEnum(CYCLE_STATUSES, {
  $id: 'CycleStatus',
  description:
    'From the clock: `upcoming` before `startsAt`, `active` until `endsAt`, `past` once it has ended but before the ' +
    'maintenance pass completes it, `completed` once completed (explicitly or by that pass).',
})

export const Cycle = Type.Object(
  {
    id: IdSchema('CycleId'),
    orgId: IdSchema('OrgId'),
    teamId: IdSchema('TeamId'),
    number: Type.Integer({ minimum: 1, description: 'Sequential per team, from 1.' }),
    name: Nullable(Type.String({ maxLength: 120 }), 'Optional; clients show `Cycle {number}` without one.'),
    description: Nullable(Type.String({ maxLength: 10_000 }), 'Markdown.'),
    startsAt: Timestamp('When the cycle starts (inclusive).'),
    endsAt: Timestamp('When the cycle ends (exclusive).'),
    status: CycleStatusSchema,
    completedAt: NullableTimestamp('When the cycle was completed and its unfinished tasks rolled over.'),
    archivedAt: NullableTimestamp(
      'When the completed cycle was archived: left out of `cycles.list` unless asked for; its tasks keep it.',
    ),
    createdAt: Timestamp('When the cycle was created.'),
    updatedAt: Timestamp('When the cycle last changed.'),
  },
  { $id: 'Cycle', additionalProperties: false },
)
export type Cycle = Static<typeof Cycle>

export const CycleProgress = Type.Object(
  { cycleId: IdSchema('CycleId'), ...progressFields('cycle') },
  { $id: 'CycleProgress', additionalProperties: false },
)
export type CycleProgress = Static<typeof CycleProgress>

export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const
export type Weekday = (typeof WEEKDAYS)[number]

export const CycleSettings = Type.Object(
  {
    teamId: IdSchema('TeamId'),
    enabled: Type.Boolean({ description: 'Whether cycles follow a cadence: created ahead and rolled over.' }),
    durationWeeks: Type.Integer({ minimum: 1, maximum: 8, description: 'Length of each cycle.' }),
    cooldownWeeks: Type.Integer({ minimum: 0, maximum: 4, description: 'Gap between two cycles.' }),
    startWeekday: StringEnum(WEEKDAYS, { description: 'Cycles start at 00:00 UTC on this day.' }),
    autoCreateCount: Type.Integer({
      minimum: 0,
      maximum: 10,
      description: 'How many upcoming cycles to keep created ahead of time.',
    }),
    updatedAt: NullableTimestamp('When the settings last changed; null while they are the defaults.'),
  },
  { $id: 'CycleSettings', additionalProperties: false },
)
export type CycleSettings = Static<typeof CycleSettings>

export const DEFAULT_CYCLE_SETTINGS: Omit<CycleSettings, 'teamId'> = {
  enabled: false,
  durationWeeks: 2,
  cooldownWeeks: 0,
  startWeekday: 'monday',
  autoCreateCount: 2,
  updatedAt: null,
}
