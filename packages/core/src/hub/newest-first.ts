import type { OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT } from '../kernel/pagination.ts'
import type { StreamReader } from '../streams/readers.ts'
import { fanOut, type PartialOrg } from './fanout.ts'
import { mergeOrgRows, openHubCursor, sealHubCursor } from './paging.ts'

/** Per workspace: the (createdAt, id) of the last row returned. */
interface DatedPosition {
  c: string
  i: string
}

const isPosition = (v: unknown): v is DatedPosition =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as DatedPosition).c === 'string' &&
  typeof (v as DatedPosition).i === 'string'

/** One workspace's newest-first page after its position, as its own list reads it. */
export interface NewestFirstPage {
  sort: 'createdAt'
  direction: 'desc'
  after: { value: string; id: string } | null
  limit: number
}

/**
 * A page of a newest-first list across the caller's workspaces (`hub.inbox`, `hub.updates`): `read`
 * pages one workspace by (createdAt desc, id desc) from where the cursor left it, and the pages merge
 * by (createdAt desc, orgId, id desc). `scope` ties the cursor to the read and its filters.
 */
export async function newestFirstAcrossOrgs<R extends { createdAt: string; id: string }>(
  ctx: OperationContext,
  request: { scope: unknown; orgId?: string; cursor?: string; limit?: number },
  read: (reader: StreamReader, page: NewestFirstPage) => Promise<R[]>,
): Promise<{ rows: R[]; nextCursor: string | null; partial: PartialOrg[] }> {
  const limit = request.limit ?? PAGE_LIMIT_DEFAULT
  const previous = openHubCursor(ctx.cursors, request.scope, request.cursor, isPosition)
  const { results, partial } = await fanOut(
    ctx,
    (reader) => {
      const at = previous.get(reader.orgId)
      return read(reader, {
        sort: 'createdAt',
        direction: 'desc',
        after: at ? { value: at.c, id: at.i } : null,
        limit,
      })
    },
    { only: request.orgId as OrgId | undefined },
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
      positionOf: (row) => ({ c: row.createdAt, i: row.id }),
    },
  )
  return {
    rows: merged.data.map(({ row }) => row),
    nextCursor: sealHubCursor(ctx.cursors, request.scope, merged.positions, merged.more),
    partial,
  }
}
