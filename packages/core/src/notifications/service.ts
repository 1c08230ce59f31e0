import type { MemberId, NotificationId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import type {
  Notification,
  NotificationAction,
  NotificationCounts,
  NotificationFilter,
  NotificationRecord,
  NotificationState,
} from './schemas.ts'
import type { NotificationChange, NotificationSelection } from './storage.ts'

/** Archived, else snoozed while `snoozedUntil` is ahead, else unread or read. */
export function stateOf(n: Pick<NotificationRecord, 'archivedAt' | 'snoozedUntil' | 'readAt'>, now: string) {
  let state: NotificationState = n.readAt ? 'read' : 'unread'
  if (n.snoozedUntil && Date.parse(n.snoozedUntil) > Date.parse(now)) state = 'snoozed'
  if (n.archivedAt) state = 'archived'
  return state
}

export function present({ dedupeKey: _key, ...n }: NotificationRecord, now: string): Notification {
  return { ...n, state: stateOf(n, now) }
}

/** Notifications belong to their recipient: for anyone else they do not exist. */
export function notificationRecipient(ctx: OperationContext): MemberId {
  const actor = ctx.actor!
  if (actor.kind !== 'person') throw notFound('Notification')
  return actor.id as MemberId
}

export async function listNotifications(
  ctx: OperationContext,
  query: Partial<NotificationFilter> & { cursor?: string; limit?: number },
): Promise<Page<Notification>> {
  const me = notificationRecipient(ctx)
  const orgId = ctx.org!.id
  const filter: NotificationFilter = {
    view: query.view ?? 'inbox',
    ...(query.unread !== undefined ? { unread: query.unread } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.recordId ? { recordId: query.recordId } : {}),
  }
  const page = await readPage(ctx, {
    scope: ['notifications.list', orgId, me, filter],
    query,
    sort: 'createdAt' as const,
    direction: 'desc',
    keyOf: (n: NotificationRecord) => n.createdAt,
    fetch: (p) => ctx.store.notifications.list(orgId, me, filter, ctx.now, p),
  })
  return { data: page.data.map((n) => present(n, ctx.now)), nextCursor: page.nextCursor }
}

export async function requireNotification(ctx: OperationContext, id: NotificationId): Promise<Notification> {
  const found = await ctx.store.notifications.get(ctx.org!.id, notificationRecipient(ctx), id)
  if (!found) throw notFound('Notification')
  return present(found, ctx.now)
}

/** What each action sets, and on which notifications it changes anything. */
export function changeFor(action: NotificationAction, now: string, until?: string): NotificationChange {
  switch (action) {
    case 'read':
      return { set: { readAt: now, updatedAt: now }, onlyWhere: { field: 'readAt', isNull: true } }
    case 'unread':
      return { set: { readAt: null, updatedAt: now }, onlyWhere: { field: 'readAt', isNull: false } }
    case 'snooze': {
      if (!until || Date.parse(until) <= Date.parse(now)) {
        throw new ProblemError('rule_violated', 'A snooze needs `until` in the future.', {
          errors: [{ pointer: '/body/until', message: 'Must be a time in the future' }],
        })
      }
      // It comes back unread; an archived notification stays archived and is not snoozed.
      return {
        set: { snoozedUntil: until, readAt: null, updatedAt: now },
        onlyWhere: { field: 'archivedAt', isNull: true },
      }
    }
    case 'unsnooze':
      return {
        set: { snoozedUntil: null, updatedAt: now },
        onlyWhere: { field: 'snoozedUntil', isNull: false },
      }
    case 'archive':
      return {
        set: { archivedAt: now, snoozedUntil: null, updatedAt: now },
        onlyWhere: { field: 'archivedAt', isNull: true },
      }
    case 'restore':
      return { set: { archivedAt: null, updatedAt: now }, onlyWhere: { field: 'archivedAt', isNull: false } }
  }
}

/** One notification's action; unchanged ones are answered as they are, without an event. */
export async function actOn(
  ctx: OperationContext,
  id: NotificationId,
  action: NotificationAction,
  until?: string,
): Promise<Notification> {
  const current = await requireNotification(ctx, id)
  const change = changeFor(action, ctx.now, until)
  if (action === 'snooze' && current.archivedAt) {
    throw new ProblemError('archived', 'An archived notification cannot be snoozed; restore it first.')
  }
  const [changed] = await apply(ctx, { ids: [id] }, change)
  return changed ?? current
}

/** A bulk action on ids or a filter: one statement, one event per notification it changed. */
export async function actOnMany(
  ctx: OperationContext,
  selection: NotificationSelection,
  action: NotificationAction,
  options: { until?: string; createdBefore?: string } = {},
): Promise<{ updated: number }> {
  const change = changeFor(action, ctx.now, options.until)
  if (options.createdBefore) change.createdBefore = options.createdBefore
  return { updated: (await apply(ctx, selection, change)).length }
}

async function apply(
  ctx: OperationContext,
  selection: NotificationSelection,
  change: NotificationChange,
): Promise<Notification[]> {
  const me = notificationRecipient(ctx)
  const changed = await ctx.store.notifications.change(ctx.org!.id, me, selection, change, ctx.now)
  return changed.map((record) => {
    const notification = present(record, ctx.now)
    emitNotification(ctx, 'notification.updated', notification)
    return notification
  })
}

export function emitNotification(ctx: OperationContext, kind: string, notification: Notification): void {
  ctx.emit({
    kind,
    resourceType: 'notification',
    resourceId: notification.id,
    recipientId: notification.recipientId,
    data: { notification },
  })
}

export async function batchNotifications(
  ctx: OperationContext,
  body: {
    action: NotificationAction
    until?: string
    ids?: string[]
    filter?: Partial<NotificationFilter> & { before?: string }
  },
): Promise<{ updated: number }> {
  if ((body.ids === undefined) === (body.filter === undefined)) {
    throw new ProblemError('rule_violated', 'Give either `ids` or `filter`.', {
      errors: [{ pointer: '/body', message: 'Exactly one of ids and filter' }],
    })
  }
  if (body.until !== undefined && body.action !== 'snooze') {
    throw new ProblemError('rule_violated', '`until` belongs to `snooze` only.', {
      errors: [{ pointer: '/body/until', message: 'Only with action snooze' }],
    })
  }
  const { before, ...filter } = body.filter ?? {}
  const selection: NotificationSelection = body.ids
    ? { ids: body.ids as NotificationId[] }
    : { filter: { view: 'inbox', ...filter } }
  return actOnMany(ctx, selection, body.action, {
    ...(body.until ? { until: body.until } : {}),
    ...(before ? { createdBefore: before } : {}),
  })
}

export function countNotifications(ctx: OperationContext): Promise<NotificationCounts> {
  return ctx.store.notifications.counts(ctx.org!.id, notificationRecipient(ctx), ctx.now)
}
