import { Type } from '@sinclair/typebox'
import { IdSchema } from '../../kernel/ids.ts'
import { declareOperation } from '../../kernel/operation.ts'
import { StringEnum } from '../../kernel/schema-types.ts'
import { NOTIFICATION_VIEWS, Notification, NotificationKindSchema } from '../../notifications/schemas.ts'
import { hubExamples as ex } from '../examples.ts'
import { HUB_WORKSPACES_MAX } from '../fanout.ts'
import { hubMoreExamples as more } from '../more-examples.ts'
import { ACROSS, hubListOperation, obj, TAG } from '../operation-parts.ts'
import { HubInboxCount, PartialOrg } from '../schemas.ts'
import { HUB_INBOX_ACTIONS, hubInboxBatch } from './batch.ts'
import { hubInboxCounts } from './counts.ts'
import { hubInbox } from './inbox.ts'

/** The inbox across workspaces: notifications, their counts, and actions on many at once. */
export const hubInboxOperation = hubListOperation({
  id: 'hub.inbox',
  path: '/v1/hub/inbox',
  summary: 'My notifications in all workspaces',
  description: `Your notifications of every workspace, newest first, with the filters of \`notifications.list\`; mark them read through \`notifications.read\` of their workspace (\`orgId\` is on each). ${ACROSS}`,
  query: {
    view: Type.Optional(
      StringEnum(NOTIFICATION_VIEWS, {
        default: 'inbox',
        description: '`inbox` (default): neither archived nor snoozed; `snoozed`; `archived`; `all`.',
      }),
    ),
    unread: Type.Optional(Type.Boolean({ description: 'true: only unread ones; false: only read ones.' })),
    kind: Type.Optional(NotificationKindSchema),
  },
  item: Notification,
  order: 'Notifications, newest first.',
  examples: ex.inbox,
  run: (ctx, query) => hubInbox(ctx, query as never),
})

export const hubInboxCountsOperation = declareOperation({
  id: 'hub.inbox.counts',
  method: 'GET',
  path: '/v1/hub/inbox/counts',
  tag: TAG,
  scope: 'work:read',
  summary: 'My unread counts per workspace',
  description:
    'For a workspace switcher: in each workspace you belong to, the counts of `notifications.counts` (unread, inbox, snoozed, unread per kind), and the unread total. Workspaces that fail are listed in `partial` and left out of the total.',
  response: obj({
    unread: Type.Integer({
      minimum: 0,
      description: 'Unread inbox notifications in all the workspaces answered.',
    }),
    data: Type.Array(HubInboxCount, {
      maxItems: HUB_WORKSPACES_MAX,
      description: 'One per workspace, in workspace id order.',
    }),
    partial: Type.Array(PartialOrg, { description: 'Workspaces whose counts failed or timed out.' }),
  }),
  status: 200,
  errors: [],
  examples: ex.inboxCounts,
  run: (ctx) => hubInboxCounts(ctx),
})

export const hubInboxBatchOperation = declareOperation({
  id: 'hub.inbox.batch',
  method: 'POST',
  path: '/v1/hub/inbox/batch',
  tag: TAG,
  scope: 'work:write',
  summary: 'Mark notifications of several workspaces',
  description:
    'Applies one action (`read`, `unread`, `archive`, `restore`) to your notifications in several workspaces at once: in each, the given `ids` (others are left out silently), or without `ids` every one in the inbox (`restore`: every archived one). Each workspace is changed as `notifications.batch` changes it, with a `notification.updated` event per notification in its log, in a transaction of its own: no transaction spans workspaces. A workspace you are not an active member of (`not_found`), an archived one (`archived`), or one whose change fails (its problem code, e.g. `service_unavailable`) changes nothing and is listed in `partial`; the others stand. A workspace listed twice is 422 `rule_violated`.',
  body: obj({
    action: StringEnum(HUB_INBOX_ACTIONS, { description: 'What to do to each selected notification.' }),
    workspaces: Type.Array(
      obj({
        orgId: IdSchema('OrgId'),
        ids: Type.Optional(
          Type.Array(IdSchema('NotificationId'), {
            minItems: 1,
            maxItems: 200,
            uniqueItems: true,
            description: 'These notifications; without it, all of the inbox (or of the archive, to restore).',
          }),
        ),
      }),
      { minItems: 1, maxItems: 50, description: 'Each workspace once (else 422 `rule_violated`).' },
    ),
  }),
  response: obj({
    data: Type.Array(
      obj({
        orgId: IdSchema('OrgId'),
        updated: Type.Integer({ minimum: 0, description: 'How many notifications changed there.' }),
      }),
      { description: 'The workspaces changed, in the order given.' },
    ),
    partial: Type.Array(PartialOrg, {
      description:
        '`not_found` (not an active member), `archived`, or the problem code its transaction failed with: nothing changed there.',
    }),
  }),
  status: 200,
  errors: ['rule_violated'],
  examples: more.inboxBatch,
  perWorkspace: true,
  run: (ctx, { body }) => hubInboxBatch(ctx, body as never),
})
