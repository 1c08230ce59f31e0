import type { ApprovalRequest } from '../access/schemas.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT } from '../kernel/pagination.ts'
import type { CapabilityTarget } from '../kernel/permissions.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { StreamReader } from '../streams/readers.ts'
import { fanOut } from './fanout.ts'
import { contextIn } from './orgs.ts'
import { mergeOrgRows, openHubCursor, sealHubCursor } from './paging.ts'

const SCAN_CHUNK = 100

/**
 * The pending, unexpired approval requests of one workspace that the reader may decide: its session
 * is visible to them (the storage scope) and they hold the capability the proposed action needs on
 * its target, exactly as `approvalRequests.reject` checks it. By id, after `afterId`, up to `want` of
 * them. `as`: the reader's context in that workspace (`contextIn`).
 */
export async function decidableApprovals(
  as: OperationContext,
  reader: StreamReader,
  afterId: string | null,
  want: number,
): Promise<ApprovalRequest[]> {
  const found: ApprovalRequest[] = []
  let after = afterId
  for (;;) {
    const chunk = await as.store.approvals.list(
      reader.orgId,
      { state: 'pending' },
      { sort: 'id', direction: 'asc', after: after ? { value: after, id: after } : null, limit: SCAN_CHUNK },
      reader.scope,
    )
    for (const request of chunk.slice(0, SCAN_CHUNK)) {
      if (request.expiresAt > as.now && (await mayDecide(as, request))) found.push(request)
      if (found.length >= want) return found
    }
    if (chunk.length <= SCAN_CHUNK) return found
    after = chunk[SCAN_CHUNK - 1]!.id
  }
}

async function mayDecide(ctx: OperationContext, request: ApprovalRequest): Promise<boolean> {
  const taskId = (request.input.params as Record<string, unknown>).taskId
  const target: CapabilityTarget = typeof taskId === 'string' ? { type: 'task', id: taskId } : { type: 'org' }
  try {
    await ctx.require(request.capability ?? 'contribute', target)
    return true
  } catch (error) {
    if (error instanceof ProblemError) return false
    throw error
  }
}

const isPosition = (v: unknown): v is string => typeof v === 'string'

/** Pending approval requests the caller can decide in every workspace, oldest first (by id). */
export async function hubApprovals(
  ctx: OperationContext,
  query: { orgId?: string; cursor?: string; limit?: number },
) {
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  const scope = ['hub.approvals', ctx.principal!.userId, query.orgId ?? null]
  const previous = openHubCursor(ctx.cursors, scope, query.cursor, isPosition)
  const { results, partial } = await fanOut(
    ctx,
    async (reader) => {
      const as = reader.actor.kind === 'person' ? await contextIn(ctx, reader) : null
      return as ? decidableApprovals(as, reader, previous.get(reader.orgId) ?? null, limit + 1) : []
    },
    { only: query.orgId as OrgId | undefined },
  )
  const merged = mergeOrgRows(
    results.map((r) => ({ orgId: r.orgId, rows: r.value })),
    previous,
    {
      limit,
      keep: partial.map((p) => p.orgId),
      before: (a, b) => a.row.id < b.row.id || (a.row.id === b.row.id && a.orgId < b.orgId),
      positionOf: (r) => r.id,
    },
  )
  return {
    data: merged.data.map(({ row }) => row),
    nextCursor: sealHubCursor(ctx.cursors, scope, merged.positions, merged.more),
    partial,
  }
}
