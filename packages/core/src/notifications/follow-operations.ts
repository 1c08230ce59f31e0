import { type TProperties, Type } from '@sinclair/typebox'
import { IdSchema, type NotificationMuteId, type NotificationRuleId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { followExamples as ex } from './follow-examples.ts'
import {
  CreateMuteBody,
  CreateSubscriptionBody,
  NotificationMute,
  NotificationRule,
  UpdateSubscriptionBody,
} from './follow-schemas.ts'
import {
  createMute,
  createSubscription,
  deleteMute,
  deleteSubscription,
  getSubscription,
  listMutes,
  listSubscriptions,
  updateSubscription,
} from './follows.ts'

const TAG = 'Notifications'
const subs = '/v1/orgs/{orgId}/notification-rules'
const mutes = '/v1/orgs/{orgId}/notification-mutes'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const orgParams = obj(paramsOf('/v1/orgs/{orgId}'))
const subParams = obj({
  ...paramsOf('/v1/orgs/{orgId}'),
  ruleId: IdSchema('NotificationRuleId'),
})
const muteParams = obj({ ...paramsOf('/v1/orgs/{orgId}'), muteId: IdSchema('NotificationMuteId') })
const sid = (p: { ruleId: string }) => p.ruleId as NotificationRuleId
const ONLY_MINE = "Only its member sees a rule: anyone else's id is a 404."

export const followOperations: AnyOperation[] = [
  declareOperation({
    id: 'notificationRules.list',
    method: 'GET',
    path: subs,
    tag: TAG,
    scope: 'work:read',
    summary: 'List my notification rules',
    requires: 'any member who is a person, on their own notification rules only',
    description: "The caller's notification rules in this workspace, newest first.",
    params: orgParams,
    query: obj(PageQuery),
    response: PageOf(NotificationRule, 'NotificationRule'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.subscriptionsList,
    run: (ctx, { query }) => listSubscriptions(ctx, query),
  }),
  declareOperation({
    id: 'notificationRules.create',
    method: 'POST',
    path: subs,
    tag: TAG,
    scope: 'work:write',
    summary: 'Follow a team, cycle, project, program or initiative',
    requires:
      '`view` on the team, cycle, project, program or initiative named by `target`; the rule is the caller’s own',
    description:
      'Notifies the caller of the chosen kinds of change in the target without following each task: tasks created in it, their state changes, comments on them, status updates posted on it. The caller must be able to view the target (404 otherwise), and every notification is still checked against what the recipient can view when it is written. One rule per target (409 `conflict`); a kind the target cannot produce is 422 `rule_violated`; the `until` of a mute must be in the future (422 `rule_violated`).',
    params: orgParams,
    body: CreateSubscriptionBody,
    response: NotificationRule,
    status: 201,
    capability: 'view',
    target: ({ body }) => ({ type: body.target.type, id: body.target.id, pointer: '/body/target/id' }),
    errors: ['not_found', 'reference_not_found', 'conflict', 'rule_violated'],
    location: 'notificationRules.get',
    examples: ex.subscriptionsCreate,
    run: (ctx, { body }) => createSubscription(ctx, body as never),
  }),
  declareOperation({
    id: 'notificationRules.get',
    method: 'GET',
    path: `${subs}/{ruleId}`,
    tag: TAG,
    scope: 'work:read',
    summary: 'Get a notification rule',
    requires: 'any member who is a person, on their own notification rules only',
    description: ONLY_MINE,
    params: subParams,
    response: NotificationRule,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: ex.subscriptionsGet,
    run: (ctx, { params }) => getSubscription(ctx, sid(params)),
  }),
  declareOperation({
    id: 'notificationRules.update',
    method: 'PATCH',
    path: `${subs}/{ruleId}`,
    tag: TAG,
    scope: 'work:write',
    summary: 'Change or pause a notification rule',
    requires: 'the member who made the rule; anyone else’s is a 404',
    description: `Replaces its kinds, or pauses it (\`active: false\`) and resumes it. ${ONLY_MINE} A kind the target cannot produce is 422 \`rule_violated\`.`,
    params: subParams,
    body: UpdateSubscriptionBody,
    response: NotificationRule,
    status: 200,
    errors: ['not_found', 'rule_violated'],
    examples: ex.subscriptionsUpdate,
    run: (ctx, { params, body }) => updateSubscription(ctx, sid(params), body as never),
  }),
  declareOperation({
    id: 'notificationRules.delete',
    method: 'DELETE',
    path: `${subs}/{ruleId}`,
    tag: TAG,
    scope: 'work:write',
    summary: 'Remove a notification rule',
    requires: 'the member who made the rule; anyone else’s is a 404',
    description: ONLY_MINE,
    params: subParams,
    response: null,
    status: 204,
    errors: ['not_found'],
    run: (ctx, { params }) => deleteSubscription(ctx, sid(params)),
  }),
  declareOperation({
    id: 'notificationMutes.list',
    method: 'GET',
    path: mutes,
    tag: TAG,
    scope: 'work:read',
    summary: 'List the records I muted',
    requires: 'any member who is a person, on their own mutes only',
    description: "The caller's mutes in this workspace, newest first, expired ones included until removed.",
    params: orgParams,
    query: obj(PageQuery),
    response: PageOf(NotificationMute, 'NotificationMute'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.mutesList,
    run: (ctx, { query }) => listMutes(ctx, query),
  }),
  declareOperation({
    id: 'notificationMutes.create',
    method: 'POST',
    path: mutes,
    tag: TAG,
    scope: 'work:write',
    summary: 'Mute a record',
    requires: '`view` on the record named by `record`; the mute is the caller’s own',
    description:
      'Stops every notification about a task, project, program or initiative reaching the caller — as assignee, follower or through a notification rule — except direct `@` mentions, until `until` or until removed. The caller must be able to view the record (404 otherwise). Muting a muted record replaces its `until` and answers the same mute. An `until` in the past is 422 `rule_violated`.',
    params: orgParams,
    body: CreateMuteBody,
    response: NotificationMute,
    status: 201,
    capability: 'view',
    target: ({ body }) => ({ type: body.record.type, id: body.record.id, pointer: '/body/record/id' }),
    errors: ['not_found', 'reference_not_found', 'rule_violated'],
    examples: ex.mutesCreate,
    run: (ctx, { body }) => createMute(ctx, body as never),
  }),
  declareOperation({
    id: 'notificationMutes.delete',
    method: 'DELETE',
    path: `${mutes}/{muteId}`,
    tag: TAG,
    scope: 'work:write',
    summary: 'Unmute a record',
    requires: 'the member who muted; anyone else’s mute is a 404',
    description:
      "Notifications about the record reach the caller again. Only its member sees a mute: anyone else's id is a 404.",
    params: muteParams,
    response: null,
    status: 204,
    errors: ['not_found'],
    run: (ctx, { params }) => deleteMute(ctx, params.muteId as NotificationMuteId),
  }),
]
