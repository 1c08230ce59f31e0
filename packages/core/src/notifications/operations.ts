import { type TProperties, Type } from '@sinclair/typebox'
import { IdSchema, type NotificationId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { notificationExamples as ex, settingsUpdateExample } from './examples.ts'
import {
  BatchBody,
  BulkResult,
  Notification,
  NotificationCounts,
  NotificationFilterFields,
  NotificationSettings,
  NotificationSettingsPatch,
  SnoozeBody,
} from './schemas.ts'
import {
  actOn,
  batchNotifications,
  countNotifications,
  listNotifications,
  requireNotification,
} from './service.ts'
import { getSettings, updateSettings } from './settings.ts'

const base = '/v1/orgs/{orgId}/notifications'
const item = `${base}/{notificationId}`
const TAG = 'Notifications'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const orgParams = obj(paramsOf('/v1/orgs/{orgId}'))
const itemParams = obj({ ...paramsOf('/v1/orgs/{orgId}'), notificationId: IdSchema('NotificationId') })
const nid = (p: { notificationId: string }) => p.notificationId as NotificationId
const ONLY_MINE = "Only the recipient sees a notification: anyone else's id is a 404."
/** Who may act on notifications: each person on their own (an agent receives none). */
const OWN_NOTIFICATIONS = 'the recipient, on their own notifications only'

/** The per-notification actions: a POST on `{notificationId}/<action>` answering the notification. */
const action = (
  name: 'read' | 'unread' | 'snooze' | 'unsnooze' | 'archive' | 'restore',
  summary: string,
  description: string,
) =>
  declareOperation({
    id: `notifications.${name}`,
    method: 'POST',
    path: `${item}/${name}`,
    tag: TAG,
    scope: 'work:write',
    summary,
    description: `${description} ${ONLY_MINE}`,
    requires: OWN_NOTIFICATIONS,
    params: itemParams,
    ...(name === 'snooze' ? { body: SnoozeBody } : {}),
    response: Notification,
    status: 200,
    errors: name === 'snooze' ? ['not_found', 'archived', 'rule_violated'] : ['not_found'],
    examples: ex[name],
    run: (ctx, { params, body }) =>
      actOn(ctx, nid(params), name, (body as { until?: string } | undefined)?.until),
  })

export const notificationOperations: AnyOperation[] = [
  declareOperation({
    id: 'notifications.list',
    method: 'GET',
    path: base,
    tag: TAG,
    scope: 'work:read',
    summary: 'List my notifications',
    requires: 'any member who is a person, on their own notifications only',
    description:
      "The caller's notifications in this workspace, newest first: by default the inbox (neither archived nor snoozed).",
    params: orgParams,
    query: obj({ ...PageQuery, ...NotificationFilterFields }),
    response: PageOf(Notification, 'Notification'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.list,
    run: (ctx, { query }) => listNotifications(ctx, query),
  }),
  declareOperation({
    id: 'notifications.counts',
    method: 'GET',
    path: `${base}/counts`,
    tag: TAG,
    scope: 'work:read',
    summary: 'Count my notifications',
    requires: 'any member who is a person, on their own notifications only',
    description: 'Unread and total inbox notifications, snoozed ones, and unread ones per kind.',
    params: orgParams,
    response: NotificationCounts,
    status: 200,
    errors: [],
    examples: ex.counts,
    run: (ctx) => countNotifications(ctx),
  }),
  declareOperation({
    id: 'notifications.get',
    method: 'GET',
    path: item,
    tag: TAG,
    scope: 'work:read',
    summary: 'Get a notification',
    requires: 'any member who is a person, on their own notifications only',
    description: ONLY_MINE,
    params: itemParams,
    response: Notification,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: ex.get,
    run: (ctx, { params }) => requireNotification(ctx, nid(params)),
  }),
  action('read', 'Mark a notification read', 'Already read: answered unchanged.'),
  action('unread', 'Mark a notification unread', 'Already unread: answered unchanged.'),
  action(
    'snooze',
    'Snooze a notification',
    'Hides it from the inbox until `until`, a time in the future (else 422 `rule_violated`); it comes back unread. An archived notification cannot be snoozed (409 `archived`).',
  ),
  action('unsnooze', 'Unsnooze a notification', 'Brings a snoozed notification back to the inbox now.'),
  action('archive', 'Archive a notification', 'Takes it out of the inbox; a snooze is cleared.'),
  action(
    'restore',
    'Unarchive a notification',
    'Brings an archived notification back, read or unread as it was.',
  ),
  declareOperation({
    id: 'notifications.batch',
    method: 'POST',
    path: `${base}/batch`,
    tag: TAG,
    scope: 'work:write',
    summary: 'Act on many of my notifications',
    requires: 'any member who is a person; it acts on their own notifications only',
    description:
      'Applies one action (read, unread, snooze, unsnooze, archive, restore) to up to 200 notifications by id, or to every one matching a filter (the filter’s `view` defaults to the inbox; `before` keeps those created before a time). Marking everything read is `{ "action": "read", "filter": { "view": "all" } }`, in one statement. Ids that are not the caller’s are left out. Answers how many changed. Exactly one of `ids` and `filter`, and `until` (in the future) with `snooze` only: else 422 `rule_violated`.',
    params: orgParams,
    body: BatchBody,
    response: BulkResult,
    status: 200,
    errors: ['rule_violated'],
    examples: ex.batch,
    run: (ctx, { body }) => batchNotifications(ctx, body as never),
  }),
  declareOperation({
    id: 'notificationSettings.get',
    method: 'GET',
    path: '/v1/orgs/{orgId}/notification-settings',
    tag: TAG,
    scope: 'work:read',
    summary: 'Get my notification settings',
    requires: 'any member who is a person, on their own settings only',
    description: "The caller's settings in this workspace: each kind on or off (on unless turned off).",
    params: orgParams,
    response: NotificationSettings,
    status: 200,
    errors: [],
    examples: ex.settingsGet,
    run: (ctx) => getSettings(ctx),
  }),
  declareOperation({
    id: 'notificationSettings.update',
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/notification-settings',
    tag: TAG,
    scope: 'work:write',
    summary: 'Update my notification settings',
    requires: 'any member who is a person; it changes their own settings only',
    description: 'Turns kinds on or off for the caller in this workspace; kinds left out stay as they are.',
    params: orgParams,
    body: NotificationSettingsPatch,
    response: NotificationSettings,
    status: 200,
    errors: [],
    examples: settingsUpdateExample,
    run: (ctx, { body }) => updateSettings(ctx, body as never),
  }),
]
