import type { OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT } from '../../kernel/pagination.ts'
import { parseKinds, streamEventOf } from '../../streams/schema.ts'
import { fanOut } from '../fanout.ts'
import { mergeOrgRows, openHubCursor, sealHubCursor } from '../paging.ts'
import type { ActivityFilter } from '../storage.ts'

export interface HubActivityQuery {
  kinds?: string
  actorId?: string
  recordId?: string
  orgId?: string
  cursor?: string
  limit?: number
}

/** Per workspace: the sequence of the oldest event returned; the next page reads before it. */
const isPosition = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0

/**
 * Recent events the caller may see in each workspace, newest first: per workspace the log read
 * backwards with the same visibility as the streams (teams in the read scope, events about the
 * reader, notifications only for their recipient), merged by (createdAt desc, orgId, seq desc).
 */
export async function hubActivity(ctx: OperationContext, query: HubActivityQuery) {
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  const kinds = parseKinds(query.kinds)
  const filter: ActivityFilter = {
    ...(kinds ? { kinds } : {}),
    ...(query.actorId ? { actorId: query.actorId } : {}),
    ...(query.recordId ? { resourceId: query.recordId } : {}),
  }
  const scope = ['hub.activity', ctx.principal!.userId, filter, query.orgId ?? null]
  const previous = openHubCursor(ctx.cursors, scope, query.cursor, isPosition)
  const { results, partial } = await fanOut(
    ctx,
    (reader) =>
      ctx.store.hubReads.activity(
        reader.orgId,
        reader.scope,
        filter,
        previous.get(reader.orgId) ?? null,
        limit + 1,
      ),
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
      positionOf: (e) => e.seq,
    },
  )
  return {
    data: merged.data.map(({ row }) => streamEventOf(row)),
    nextCursor: sealHubCursor(ctx.cursors, scope, merged.positions, merged.more),
    partial,
  }
}
