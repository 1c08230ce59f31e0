import type { OrgId } from '../kernel/ids.ts'
import type { CursorCodec } from '../kernel/pagination.ts'
import { canonicalJson } from '../kernel/pipeline/canonical.ts'
import { ProblemError } from '../kernel/problems.ts'

/**
 * The hub's composite cursor: one position per workspace, sealed (HMAC) for the read and its
 * filters, so it is opaque, tamper-proof and useless on another read. A workspace absent from it
 * starts at its beginning (one joined later, or one that had nothing yet); one whose membership
 * ended is dropped when the next cursor is written.
 */
export function openHubCursor<P>(
  codec: CursorCodec,
  scope: unknown,
  cursor: string | undefined,
  isPosition: (value: unknown) => value is P,
): Map<OrgId, P> {
  const positions = new Map<OrgId, P>()
  if (!cursor) return positions
  const value = codec.open(canonicalJson(['hub', scope]), cursor)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw notAHubCursor()
  for (const [orgId, position] of Object.entries(value)) {
    if (!isPosition(position)) throw notAHubCursor()
    positions.set(orgId as OrgId, position)
  }
  return positions
}

function notAHubCursor(): ProblemError {
  const detail = 'The cursor does not belong to this read.'
  return new ProblemError('invalid_cursor', detail, {
    errors: [{ pointer: '/query/cursor', message: detail }],
  })
}

/** One workspace's rows for a page: up to `limit + 1`, in the workspace's own order. */
export interface OrgRows<R> {
  orgId: OrgId
  rows: R[]
}

/**
 * Merges per-workspace pages in code: repeatedly takes the best head among the workspaces
 * (`before(a, b)`: a comes first), so each workspace's own order is kept. Returns the page, the next
 * positions (the last row taken in each workspace, else its previous position; workspaces that
 * returned nothing and had no position stay absent), and whether anything is left.
 */
export function mergeOrgRows<R, P>(
  pages: readonly OrgRows<R>[],
  previous: ReadonlyMap<OrgId, P>,
  options: {
    limit: number
    before: (a: { orgId: OrgId; row: R }, b: { orgId: OrgId; row: R }) => boolean
    positionOf: (row: R) => P
    /** Workspaces left out of this answer (failed): their previous position is kept. */
    keep?: readonly OrgId[]
  },
): { data: Array<{ orgId: OrgId; row: R }>; positions: Map<OrgId, P>; more: boolean } {
  const queues = pages.map((p) => ({
    orgId: p.orgId,
    rows: p.rows.slice(0, options.limit),
    all: p.rows,
    taken: 0,
  }))
  const data: Array<{ orgId: OrgId; row: R }> = []
  while (data.length < options.limit) {
    let pick: (typeof queues)[number] | undefined
    for (const q of queues) {
      const head = q.rows[q.taken]
      if (head === undefined) continue
      const best = pick?.rows[pick.taken]
      if (!pick || options.before({ orgId: q.orgId, row: head }, { orgId: pick.orgId, row: best as R }))
        pick = q
    }
    if (!pick) break
    data.push({ orgId: pick.orgId, row: pick.rows[pick.taken++] as R })
  }
  const positions = new Map<OrgId, P>()
  let more = false
  for (const q of queues) {
    if (q.taken < q.all.length) more = true
    const last = q.rows[q.taken - 1]
    if (last !== undefined) positions.set(q.orgId, options.positionOf(last))
    else if (previous.has(q.orgId)) positions.set(q.orgId, previous.get(q.orgId) as P)
  }
  for (const orgId of options.keep ?? []) {
    if (previous.has(orgId)) positions.set(orgId, previous.get(orgId) as P)
  }
  return { data, positions, more }
}

/** The next cursor, or null when nothing is left in any workspace. */
export function sealHubCursor<P>(
  codec: CursorCodec,
  scope: unknown,
  positions: ReadonlyMap<OrgId, P>,
  more: boolean,
): string | null {
  if (!more) return null
  return codec.seal(canonicalJson(['hub', scope]), Object.fromEntries(positions))
}
