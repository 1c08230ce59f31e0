import { type MemberId, type NotificationMuteId, type NotificationRuleId, newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import {
  KINDS_FOR_TARGET,
  type MuteRecordType,
  type NotificationMute,
  type NotificationRule,
  type SubscriptionKind,
  type SubscriptionTarget,
} from './follow-schemas.ts'
import type { MuteRecord, SubscriptionRecord } from './follow-storage.ts'
import { notificationRecipient } from './service.ts'

const presentSubscription = (r: SubscriptionRecord): NotificationRule => ({
  id: r.id,
  memberId: r.memberId,
  target: { type: r.targetType, id: r.targetId },
  kinds: r.kinds,
  active: r.active,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
})

const presentMute = (r: MuteRecord): NotificationMute => ({
  id: r.id,
  memberId: r.memberId,
  record: { type: r.recordType, id: r.recordId },
  until: r.until,
  createdAt: r.createdAt,
})

/** Kinds a target cannot produce would silently never fire: refused instead. */
function checkKinds(type: SubscriptionTarget, kinds: readonly SubscriptionKind[]) {
  const allowed = KINDS_FOR_TARGET[type]
  const wrong = kinds.findIndex((k) => !allowed.includes(k))
  if (wrong < 0) return
  throw new ProblemError(
    'rule_violated',
    `A ${type} cannot notify \`${kinds[wrong]}\`; it can notify ${allowed.map((k) => `\`${k}\``).join(', ')}.`,
    { errors: [{ pointer: `/body/kinds/${wrong}`, message: `Not a kind a ${type} produces` }] },
  )
}

function emitSubscription(
  ctx: OperationContext,
  kind: 'created' | 'updated' | 'deleted',
  me: MemberId,
  subscription: NotificationRule,
  changes?: Record<string, { before: unknown; after: unknown }>,
) {
  ctx.emit({
    kind: `notification_subscription.${kind}`,
    resourceType: 'notification_subscription',
    resourceId: subscription.id,
    recipientId: me,
    data: { notificationSubscription: subscription, ...(changes ? { changes } : {}) },
  })
}

export async function listSubscriptions(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<NotificationRule>> {
  const me = notificationRecipient(ctx)
  const orgId = ctx.org!.id
  const page = await readPage(ctx, {
    scope: ['notificationRules.list', orgId, me],
    query,
    sort: 'createdAt' as const,
    direction: 'desc',
    keyOf: (r: SubscriptionRecord) => r.createdAt,
    fetch: (p) => ctx.store.notificationSubscriptions.list(orgId, me, p),
  })
  return { data: page.data.map(presentSubscription), nextCursor: page.nextCursor }
}

async function requireRecord(ctx: OperationContext, id: NotificationRuleId) {
  const found = await ctx.store.notificationSubscriptions.get(ctx.org!.id, notificationRecipient(ctx), id)
  if (!found) throw notFound('Notification subscription')
  return found
}

export async function getSubscription(ctx: OperationContext, id: NotificationRuleId) {
  return presentSubscription(await requireRecord(ctx, id))
}

/** The engine checked `view` on the target; one rule per member and target (409 `conflict` for a second). */
export async function createSubscription(
  ctx: OperationContext,
  body: { target: { type: SubscriptionTarget; id: string }; kinds: SubscriptionKind[]; active?: boolean },
): Promise<NotificationRule> {
  const me = notificationRecipient(ctx)
  checkKinds(body.target.type, body.kinds)
  const record: SubscriptionRecord = {
    id: newId('NotificationRuleId'),
    orgId: ctx.org!.id,
    memberId: me,
    targetType: body.target.type,
    targetId: body.target.id,
    kinds: body.kinds,
    active: body.active ?? true,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  if (!(await ctx.store.notificationSubscriptions.insert(record)))
    throw new ProblemError(
      'conflict',
      'You already follow this target; change the existing rule (`notificationRules.update`).',
    )
  const subscription = presentSubscription(record)
  emitSubscription(ctx, 'created', me, subscription)
  return subscription
}

export async function updateSubscription(
  ctx: OperationContext,
  id: NotificationRuleId,
  patch: { kinds?: SubscriptionKind[]; active?: boolean },
): Promise<NotificationRule> {
  const me = notificationRecipient(ctx)
  const before = await requireRecord(ctx, id)
  if (patch.kinds) checkKinds(before.targetType, patch.kinds)
  const kinds = patch.kinds ?? before.kinds
  const active = patch.active ?? before.active
  const changes: Record<string, { before: unknown; after: unknown }> = {}
  if (patch.kinds && [...kinds].sort().join() !== [...before.kinds].sort().join())
    changes.kinds = { before: before.kinds, after: kinds }
  if (active !== before.active) changes.active = { before: before.active, after: active }
  if (Object.keys(changes).length === 0) return presentSubscription(before)
  await ctx.store.notificationSubscriptions.update(ctx.org!.id, me, id, { kinds, active, updatedAt: ctx.now })
  const after = presentSubscription({ ...before, kinds, active, updatedAt: ctx.now })
  emitSubscription(ctx, 'updated', me, after, changes)
  return after
}

export async function deleteSubscription(ctx: OperationContext, id: NotificationRuleId) {
  const me = notificationRecipient(ctx)
  const before = await requireRecord(ctx, id)
  await ctx.store.notificationSubscriptions.delete(ctx.org!.id, me, id)
  emitSubscription(ctx, 'deleted', me, presentSubscription(before))
}

export async function listMutes(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<NotificationMute>> {
  const me = notificationRecipient(ctx)
  const orgId = ctx.org!.id
  const page = await readPage(ctx, {
    scope: ['notificationMutes.list', orgId, me],
    query,
    sort: 'createdAt' as const,
    direction: 'desc',
    keyOf: (r: MuteRecord) => r.createdAt,
    fetch: (p) => ctx.store.notificationMutes.list(orgId, me, p),
  })
  return { data: page.data.map(presentMute), nextCursor: page.nextCursor }
}

/** The engine checked `view` on the record. Muting it again replaces `until` on the same mute. */
export async function createMute(
  ctx: OperationContext,
  body: { record: { type: MuteRecordType; id: string }; until?: string },
): Promise<NotificationMute> {
  const me = notificationRecipient(ctx)
  if (body.until && Date.parse(body.until) <= Date.parse(ctx.now))
    throw new ProblemError('rule_violated', '`until` must be in the future.', {
      errors: [{ pointer: '/body/until', message: 'Must be in the future' }],
    })
  const until = body.until ? new Date(body.until).toISOString() : null
  const before = await ctx.store.notificationMutes.find(ctx.org!.id, me, body.record.type, body.record.id)
  if (before && before.until === until) return presentMute(before)
  const mute = presentMute(
    await ctx.store.notificationMutes.upsert({
      id: newId('NotificationMuteId'),
      orgId: ctx.org!.id,
      memberId: me,
      recordType: body.record.type,
      recordId: body.record.id,
      until,
      createdAt: ctx.now,
    }),
  )
  ctx.emit({
    kind: 'notification_mute.created',
    resourceType: 'notification_mute',
    resourceId: mute.id,
    recipientId: me,
    data: {
      notificationMute: mute,
      ...(before ? { changes: { until: { before: before.until, after: until } } } : {}),
    },
  })
  return mute
}

export async function deleteMute(ctx: OperationContext, id: NotificationMuteId) {
  const me = notificationRecipient(ctx)
  const before = await ctx.store.notificationMutes.get(ctx.org!.id, me, id)
  if (!before) throw notFound('Notification mute')
  await ctx.store.notificationMutes.delete(ctx.org!.id, me, id)
  ctx.emit({
    kind: 'notification_mute.deleted',
    resourceType: 'notification_mute',
    resourceId: id,
    recipientId: me,
    data: { notificationMute: presentMute(before) },
  })
}
