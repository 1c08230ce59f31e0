import type { Principal } from '../kernel/auth/principal.ts'
import type { StoredEvent } from '../kernel/events/events.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { Storage } from '../kernel/storage.ts'
import { readerIn } from './readers.ts'

/**
 * Events of one org after `afterSeq` that the principal may see, the permission predicate in the
 * query (for subscriptions and other readers outside a request). A principal that is not an active
 * member, or lacks `work:read`, reads nothing.
 */
export async function readVisibleEvents(
  storage: Storage,
  principal: Principal,
  orgId: OrgId,
  afterSeq: number,
  limit: number,
): Promise<StoredEvent[]> {
  if (!principal.scopes.has('work:read')) return []
  return storage.read(async (store) => {
    const reader = await readerIn(store, orgId, principal.userId)
    return reader ? store.events.list(orgId, afterSeq, limit, reader.scope) : []
  })
}

/** The org's newest event sequence: where a new reader starts. */
export function lastEventSeq(storage: Storage, orgId: OrgId): Promise<number> {
  return storage.read(async (store) => (await store.events.bounds(orgId)).last)
}
