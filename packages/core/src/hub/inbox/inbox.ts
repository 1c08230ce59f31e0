import type { MemberId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type {
  Notification,
  NotificationFilter,
  NotificationKind,
  NotificationView,
} from '../../notifications/schemas.ts'
import { present } from '../../notifications/service.ts'
import { newestFirstAcrossOrgs } from '../newest-first.ts'

export interface HubInboxQuery {
  view?: NotificationView
  unread?: boolean
  kind?: NotificationKind
  orgId?: string
  cursor?: string
  limit?: number
}

/**
 * The caller's notifications in every workspace, newest first: in each workspace the recipient's
 * own list (the same query as `notifications.list`, as that workspace's member), merged by
 * (createdAt desc, orgId, id desc).
 */
export async function hubInbox(ctx: OperationContext, query: HubInboxQuery) {
  const filter: NotificationFilter = {
    view: query.view ?? 'inbox',
    ...(query.unread !== undefined ? { unread: query.unread } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
  }
  const scope = ['hub.inbox', ctx.principal!.userId, filter, query.orgId ?? null]
  const page = await newestFirstAcrossOrgs(ctx, { ...query, scope }, async (reader, slice) => {
    if (reader.actor.kind !== 'person') return []
    return ctx.store.notifications.list(reader.orgId, reader.actor.id as MemberId, filter, ctx.now, slice)
  })
  return {
    data: page.rows.map((row) => present(row, ctx.now)) as Notification[],
    nextCursor: page.nextCursor,
    partial: page.partial,
  }
}
