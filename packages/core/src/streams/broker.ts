import type { Principal } from '../kernel/auth/principal.ts'
import type { EventHub, StoredEvent } from '../kernel/events/events.ts'
import type { OrgId, UserId } from '../kernel/ids.ts'
import type { StreamConfig } from '../kernel/operation.ts'
import type { CursorCodec } from '../kernel/pagination.ts'
import { isProblem, notFound } from '../kernel/problems.ts'
import type { Storage } from '../kernel/storage.ts'
import { deadCredentials } from './credentials.ts'
import { createCursorMemo, positionsElsewhere } from './cursor-memo.ts'
import { createJoinWindow } from './joining.ts'
import { startPositions } from './poll.ts'
import { readOrg } from './read.ts'
import { membershipsOf, readerIn, readersIn, type StreamReader } from './readers.ts'
import type { StreamEndReason } from './schema.ts'
import { forEachInSlices, forEachLimited } from './slices.ts'

/** What a live stream hands its transport, in order. */
export type StreamItem =
  | { type: 'event'; event: StoredEvent; cursor: string }
  | { type: 'ping'; cursor: string }
  | { type: 'end'; reason: StreamEndReason; detail: string }

/** The transport side of a live stream (the SSE response in the h3 adapter). */
export interface StreamSink {
  /**
   * Queues items for the client. Streams at the same positions are handed the same array in a
   * round: it is never changed afterwards, so a transport may encode it once for all of them.
   */
  write(items: readonly StreamItem[]): void
  /** Bytes queued and not yet taken by the client: the measure of a slow reader. */
  queued(): number
  /** Ends the response after what is queued. */
  close(): void
}

export interface SubscribeOptions {
  /** Only this workspace (404 unless an active member); every membership otherwise. */
  orgId?: OrgId | undefined
  kinds?: readonly string[] | undefined
  cursor?: string | undefined
  from?: 'start' | 'now' | undefined
}

export interface StreamBroker {
  /**
   * Opens a live stream for the principal into `sink`. Throws a `ProblemError` before anything is
   * written (bad cursor, expired cursor, not a member); afterwards problems end the stream with a
   * final `end` item. Returns the function that closes it from the transport side.
   */
  subscribe(principal: Principal, options: SubscribeOptions, sink: StreamSink): Promise<() => void>
  /** Live streams in this process. */
  readonly size: number
  /** Workspaces the broker keeps anything for: those with a live stream or one being opened. */
  readonly workspaces: number
  /** Ends every stream with `shutdown`. */
  close(): void
}

interface Subscription {
  principal: Principal
  userId: UserId
  orgFilter: OrgId | undefined
  kinds: readonly string[] | undefined
  /** `kinds` as part of a group key, computed once. */
  kindsKey: string
  /** When the token expires, in ms since the epoch (Infinity without an expiry). */
  expiresAtMs: number
  positions: Map<OrgId, number | null>
  sink: StreamSink
  ended: boolean
}

const BATCH = 200
const ACCESS_CONCURRENCY = 8
// Streams written to per turn of the event loop during a fan-out or a ping (a millisecond or two,
// a socket write being about 10 µs). Short turns: on Postgres each statement of a write made during
// a fan-out waits for the next turn, so a write of a dozen statements took a dozen slices.
const FANOUT_SLICE = 100

/**
 * Live streams of one process. Subscriptions are grouped by workspace; a wake-up for a workspace
 * runs one round for it: each subscriber's access is resolved afresh (once per user per round), the
 * subscribers at the same position with the same permission scope share one scoped query, and
 * each gets the events in order with a cursor per event. A fallback timer re-reads the logs that
 * grew without a wake-up, so a lost notification only delays an event.
 */
export function createStreamBroker(deps: {
  storage: Storage
  hub: EventHub
  cursors: CursorCodec
  config: StreamConfig
  clock: () => Date
}): StreamBroker {
  const { storage, config } = deps
  const byOrg = new Map<OrgId, Set<Subscription>>()
  const all = new Set<Subscription>()
  const heads = new Map<OrgId, number>()
  const rounds = new Map<OrgId, { again: boolean }>()

  // Notices heard while streams are being opened (see `subscribe`).
  const joining = createJoinWindow()

  const unsubscribeHub = deps.hub.subscribe((notice) => {
    joining.heard(notice)
    if (byOrg.has(notice.orgId)) schedule(notice.orgId)
  })
  const fallback = setInterval(() => void pollFallback(), config.pollFallbackMs)
  fallback.unref?.()
  const pinger = setInterval(() => void pingAll(), config.pingSeconds * 1000)
  pinger.unref?.()

  function schedule(orgId: OrgId): void {
    const running = rounds.get(orgId)
    if (running) {
      running.again = true
      return
    }
    const state = { again: false }
    rounds.set(orgId, state)
    void (async () => {
      try {
        do {
          state.again = false
          if (await round(orgId)) state.again = true
        } while (state.again && byOrg.has(orgId))
      } catch (error) {
        console.error('stream round failed', error)
      } finally {
        rounds.delete(orgId)
      }
    })()
  }

  const sealedCursor = createCursorMemo(deps.cursors)
  const cursorOf = (sub: Subscription): string => sealedCursor(sub.positions)

  function end(sub: Subscription, reason: StreamEndReason, detail: string): void {
    if (sub.ended) return
    sub.ended = true
    all.delete(sub)
    for (const orgId of sub.positions.keys()) leave(sub, orgId)
    sub.sink.write([{ type: 'end', reason, detail }])
    sub.sink.close()
  }

  function join(sub: Subscription, orgId: OrgId, at: number | null): void {
    sub.positions.set(orgId, at)
    const subs = byOrg.get(orgId) ?? new Set()
    subs.add(sub)
    byOrg.set(orgId, subs)
  }

  function leave(sub: Subscription, orgId: OrgId): void {
    const subs = byOrg.get(orgId)
    subs?.delete(sub)
    if (subs?.size === 0) {
      byOrg.delete(orgId)
      heads.delete(orgId)
    }
  }

  /** Ends the stream when its token has expired; `nowMs` is read once per pass by the caller. */
  function expired(sub: Subscription, nowMs: number): boolean {
    if (nowMs < sub.expiresAtMs) return false
    end(sub, 'token_expired', 'The access token has expired; reconnect with a new one and the last event id.')
    return true
  }

  /** Token lifetime and the byte bound: checked without the database after every delivery and ping. */
  function stillWelcome(sub: Subscription, nowMs: number): boolean {
    if (expired(sub, nowMs)) return false
    if (sub.sink.queued() > config.maxBufferedBytes) {
      end(
        sub,
        'slow_reader',
        `More than ${config.maxBufferedBytes} bytes were left unread; reconnect and read faster.`,
      )
      return false
    }
    return true
  }

  /** Ends the streams whose consent or token died; `failOpen`: a failed read ends nothing. */
  async function endRevoked(subs: Subscription[], failOpen: boolean): Promise<void> {
    const dead = await storage
      .read((s) => deadCredentials(s, subs))
      .catch((e) => (failOpen ? [] : Promise.reject(e)))
    for (const sub of dead) end(sub, 'consent_revoked', 'This token, or the consent behind it, was revoked.')
  }

  /** One pass over a workspace's subscribers; true when some group had more to read. */
  async function round(orgId: OrgId): Promise<boolean> {
    if (!byOrg.get(orgId)?.size) return false
    // One pass over the workspace's subscribers (thousands) for expiry; the byte bound only grows
    // with deliveries, which check it.
    const nowMs = deps.clock().getTime()
    const live: Subscription[] = []
    for (const sub of [...(byOrg.get(orgId) ?? [])]) if (!expired(sub, nowMs)) live.push(sub)
    if (live.length === 0) return false

    // The log's bounds, every user's access and every token's state, one statement each, side by
    // side: on Postgres each is a round trip, and a round is woken by a new event, which is behind
    // every stream. Access afresh every round: a removed grant or a revoked token is in force now.
    const users = [...new Set(live.map((s) => s.userId))]
    const [bounds, readers] = await Promise.all([
      storage.read((s) => s.events.bounds(orgId)),
      storage.read((s) => readersIn(s, orgId, users)),
      endRevoked(live, false),
    ])
    const { last } = bounds
    // Only while the workspace has streams: `leave` forgets the head with the last one.
    if (byOrg.has(orgId)) heads.set(orgId, last)
    const behind = live.filter((sub) => {
      const at = sub.positions.get(orgId)
      return at === null || at === undefined || at < last
    })
    if (behind.length === 0) return false

    // Then synchronously, subscriber by subscriber: no await per subscriber.
    const groups = new Map<string, { reader: StreamReader; after: number | null; subs: Subscription[] }>()
    const scopeKeys = new Map<StreamReader, string>()
    for (const sub of behind) {
      if (sub.ended) continue
      const reader = readers.get(sub.userId)
      if (!reader) {
        if (sub.orgFilter) end(sub, 'membership_ended', 'You are no longer a member of this workspace.')
        else {
          leave(sub, orgId)
          sub.positions.delete(orgId)
        }
        continue
      }
      const after = sub.positions.get(orgId) ?? null
      let readerKey = scopeKeys.get(reader)
      if (readerKey === undefined) {
        readerKey = scopeKey(reader)
        scopeKeys.set(reader, readerKey)
      }
      const key = `${readerKey}|${sub.kindsKey}|${after}`
      const group = groups.get(key) ?? { reader, after, subs: [] }
      group.subs.push(sub)
      groups.set(key, group)
    }

    let more = false
    for (const group of groups.values()) {
      const kinds = group.subs[0]!.kinds
      try {
        const page = await storage.read((s) =>
          readOrg(s, group.reader, group.after, { limit: BATCH, kinds, bounds }),
        )
        more ||= page.more
        // Streams of the group at the same positions elsewhere get the same cursors: one array of
        // items for all of them (and one encoding of it in the transport), not one per stream.
        const shared = new Map<string, readonly StreamItem[]>()
        await forEachInSlices(group.subs, FANOUT_SLICE, (sub) => {
          if (sub.ended) return
          const key = positionsElsewhere(sub.positions, orgId)
          let items = shared.get(key)
          if (items === undefined) {
            items = itemsOf(sub, orgId, page.events)
            shared.set(key, items)
          }
          sub.positions.set(orgId, page.position)
          if (items.length > 0) sub.sink.write(items)
          stillWelcome(sub, nowMs)
        })
      } catch (error) {
        if (!isProblem(error) || error.code !== 'cursor_expired') throw error
        for (const sub of group.subs) end(sub, 'cursor_expired', error.message)
      }
    }
    return more
  }

  /** The page's items with the cursors of the stream's positions after each event. */
  function itemsOf(sub: Subscription, orgId: OrgId, events: StoredEvent[]): StreamItem[] {
    const items: StreamItem[] = []
    for (const event of events) {
      sub.positions.set(orgId, event.seq)
      items.push({ type: 'event', event, cursor: cursorOf(sub) })
    }
    return items
  }

  async function pollFallback(): Promise<void> {
    for (const orgId of [...byOrg.keys()]) {
      try {
        const { last } = await storage.read((s) => s.events.bounds(orgId))
        if (last !== heads.get(orgId)) schedule(orgId)
      } catch (error) {
        console.error('stream fallback read failed', error)
      }
    }
  }

  /**
   * Every ping interval: token expiry, the byte bound and consent for every stream, workspaces
   * joined since (for streams over every membership), then a ping carrying the current cursor.
   * Credentials are read once per token and memberships once per user, before the per-stream loop.
   */
  async function pingAll(): Promise<void> {
    const nowMs = deps.clock().getTime()
    const subs = [...all].filter((sub) => stillWelcome(sub, nowMs))
    await endRevoked(subs, true)
    const memberships = new Map<UserId, OrgId[]>()
    const users = [...new Set(subs.filter((s) => !s.orgFilter).map((s) => s.userId))]
    await forEachLimited(users, ACCESS_CONCURRENCY, async (userId) => {
      const orgs = await storage.read((s) => membershipsOf(s, userId)).catch(() => null)
      if (orgs) memberships.set(userId, orgs)
    })
    await forEachInSlices(subs, FANOUT_SLICE, (sub) => {
      if (sub.ended) return
      // A workspace joined after the stream opened starts at its oldest retained event.
      for (const orgId of memberships.get(sub.userId) ?? []) {
        if (sub.positions.has(orgId)) continue
        join(sub, orgId, null)
        schedule(orgId)
      }
      sub.sink.write([{ type: 'ping', cursor: cursorOf(sub) }])
    })
  }

  return {
    async subscribe(principal, options, sink) {
      const orgIds = await storage.read(async (s) => {
        if (!options.orgId) return membershipsOf(s, principal.userId)
        if (!(await readerIn(s, options.orgId, principal.userId))) throw notFound('Org')
        return [options.orgId]
      })
      joining.open(orgIds)
      try {
        const { positions: start, heads: startHeads } = await storage.read((store) =>
          startPositions({ store, hub: deps.hub, cursors: deps.cursors }, orgIds, options),
        )
        const sub: Subscription = {
          principal,
          userId: principal.userId,
          orgFilter: options.orgId,
          kinds: options.kinds,
          kindsKey: options.kinds ? [...options.kinds].sort().join(',') : '*',
          expiresAtMs: principal.expiresAt ? Date.parse(principal.expiresAt) : Number.POSITIVE_INFINITY,
          positions: new Map(),
          sink,
          ended: false,
        }
        all.add(sub)
        for (const orgId of orgIds) {
          const at = start.get(orgId) ?? null
          join(sub, orgId, at)
          // A round walks every subscriber of the workspace: run one only for a stream that starts
          // behind what this broker knows of the log (else connecting N streams costs N² steps).
          // Nothing is lost in between: an event past the head read at the start (`startHeads`) was
          // committed after that read, so its notice is published after it, while this broker listens.
          // Heard before the join above, the notice raised `noticed` past `at` and a round runs here;
          // heard after, the stream is already in `byOrg` and the notice schedules the round. A notice
          // never heard is a lost wake-up: the fallback poll delivers the event, as for every stream.
          const known = Math.max(startHeads.get(orgId) ?? -1, joining.noticed(orgId), heads.get(orgId) ?? -1)
          if (at === null || at < known) schedule(orgId)
        }
        return () => {
          if (sub.ended) return
          sub.ended = true
          all.delete(sub)
          for (const orgId of sub.positions.keys()) leave(sub, orgId)
        }
      } finally {
        joining.close(orgIds)
      }
    },
    get size() {
      return all.size
    },
    get workspaces() {
      return new Set([...byOrg.keys(), ...joining.workspaces(), ...heads.keys(), ...rounds.keys()]).size
    },
    close() {
      clearInterval(fallback)
      clearInterval(pinger)
      unsubscribeHub()
      for (const sub of [...all])
        end(sub, 'shutdown', 'The server is shutting down; reconnect with the last event id.')
    },
  }
}

function scopeKey(reader: StreamReader): string {
  return reader.scope.orgWide
    ? 'org'
    : `${reader.scope.actorId}:${[...reader.scope.teamIds].sort().join(',')}`
}
