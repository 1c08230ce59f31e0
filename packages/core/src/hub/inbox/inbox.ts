import type { MemberId, OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT } from '../../kernel/pagination.ts'
import type {
  Notification,
  NotificationFilter,
  NotificationKind,
  NotificationView,
} from '../../notifications/schemas.ts'
import { present } from '../../notifications/service.ts'
import { fanOut } from '../fanout.ts'
import { mergeOrgRows, openHubCursor, sealHubCursor } from '../paging.ts'

export interface HubInboxQuery {
  view?: NotificationView
  unread?: boolean
  kind?: NotificationKind
  orgId?: string
  cursor?: string
  limit?: number
}

/** Per workspace: the (createdAt, id) of the last notification returned. */
interface InboxPosition {
  c: string
  i: string
}

const isPosition = (v: unknown): v is InboxPosition =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as InboxPosition).c === 'string' &&
  typeof (v as InboxPosition).i === 'string'

/**
 * The caller's notifications in every workspace, newest first: in each workspace the recipient's
 * own list (the same query as `notifications.list`, as that workspace's member), merged by
 * (createdAt desc, orgId, id desc).
 */
export async function hubInbox(ctx: OperationContext, query: HubInboxQuery) {
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  const filter: NotificationFilter = {
    view: query.view ?? 'inbox',
    ...(query.unread !== undefined ? { unread: query.unread } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
  }
  const scope = ['hub.inbox', ctx.principal!.userId, filter, query.orgId ?? null]
  const previous = openHubCursor(ctx.cursors, scope, query.cursor, isPosition)
  const { results, partial } = await fanOut(
    ctx,
    async (reader) => {
      if (reader.actor.kind !== 'person') return []
      const at = previous.get(reader.orgId)
      return ctx.store.notifications.list(reader.orgId, reader.actor.id as MemberId, filter, ctx.now, {
        sort: 'createdAt',
        direction: 'desc',
        after: at ? { value: at.c, id: at.i } : null,
        limit,
      })
    },
    { only: query.orgId as OrgId | undefined },
  )
  const merged = mergeOrgRows(
    results.map((r) => ({ orgId: r.orgId, rows: r.value })),
    previous,
    {
      limit,
      keep: partial.map((p) => p.orgId),
      before: (a, b) => {
        if (a.row.createdAt !== b.row.createdAt) return a.row.createdAt > b.row.createdAt
        return a.orgId < b.orgId
      },
      positionOf: (n) => ({ c: n.createdAt, i: n.id }),
    },
  )
  return {
    data: merged.data.map(({ row }) => present(row, ctx.now)) as Notification[],
    nextCursor: sealHubCursor(ctx.cursors, scope, merged.positions, merged.more),
    partial,
  }
}
