import type { StoredEvent } from '../kernel/events/events.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { Store } from '../kernel/storage.ts'
import { cursorExpired } from './cursor.ts'
import type { StreamReader } from './readers.ts'

export interface OrgPage {
  events: StoredEvent[]
  /** Where the reader stands afterwards; past invisible events too, never past an unread visible one. */
  position: number
  /** More may be ready right away (the page was full). */
  more: boolean
}

/**
 * The next events of one workspace's log that the reader may see, after `after` (null: from the
 * oldest retained event). The permission predicate is in the query. The committed counter is read
 * first: every event up to it is committed, so when the page is not full the position can move to
 * it, past events the reader cannot see, without ever skipping one it can. A cursor older than the
 * retained log is refused with 410 `cursor_expired`, checked after the read so a concurrent prune
 * cannot make events vanish silently.
 */
export async function readOrg(
  store: Store,
  reader: StreamReader,
  after: number | null,
  options: {
    limit: number
    kinds?: readonly string[] | undefined
    /** The log's bounds when the caller has just read them (a stream round): not read again. */
    bounds?: { oldest: number; last: number }
  },
): Promise<OrgPage> {
  const { orgId } = reader
  const before = options.bounds ?? (await store.events.bounds(orgId))
  const start = after ?? before.oldest - 1
  const events = await store.events.list(orgId, start, options.limit, reader.scope, options.kinds)
  // A page that starts right after `after` skipped nothing, pruned or not: no second read.
  if (after !== null && after < before.last && events[0]?.seq !== after + 1) {
    const { oldest } = await store.events.bounds(orgId)
    if (after + 1 < oldest) throw cursorExpired(orgId, oldest)
  }
  const more = events.length >= options.limit
  const lastRead = events.at(-1)?.seq ?? start
  return { events, position: more ? lastRead : Math.max(lastRead, before.last, start), more }
}

/**
 * The hub read: one permission-scoped query per membership, merged in code. Each workspace's events
 * stay in log order; across workspaces, older changes come first. Positions advance only for what
 * is returned, so nothing is skipped when the merge cuts a workspace's page short.
 */
export async function readHub(
  store: Store,
  readers: readonly StreamReader[],
  positions: ReadonlyMap<OrgId, number>,
  options: { limit: number; kinds?: readonly string[] | undefined },
): Promise<{ events: StoredEvent[]; positions: Map<OrgId, number> }> {
  const pages = await Promise.all(
    readers.map(async (r) => ({
      reader: r,
      page: await readOrg(store, r, positions.get(r.orgId) ?? null, options),
    })),
  )
  const queues = pages.map(({ page }) => ({ events: page.events, taken: 0 }))
  const merged: StoredEvent[] = []
  while (merged.length < options.limit) {
    let pick = -1
    for (const [i, q] of queues.entries()) {
      const head = q.events[q.taken]
      const best = pick >= 0 ? queues[pick]!.events[queues[pick]!.taken] : undefined
      if (head && (!best || earlier(head, best))) pick = i
    }
    if (pick < 0) break
    merged.push(queues[pick]!.events[queues[pick]!.taken++]!)
  }
  const next = new Map<OrgId, number>()
  for (const [i, { reader, page }] of pages.entries()) {
    const q = queues[i]!
    const all = q.taken === q.events.length
    const previous = positions.get(reader.orgId) ?? null
    next.set(
      reader.orgId,
      all ? page.position : (q.events[q.taken - 1]?.seq ?? previous ?? (page.events[0]?.seq ?? 1) - 1),
    )
  }
  return { events: merged, positions: next }
}

function earlier(a: StoredEvent, b: StoredEvent): boolean {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt
  return a.orgId < b.orgId
}
