import type { ActorId, EventId, OrgId, TeamId } from '../ids.ts'

/** An event as a service emits it inside a transaction. */
export interface NewEvent {
  id: EventId
  kind: string
  actorId: ActorId | null
  resourceType: string
  resourceId: string
  /** The team holding the record (a task's or state's team, a team itself); null for org-level records. Stream reads filter on it. */
  teamId?: TeamId | null
  /** Set on a notification's events: only this actor reads them, whatever their role (null: the usual rules). */
  recipientId?: ActorId | null
  /** The resource's new representation, and for updates the changed fields. */
  data: Record<string, unknown>
  createdAt: string
}

/** An event once it is in the org's log. */
export interface StoredEvent extends NewEvent {
  orgId: OrgId
  /** Per-org, gap-free, strictly increasing. */
  seq: number
}

/** A wake-up: the org's log has grown to `seq`. Readers then read the log itself. */
export interface HubNotice {
  orgId: OrgId
  seq: number
}

/**
 * Wakes readers when an org's log grows. It carries no payload that readers depend on: a lost
 * notice delays delivery, it never loses an event, because readers always read the log.
 */
export interface EventHub {
  publish(notice: HubNotice): void
  /** Returns the unsubscribe function. */
  subscribe(listener: (notice: HubNotice) => void): () => void
  close(): Promise<void>
}

/** The in-process hub: enough for one server instance. One throwing listener does not stop the others. */
export function createMemoryEventHub(options: { onListenerError?: (error: unknown) => void } = {}): EventHub {
  const listeners = new Set<(notice: HubNotice) => void>()
  return {
    publish(notice) {
      for (const listener of [...listeners]) {
        try {
          listener(notice)
        } catch (error) {
          options.onListenerError?.(error)
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      listeners.clear()
    },
  }
}

/** Wake-ups for some orgs, remembered between waits so none is missed while the reader reads. */
export interface HubWatch {
  /** Resolves at the first notice since the previous call (at once if one came meanwhile), or after `ms`. */
  wait(ms: number): Promise<void>
  close(): void
}

/** Watches the hub for notices about `orgIds` (every org when null). Create it before reading the log. */
export function watchHub(hub: EventHub, orgIds: ReadonlySet<OrgId> | null): HubWatch {
  let pending = false
  let wake: (() => void) | null = null
  const unsubscribe = hub.subscribe((notice) => {
    if (orgIds && !orgIds.has(notice.orgId)) return
    pending = true
    wake?.()
  })
  return {
    async wait(ms) {
      if (!pending && ms > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wake = null
      }
      pending = false
    },
    close: unsubscribe,
  }
}
