import {
  type Engine,
  lastEventSeq,
  type OrgId,
  type Principal,
  readVisibleEvents,
  type StoredEvent,
} from '@workgraph/core'

/** Events read per round trip while catching up. */
const BATCH = 500

/** The events that change what an inbox reads as (a notification arriving, or read, snoozed, archived). */
const NOTIFICATION_EVENTS = ['notification.created', 'notification.updated']

export interface Subscription {
  uri: string
  orgId: OrgId
  /**
   * The record's id: events name it as `resourceId` (or, for a task's own records, `data.taskId`);
   * `INBOX_RECORD` for the subscriber's own notifications there (one subscription per workspace).
   */
  recordId: string
}

/** What an inbox subscription watches in each workspace: the notification events addressed to the reader. */
export const INBOX_RECORD = 'inbox'

/** One URI may watch several workspaces (the inbox): entries are keyed by URI and workspace. */
const keyOf = (s: { uri: string; orgId: OrgId }) => `${s.uri} ${s.orgId}`

/** A subscription as stored with its session: `fromSeq` is the org's log position when it was made. */
export interface StoredSubscription extends Subscription {
  fromSeq: number
}

/**
 * Where a session shared by several instances keeps its subscriptions: `load` returns the current
 * list (null when the session is gone), `save` records one change.
 */
export interface SharedSubscriptions {
  load(): Promise<StoredSubscription[] | null>
  save(change: { add: StoredSubscription } | { remove: string }): Promise<void>
  /** How often to catch up without a wake-up (a lost notice, or a hub that does not span instances). */
  pollMs: number
}

/**
 * One MCP session's resource subscriptions. The event hub only wakes it; it then reads the org's
 * event log after its position, with the subscriber's permission predicate in the query, and sends
 * `notifications/resources/updated` for the subscribed records that changed. A lost wake-up delays a
 * notification until the next one; it never skips an event.
 *
 * With `shared`, the list lives with the session in the database: a subscription made through
 * another instance is loaded on the next wake-up (or poll), and read from the position stored with it.
 */
export class Subscriptions {
  private readonly byKey = new Map<string, Subscription>()
  private readonly positions = new Map<OrgId, number>()
  private readonly work = new Map<OrgId, Promise<void>>()
  private unsubscribeHub: (() => void) | undefined
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly engine: Engine,
    private readonly principal: () => Principal | undefined,
    private readonly notify: (uri: string) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly shared?: SharedSubscriptions,
  ) {}

  /**
   * While the session's stream is open here: listen to the hub and, when shared, also catch up every
   * `pollMs`, reloading the stored list, so that subscriptions made elsewhere notify on this stream.
   */
  attach(): void {
    this.listen()
    if (!this.shared || this.timer) return
    this.timer = setInterval(() => void this.wakeAll(), this.shared.pollMs)
    this.timer.unref?.()
    void this.wakeAll()
  }

  /** The stream ended: no more polling, and, when shared, no more listening here. */
  detach(): void {
    clearInterval(this.timer)
    this.timer = undefined
    if (this.shared || this.byKey.size === 0) {
      this.unsubscribeHub?.()
      this.unsubscribeHub = undefined
    }
  }

  async add(subscription: Subscription): Promise<void> {
    if (!this.positions.has(subscription.orgId))
      this.positions.set(subscription.orgId, await lastEventSeq(this.engine.storage, subscription.orgId))
    this.byKey.set(keyOf(subscription), subscription)
    await this.shared?.save({ add: { ...subscription, fromSeq: this.positions.get(subscription.orgId)! } })
    // Shared: only the instance holding the stream listens (`attach`); it loads this from the store.
    if (!this.shared) this.listen()
  }

  /** Ends every subscription to the URI (for the inbox, in each workspace). */
  async remove(uri: string): Promise<void> {
    for (const [key, s] of this.byKey) if (s.uri === uri) this.byKey.delete(key)
    await this.shared?.save({ remove: uri })
  }

  close(): void {
    this.unsubscribeHub?.()
    this.unsubscribeHub = undefined
    clearInterval(this.timer)
    this.timer = undefined
    this.byKey.clear()
  }

  /** Catches one org up; runs after any catch-up already under way for it, so events go out in order. */
  wake(orgId: OrgId): Promise<void> {
    if (!this.shared && !this.positions.has(orgId)) return Promise.resolve()
    const next = (this.work.get(orgId) ?? Promise.resolve())
      .then(() => this.catchUp(orgId))
      .catch(this.onError)
    this.work.set(orgId, next)
    return next
  }

  private listen(): void {
    this.unsubscribeHub ??= this.engine.hub.subscribe((notice) => void this.wake(notice.orgId))
  }

  private async wakeAll(): Promise<void> {
    try {
      await this.sync()
    } catch (error) {
      this.onError(error)
      return
    }
    await Promise.all([...this.positions.keys()].map((orgId) => this.wake(orgId)))
  }

  /** Takes the stored list as the truth. */
  private async sync(): Promise<void> {
    const stored = await this.shared?.load()
    if (!stored) return
    const known = new Set(this.byKey.keys())
    this.byKey.clear()
    for (const s of stored) {
      this.byKey.set(keyOf(s), { uri: s.uri, orgId: s.orgId, recordId: s.recordId })
      // A subscription new to this instance is read from where it was made (an update may repeat).
      const at = this.positions.get(s.orgId)
      if (!known.has(keyOf(s)) && (at === undefined || s.fromSeq < at)) this.positions.set(s.orgId, s.fromSeq)
    }
  }

  private async catchUp(orgId: OrgId): Promise<void> {
    if (this.shared) await this.sync()
    if (!this.positions.has(orgId)) return
    const principal = this.principal()
    if (!principal) return
    for (;;) {
      const after = this.positions.get(orgId) ?? 0
      const events = await readVisibleEvents(this.engine.storage, principal, orgId, after, BATCH)
      if (events.length === 0) return
      this.positions.set(orgId, events[events.length - 1]!.seq)
      const changed = new Set<string>()
      for (const event of events)
        for (const s of this.byKey.values())
          if (s.orgId === orgId && concerns(event, s.recordId)) changed.add(s.uri)
      for (const uri of changed) await this.notify(uri)
      if (events.length < BATCH) return
    }
  }
}

/**
 * Whether an event changes what the subscribed record reads as: for the inbox, a notification event
 * addressed to the reader; else the record itself, a task's own
 * records (comments, links: `data.taskId`), comments on it (`data.subjectId`), or, for a cycle, a
 * project or a milestone, a task entering or leaving it; for a project also its milestones, its
 * status updates and reactions to it.
 */
function concerns(event: StoredEvent, recordId: string): boolean {
  // The log read is the reader's: an addressed event there is addressed to them.
  if (recordId === INBOX_RECORD) return event.recipientId != null && NOTIFICATION_EVENTS.includes(event.kind)
  if (event.resourceId === recordId) return true
  const data = event.data as Record<string, any> | null
  if (data?.taskId === recordId || data?.subjectId === recordId) return true
  const field = recordId.startsWith('cyc_')
    ? 'cycleId'
    : recordId.startsWith('proj_')
      ? 'projectId'
      : recordId.startsWith('mile_')
        ? 'milestoneId'
        : null
  if (!field) return false
  if (data?.[field] === recordId || data?.changes?.[field]?.before === recordId) return true
  if (field === 'cycleId') return false
  if (data?.task?.[field] === recordId) return true
  if (field !== 'projectId') return false
  return (
    data?.milestone?.projectId === recordId ||
    data?.update?.subjectId === recordId ||
    data?.reaction?.targetId === recordId
  )
}
