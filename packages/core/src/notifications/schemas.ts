import { type Static, type TBoolean, type TOptional, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'

/** Why someone is notified. Each kind can be turned off per person and org. */
export const NOTIFICATION_KINDS = [
  'assigned',
  'mentioned',
  'commented',
  'stateChanged',
  'updatePosted',
  'approvalRequested',
  'dueSoon',
  'overdue',
  'reminder',
  'triaged',
  'triageRequested',
  'taskCreated',
  'updateRequested',
  'ruleNotified',
] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

export const NotificationKindSchema = StringEnum(NOTIFICATION_KINDS, {
  description:
    '`assigned` (a task was assigned to you), `mentioned` (`@name` in a task description, comment or status update), ' +
    '`commented` (a comment on a task you follow), `stateChanged` (a task you follow changed state), ' +
    '`updatePosted` (a status update on a project, program or initiative you follow), `approvalRequested` (an agent action waits for a decision you can make), ' +
    '`dueSoon` (a task assigned to you is due today or tomorrow), `overdue` (its due date passed), ' +
    '`reminder` (a reminder you set on a task is due), `triaged` (a request you filed was accepted, declined or marked duplicate), ' +
    '`triageRequested` (a new item waits in the triage of a team you handle triage for), `taskCreated` (a task was created in a team, cycle or project you follow), ' +
    '`updateRequested` (someone asked you for a status update on a project you lead, or a program or initiative you own), ' +
    '`ruleNotified` (an automation rule’s `notify` act named you; the summary is its message, then the task).',
})

/** Derived from `archivedAt`, `snoozedUntil` and `readAt`, in that precedence. */
export const NOTIFICATION_STATES = ['unread', 'read', 'snoozed', 'archived'] as const
export type NotificationState = (typeof NOTIFICATION_STATES)[number]

export const RECORD_TYPES = ['task', 'project', 'approval_request', 'program', 'initiative'] as const
export type NotificationRecordType = (typeof RECORD_TYPES)[number]

export const NotificationRecordRef = Type.Object(
  {
    type: StringEnum(RECORD_TYPES, { description: 'The kind of record the notification is about.' }),
    id: Type.String({ description: 'Its id (`task_…`, `proj_…`, `apr_…`).' }),
  },
  { additionalProperties: false },
)

export const Notification = Type.Object(
  {
    id: IdSchema('NotificationId'),
    orgId: IdSchema('OrgId'),
    recipientId: IdSchema('MemberId', 'Who is notified; nobody else can read the notification.'),
    kind: NotificationKindSchema,
    record: NotificationRecordRef,
    actorId: Nullable(Type.String(), 'Who caused it; null for reminders.'),
    eventId: Nullable(Type.String(), 'The event it was derived from (`evt_…`); null for reminders.'),
    summary: Type.String({ description: 'A short text naming the record, as it was when notified.' }),
    state: StringEnum(NOTIFICATION_STATES, {
      description: 'Archived, else snoozed while `snoozedUntil` is in the future, else unread or read.',
    }),
    readAt: NullableTimestamp('When it was marked read; null while unread.'),
    snoozedUntil: NullableTimestamp('Hidden from the inbox until then; it comes back unread.'),
    archivedAt: NullableTimestamp('When it was archived.'),
    createdAt: Timestamp('When it was created.'),
    updatedAt: Timestamp('When its state last changed.'),
  },
  {
    $id: 'Notification',
    additionalProperties: false,
    description: 'Something that happened that concerns one member, derived from the event log.',
  },
)
export type Notification = Static<typeof Notification>

/** As stored: the state is derived at read time. */
export type NotificationRecord = Omit<Notification, 'state'> & { dedupeKey: string }

export const NOTIFICATION_VIEWS = ['inbox', 'snoozed', 'archived', 'all'] as const
export type NotificationView = (typeof NOTIFICATION_VIEWS)[number]

/** Filters shared by the list and `batch` (whose filter adds `before`). */
export const NotificationFilterFields = {
  view: Type.Optional(
    StringEnum(NOTIFICATION_VIEWS, {
      default: 'inbox',
      description:
        '`inbox` (default): neither archived nor snoozed; `snoozed`; `archived`; `all`: every notification.',
    }),
  ),
  unread: Type.Optional(Type.Boolean({ description: 'true: only unread ones; false: only read ones.' })),
  kind: Type.Optional(NotificationKindSchema),
  recordId: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'Only notifications about this record (`task_…`, `proj_…`, `apr_…`).',
    }),
  ),
}

export interface NotificationFilter {
  view: NotificationView
  unread?: boolean
  kind?: NotificationKind
  recordId?: string
}

export const NOTIFICATION_ACTIONS = ['read', 'unread', 'snooze', 'unsnooze', 'archive', 'restore'] as const
export type NotificationAction = (typeof NOTIFICATION_ACTIONS)[number]

export const SnoozeBody = Type.Object(
  { until: Type.String({ format: 'date-time', description: 'When it comes back, unread; in the future.' }) },
  { additionalProperties: false },
)

export const BatchBody = Type.Object(
  {
    action: StringEnum(NOTIFICATION_ACTIONS, { description: 'What to do to each selected notification.' }),
    until: Type.Optional(
      Type.String({ format: 'date-time', description: '`snooze` only: when they come back.' }),
    ),
    ids: Type.Optional(
      Type.Array(IdSchema('NotificationId'), {
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        description: 'These notifications (others are left out silently)…',
      }),
    ),
    filter: Type.Optional(
      Type.Object(
        {
          ...NotificationFilterFields,
          before: Type.Optional(
            Type.String({ format: 'date-time', description: 'Only notifications created before this time.' }),
          ),
        },
        {
          additionalProperties: false,
          description: '…or every notification matching this filter (give one of `ids` and `filter`).',
        },
      ),
    ),
  },
  { additionalProperties: false },
)

export const BulkResult = Type.Object(
  { updated: Type.Integer({ minimum: 0, description: 'How many notifications changed.' }) },
  { $id: 'NotificationBulkResult', additionalProperties: false },
)

export const NotificationCounts = Type.Object(
  {
    unread: Type.Integer({ minimum: 0, description: 'Unread notifications in the inbox.' }),
    inbox: Type.Integer({ minimum: 0, description: 'Notifications in the inbox, read or not.' }),
    snoozed: Type.Integer({ minimum: 0, description: 'Snoozed ones.' }),
    unreadByKind: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'Unread inbox notifications per kind; kinds with none are left out.',
    }),
  },
  { $id: 'NotificationCounts', additionalProperties: false },
)
export type NotificationCounts = Static<typeof NotificationCounts>

export const NotificationSettings = Type.Object(
  {
    memberId: IdSchema('MemberId'),
    kinds: Type.Object(
      Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, Type.Boolean()])) as Record<
        NotificationKind,
        ReturnType<typeof Type.Boolean>
      >,
      {
        additionalProperties: false,
        description: 'Per kind: on (notified) or off. Every kind is on by default.',
      },
    ),
    updatedAt: NullableTimestamp('When they were last changed; null while all are the defaults.'),
  },
  {
    $id: 'NotificationSettings',
    additionalProperties: false,
    description: "The caller's notification settings in this workspace.",
  },
)
export type NotificationSettings = Static<typeof NotificationSettings>

export const NotificationSettingsPatch = Type.Object(
  {
    kinds: Type.Object(
      Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, Type.Optional(Type.Boolean())])) as Record<
        NotificationKind,
        TOptional<TBoolean>
      >,
      { additionalProperties: false, minProperties: 1, description: 'The kinds to turn on or off.' },
    ),
  },
  { additionalProperties: false },
)
