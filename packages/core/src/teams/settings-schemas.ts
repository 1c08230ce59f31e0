import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum } from '../kernel/schema-types.ts'

export const ESTIMATE_SCALES = ['free', 'none', 'linear', 'exponential', 'fibonacci', 'tshirt'] as const
export type EstimateScale = (typeof ESTIMATE_SCALES)[number]

/** The estimates each scale allows (`free`: any number from 0 to 1000); t-shirt sizes are stored as 1, 2, 3, 5, 8. */
export const ESTIMATE_VALUES: Record<Exclude<EstimateScale, 'free'>, readonly number[]> = {
  none: [],
  linear: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  exponential: [0, 1, 2, 4, 8, 16],
  fibonacci: [0, 1, 2, 3, 5, 8, 13, 21],
  tshirt: [1, 2, 3, 5, 8],
}

const Days = (description: string) =>
  Nullable(Type.Integer({ minimum: 1, maximum: 365 }), `${description} Null: never.`)

export const TeamSettings = Type.Object(
  {
    teamId: IdSchema('TeamId'),
    estimateScale: StringEnum(ESTIMATE_SCALES, {
      description:
        'Which estimates tasks of the team may carry: `free` (the default) any number from 0 to 1000; `none` refuses any estimate; `linear` 0–10; `exponential` 0, 1, 2, 4, 8, 16; ' +
        '`fibonacci` 0, 1, 2, 3, 5, 8, 13, 21; `tshirt` 1, 2, 3, 5, 8 (XS to XL). Checked by `tasks.create` and `tasks.update`.',
    }),
    autoCloseDays: Days(
      "Tasks in a triage, backlog or unstarted state that nobody changed or commented on for this many days (24-hour periods) move to the team's first canceled state; started tasks are never closed, nor a task with an open subtask or a triage item snoozed past now. " +
        'Applied by the engine’s maintenance pass (`engine.automateTasks()`, hourly in the reference server) as the system: `actorId` null in history and events, and `automation: autoClose` in the `task.updated` event.',
    ),
    autoArchiveDays: Days(
      'Completed or canceled tasks that nobody changed for this many days since they closed (a restore starts the count again) are archived, a task only once its subtasks are archived. ' +
        'Applied by the same pass: `task.archived` with `actorId` null and `automation: autoArchive`.',
    ),
    triageEnabled: Type.Boolean({
      description:
        'Whether the team takes requests into triage: `triage.create` files them, and `tasks.create` without `stateId` by a caller below `assign` on the team lands there. Turning it on adds a `Triage` state when the team has none.',
    }),
    defaultStateId: Nullable(
      IdSchema('StateId'),
      'The state `tasks.create` uses when no `stateId` is given; null: the first backlog state, else the first unstarted one.',
    ),
    updatedAt: NullableTimestamp('When the settings last changed; null while they are the defaults.'),
  },
  { $id: 'TeamSettings', additionalProperties: false },
)
export type TeamSettings = Static<typeof TeamSettings>

export const TRIAGE_RESPONSIBILITIES = ['none', 'fixed'] as const
export const TRIAGE_ACTIONS = ['notify', 'assign'] as const

export const TriageSettings = Type.Object(
  {
    teamId: IdSchema('TeamId'),
    responsibility: StringEnum(TRIAGE_RESPONSIBILITIES, {
      description: '`none`: nobody in particular handles triage; `fixed`: the people in `memberIds` do.',
    }),
    action: StringEnum(TRIAGE_ACTIONS, {
      description:
        'With `fixed`: `notify` sends each of them a `triageRequested` notification for a new triage item; `assign` assigns it to the first of them (who is notified as its assignee).',
    }),
    memberIds: Type.Array(IdSchema('MemberId'), {
      maxItems: 10,
      uniqueItems: true,
      description: 'Who handles triage, in order; active members of the workspace. Empty with `none`.',
    }),
    updatedAt: NullableTimestamp('When the settings last changed; null while they are the defaults.'),
  },
  { $id: 'TriageSettings', additionalProperties: false },
)
export type TriageSettings = Static<typeof TriageSettings>

/** Both settings of a team, as stored in one row. */
export type TeamSettingsRecord = Omit<TeamSettings, 'updatedAt'> &
  Omit<TriageSettings, 'teamId' | 'updatedAt'> & { updatedAt: string | null }

export const DEFAULT_TEAM_SETTINGS: Omit<TeamSettingsRecord, 'teamId'> = {
  estimateScale: 'free',
  autoCloseDays: null,
  autoArchiveDays: null,
  triageEnabled: false,
  defaultStateId: null,
  responsibility: 'none',
  action: 'notify',
  memberIds: [],
  updatedAt: null,
}
