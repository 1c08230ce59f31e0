import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import type { NotificationKind } from './schemas.ts'

/** Containers a person can follow without following each task in them. */
export const SUBSCRIPTION_TARGETS = ['team', 'project', 'cycle', 'program', 'initiative'] as const
export type SubscriptionTarget = (typeof SUBSCRIPTION_TARGETS)[number]

/** The notification kinds a notification rule can add. */
export const SUBSCRIPTION_KINDS = ['taskCreated', 'stateChanged', 'commented', 'updatePosted'] as const
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number] & NotificationKind

/**
 * Which kinds each target can produce: tasks live in teams, cycles and projects; status updates are
 * posted on projects, programs and initiatives.
 */
export const KINDS_FOR_TARGET: Record<SubscriptionTarget, readonly SubscriptionKind[]> = {
  team: ['taskCreated', 'stateChanged', 'commented'],
  cycle: ['taskCreated', 'stateChanged', 'commented'],
  project: ['taskCreated', 'stateChanged', 'commented', 'updatePosted'],
  program: ['updatePosted'],
  initiative: ['updatePosted'],
}

const TargetRef = Type.Object(
  {
    type: StringEnum(SUBSCRIPTION_TARGETS, { description: 'What kind of container is followed.' }),
    id: Type.String({
      maxLength: 64,
      description: 'Its id (`team_…`, `proj_…`, `cyc_…`, `prg_…`, `ini_…`).',
    }),
  },
  { additionalProperties: false },
)

const Kinds = Type.Array(
  StringEnum(SUBSCRIPTION_KINDS, {
    description:
      '`taskCreated` (a task was created in it), `stateChanged` (a task in it changed state), `commented` (a comment on a task in it), `updatePosted` (a status update on it).',
  }),
  {
    minItems: 1,
    uniqueItems: true,
    description:
      'The kinds that notify you. Teams and cycles: `taskCreated`, `stateChanged`, `commented`; projects also `updatePosted`; programs and initiatives only `updatePosted`.',
  },
)

export const NotificationRule = Type.Object(
  {
    id: IdSchema('NotificationRuleId'),
    memberId: IdSchema('MemberId', 'Whose rule it is; nobody else reads it.'),
    target: TargetRef,
    kinds: Kinds,
    active: Type.Boolean({ description: 'false: paused, it notifies nobody until turned back on.' }),
    createdAt: Timestamp('When it was created.'),
    updatedAt: Timestamp('When it last changed.'),
  },
  {
    $id: 'NotificationRule',
    additionalProperties: false,
    description:
      'A notification rule: notify me of these kinds of change in a team, cycle, project, program or initiative.',
  },
)
export type NotificationRule = Static<typeof NotificationRule>

export const CreateSubscriptionBody = Type.Object(
  {
    target: TargetRef,
    kinds: Kinds,
    active: Type.Optional(Type.Boolean({ default: true, description: 'Start paused with false.' })),
  },
  { additionalProperties: false },
)

export const UpdateSubscriptionBody = Type.Object(
  { kinds: Type.Optional(Kinds), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
)

export const MUTE_RECORDS = ['task', 'project', 'program', 'initiative'] as const
export type MuteRecordType = (typeof MUTE_RECORDS)[number]

export const NotificationMute = Type.Object(
  {
    id: IdSchema('NotificationMuteId'),
    memberId: IdSchema('MemberId', 'Who muted; nobody else reads it.'),
    record: Type.Object(
      {
        type: StringEnum(MUTE_RECORDS, { description: 'The kind of record muted.' }),
        id: Type.String({ maxLength: 64, description: 'Its id (`task_…`, `proj_…`, `prg_…`, `ini_…`).' }),
      },
      { additionalProperties: false },
    ),
    until: NullableTimestamp('The mute ends then; null: until removed.'),
    createdAt: Timestamp('When it was created.'),
  },
  {
    $id: 'NotificationMute',
    additionalProperties: false,
    description:
      'A muted record: no notification about it reaches you, even as assignee or follower, except direct `@` mentions.',
  },
)
export type NotificationMute = Static<typeof NotificationMute>

export const CreateMuteBody = Type.Object(
  {
    record: NotificationMute.properties.record,
    until: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the mute ends; in the future.' }),
    ),
  },
  { additionalProperties: false },
)
