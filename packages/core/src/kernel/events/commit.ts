import type { EventBuffer } from '../context.ts'
import type { Storage, Store } from '../storage.ts'
import type { EventHub, HubNotice } from './events.ts'

/**
 * Appends each org's queued events to its log, answering what to publish once committed. These are
 * the transaction's last statements: the caller returns right after (and commits), so the storage
 * may send the commit with the last append (`EventRepo.append`'s `last`), and nothing that runs
 * after it can fail and want a rollback.
 */
export async function appendEvents(store: Store, events: EventBuffer): Promise<HubNotice[]> {
  const notices: HubNotice[] = []
  let left = events.size
  for (const [orgId, list] of events) {
    const stored = await store.events.append(orgId, list, { last: --left === 0 })
    notices.push({ orgId, seq: stored[stored.length - 1]!.seq })
  }
  return notices
}

/**
 * Runs `fn` in its own transaction with a fresh event buffer, appends what it queued, and publishes
 * only after the commit: a listener never hears of a change that was rolled back.
 */
export async function transactionWithEvents<T>(
  storage: Storage,
  hub: EventHub,
  fn: (store: Store, events: EventBuffer) => Promise<T>,
): Promise<T> {
  const { value, notices } = await storage.transaction(async (store) => {
    const events: EventBuffer = new Map()
    const value = await fn(store, events)
    return { value, notices: await appendEvents(store, events) }
  })
  for (const notice of notices) hub.publish(notice)
  return value
}
