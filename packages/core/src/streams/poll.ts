import type { Static } from '@sinclair/typebox'
import type { EventHub } from '../kernel/events/events.ts'
import { watchHub } from '../kernel/events/events.ts'
import type { OrgId, UserId } from '../kernel/ids.ts'
import type { CursorCodec } from '../kernel/pagination.ts'
import type { Actor } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { cursorExpired, decodeStreamCursor, encodeStreamCursor } from './cursor.ts'
import { readHub } from './read.ts'
import { readerFor, readersOf, type StreamReader } from './readers.ts'
import { type StreamEvent, streamEventOf } from './schema.ts'

export interface PollRequest {
  cursor?: string | undefined
  from?: 'start' | 'now' | undefined
  kinds?: readonly string[] | undefined
  limit: number
  /** Seconds to hold the request when nothing is new. */
  wait: number
}

export interface PollDeps {
  store: Store
  hub: EventHub
  cursors: CursorCodec
}

/**
 * Where each workspace's reading starts: the cursor's position (checked against retention), else
 * the head of the log for `from=now`, else nothing (the oldest retained event). `heads` holds the
 * head of each log read on the way (every workspace with a position).
 */
export async function startPositions(
  deps: PollDeps,
  orgIds: readonly OrgId[],
  request: Pick<PollRequest, 'cursor' | 'from'>,
): Promise<{ positions: Map<OrgId, number>; heads: Map<OrgId, number> }> {
  const given = request.cursor ? decodeStreamCursor(deps.cursors, request.cursor) : null
  const positions = new Map<OrgId, number>()
  const heads = new Map<OrgId, number>()
  for (const orgId of orgIds) {
    const at = given?.get(orgId)
    if (at !== undefined) {
      const { oldest, last } = await deps.store.events.bounds(orgId)
      if (at + 1 < oldest) throw cursorExpired(orgId, oldest)
      positions.set(orgId, at)
      heads.set(orgId, last)
    } else if (!given && request.from === 'now') {
      const { last } = await deps.store.events.bounds(orgId)
      positions.set(orgId, last)
      heads.set(orgId, last)
    }
  }
  return { positions, heads }
}

/**
 * One poll: read every reader's workspace from its position; when nothing is visible and `wait` is
 * set, wait for a wake-up (or the bound) and read again. Readers are resolved afresh before each
 * read, so a grant removed while a long-poll waits is already in force when it reads.
 */
export async function poll(
  deps: PollDeps,
  resolveReaders: () => Promise<StreamReader[]>,
  request: PollRequest,
): Promise<{ data: Static<typeof StreamEvent>[]; nextCursor: string }> {
  let readers = await resolveReaders()
  let { positions } = await startPositions(
    deps,
    readers.map((r) => r.orgId),
    request,
  )
  const deadline = Date.now() + request.wait * 1000
  const watch = request.wait > 0 ? watchHub(deps.hub, null) : null
  try {
    for (;;) {
      const result = await readHub(deps.store, readers, positions, {
        limit: request.limit,
        kinds: request.kinds,
      })
      positions = result.positions
      const left = deadline - Date.now()
      if (result.events.length > 0 || !watch || left <= 0) {
        return {
          data: result.events.map(streamEventOf),
          nextCursor: encodeStreamCursor(deps.cursors, positions),
        }
      }
      await watch.wait(left)
      readers = await resolveReaders()
    }
  } finally {
    watch?.close()
  }
}

/** Polls one workspace as `actor`. */
export function pollOrg(deps: PollDeps, actor: Actor, request: PollRequest) {
  return poll(deps, async () => [await readerFor(deps.store, actor)], request)
}

/** Polls every workspace the user belongs to, each with its own permission-scoped query. */
export function pollHub(deps: PollDeps, userId: UserId, request: PollRequest) {
  return poll(deps, () => readersOf(deps.store, userId), request)
}
