import type { OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT } from '../kernel/pagination.ts'
import type { UpdateHealth } from '../updates/schemas.ts'
import type { FeedFilter } from '../updates/storage.ts'
import { fanOut } from './fanout.ts'
import { mergeOrgRows, openHubCursor, sealHubCursor } from './paging.ts'
import { relatedIn } from './portfolio.ts'
import type { HubRecordType } from './storage.ts'

export interface HubUpdatesQuery {
  types?: HubRecordType[]
  health?: UpdateHealth
  since?: string
  orgId?: string
  cursor?: string
  limit?: number
}

/** Per workspace: the (createdAt, id) of the last update returned. */
interface UpdatePosition {
  c: string
  i: string
}

const isPosition = (v: unknown): v is UpdatePosition =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as UpdatePosition).c === 'string' &&
  typeof (v as UpdatePosition).i === 'string'

/**
 * Status updates of the projects, programs and initiatives the caller leads, owns, belongs to or
 * follows, newest first: per workspace the org feed (`updates.feed`, with its visibility predicate)
 * narrowed to those subjects, merged by (createdAt desc, orgId, id desc).
 */
export async function hubUpdates(ctx: OperationContext, query: HubUpdatesQuery) {
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  const narrow = {
    ...(query.types ? { types: query.types } : {}),
    ...(query.health ? { health: query.health } : {}),
    ...(query.since ? { since: query.since } : {}),
  }
  const scope = ['hub.updates', ctx.principal!.userId, narrow, query.orgId ?? null]
  const previous = openHubCursor(ctx.cursors, scope, query.cursor, isPosition)
  const { results, partial } = await fanOut(
    ctx,
    async (reader) => {
      const related = await relatedIn(ctx, reader, query.types)
      const filter: FeedFilter = {
        subjectIds: related.map((r) => r.id),
        ...(query.health ? { health: query.health } : {}),
        ...(query.since ? { since: query.since } : {}),
      }
      const at = previous.get(reader.orgId)
      return ctx.store.updates.feed(
        reader.orgId,
        filter,
        { sort: 'createdAt', direction: 'desc', after: at ? { value: at.c, id: at.i } : null, limit },
        reader.scope,
      )
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
      positionOf: (u) => ({ c: u.createdAt, i: u.id }),
    },
  )
  return {
    data: merged.data.map(({ row }) => row),
    nextCursor: sealHubCursor(ctx.cursors, scope, merged.positions, merged.more),
    partial,
  }
}
