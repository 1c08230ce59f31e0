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

interface Subscription {
  uri: string
  orgId: OrgId
  /** The record's id: events name it as `resourceId` (or, for a task's own records, `data.taskId`). */
  recordId: string
}

/**
 * One MCP session's resource subscriptions. The event hub only wakes it; it then reads the org's
 * event log after its position, with the subscriber's permission predicate in the query, and sends
 * `notifications/resources/updated` for the subscribed records that changed. A lost wake-up delays a
 * notification until the next one; it never skips an event.
 */
export class Subscriptions {
  private readonly byUri = new Map<string, Subscription>()
  private readonly positions = new Map<OrgId, number>()
  private readonly work = new Map<OrgId, Promise<void>>()
  private unsubscribeHub: (() => void) | undefined

  constructor(
    private readonly engine: Engine,
    private readonly principal: () => Principal | undefined,
    private readonly notify: (uri: string) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  async add(subscription: Subscription): Promise<void> {
    if (!this.positions.has(subscription.orgId))
      this.positions.set(subscription.orgId, await lastEventSeq(this.engine.storage, subscription.orgId))
    this.byUri.set(subscription.uri, subscription)
    this.unsubscribeHub ??= this.engine.hub.subscribe((notice) => this.wake(notice.orgId))
  }

  remove(uri: string): void {
    this.byUri.delete(uri)
  }

  close(): void {
    this.unsubscribeHub?.()
    this.unsubscribeHub = undefined
    this.byUri.clear()
  }

  /** Catches one org up; runs after any catch-up already under way for it, so events go out in order. */
  wake(orgId: OrgId): Promise<void> {
    if (!this.positions.has(orgId)) return Promise.resolve()
    const next = (this.work.get(orgId) ?? Promise.resolve())
      .then(() => this.catchUp(orgId))
      .catch(this.onError)
    this.work.set(orgId, next)
    return next
  }

  private async catchUp(orgId: OrgId): Promise<void> {
    const principal = this.principal()
    if (!principal) return
    for (;;) {
      const after = this.positions.get(orgId) ?? 0
      const events = await readVisibleEvents(this.engine.storage, principal, orgId, after, BATCH)
      if (events.length === 0) return
      this.positions.set(orgId, events[events.length - 1]!.seq)
      const changed = new Set<string>()
      for (const event of events)
        for (const s of this.byUri.values())
          if (s.orgId === orgId && concerns(event, s.recordId)) changed.add(s.uri)
      for (const uri of changed) await this.notify(uri)
      if (events.length < BATCH) return
    }
  }
}

/**
 * Whether an event changes what the subscribed record reads as: the record itself, a task's own
 * records (comments, links: `data.taskId`), or, for a cycle, a task entering or leaving it.
 */
function concerns(event: StoredEvent, recordId: string): boolean {
  if (event.resourceId === recordId) return true
  const data = event.data as Record<string, any> | null
  if (data?.taskId === recordId) return true
  if (!recordId.startsWith('cyc_')) return false
  return data?.cycleId === recordId || data?.changes?.cycleId?.before === recordId
}
