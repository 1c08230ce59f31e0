import type { NewEvent, StoredEvent } from './events/events.ts'
import type { OrgId } from './ids.ts'
import type { ReadScope } from './read-scope.ts'

/**
 * The storage interface core runs on. One implementation per database family lives in an
 * adapter; every method filters by `orgId` where the data is a tenant's.
 */
export interface Storage {
  readonly dialect: 'sqlite' | 'postgres'
  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back when it throws.
   * Concurrent transactions that touch the same org serialise on the org's event counter. When the
   * database aborts the transaction to break a deadlock (or a serialization failure), `fn` runs
   * again in a new one, a few times at most: it must have no effect outside the store it is given.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>
  /** Runs `fn` on plain autocommit reads, for operations that write nothing. */
  read<T>(fn: (store: Store) => Promise<T>): Promise<T>
  /** Answers once the database answers a trivial query; throws (a `service_unavailable` problem) when it cannot. */
  ping(): Promise<void>
  close(): Promise<void>
}

/**
 * The repositories one transaction sees. The kernel declares its own here; each resource group adds
 * its repositories in its `storage.ts` by declaration merging, so adding a group edits no shared list:
 *
 *     declare module '../kernel/storage.ts' {
 *       interface Store { labels: LabelRepo }
 *     }
 */
export interface Store {
  events: EventRepo
  idempotency: IdempotencyRepo
  secrets: SecretRepo
  locks: LockRepo
  protocolSessions: ProtocolSessionRepo
}

/**
 * A resumable protocol session (an MCP Streamable HTTP session): what any instance needs to rebuild
 * it when one of its requests lands there. `state` is the protocol's own JSON.
 */
export interface ProtocolSession {
  id: string
  userId: string
  protocol: 'mcp'
  state: unknown
  createdAt: string
  seenAt: string
}

export interface ProtocolSessionRepo {
  get(id: string): Promise<ProtocolSession | null>
  insert(session: ProtocolSession): Promise<void>
  /** Replaces the state; false when the session is gone. */
  update(id: string, state: unknown): Promise<boolean>
  touch(id: string, seenAt: string): Promise<void>
  delete(id: string): Promise<boolean>
  /** Deletes sessions last seen before `seenBefore`. */
  prune(seenBefore: string): Promise<number>
}

/** Named locks held until the transaction ends. */
export interface LockRepo {
  /**
   * Waits until no other transaction holds `key`, then holds it until this transaction commits or
   * rolls back. Two transactions that lock the same key run their guarded parts one after the other.
   * Several keys are taken one after the other in the order given (callers sort them), in one statement.
   */
  acquire(...keys: string[]): Promise<void>
}

export interface EventRepo {
  /**
   * Appends events to the org's log, allocating each a gap-free sequence from the org's counter
   * row, which stays locked until commit: commit order equals sequence order. With `last`, the
   * append is its transaction's last statement (the caller returns right after, and commits): the
   * storage may send the commit with it, so the counter row is released without waiting on the caller.
   */
  append(orgId: OrgId, events: NewEvent[], options?: { last?: boolean }): Promise<StoredEvent[]>
  /**
   * Events with `seq > afterSeq`, in order. With a scope, only what the reader may see, decided in
   * the query: org-wide readers see every event; others the events of their visible teams and the
   * events about themselves (`resourceId` = their actor id). Without one: every event (engine use).
   * With `kinds`, only events of those kinds (also in the query).
   */
  list(
    orgId: OrgId,
    afterSeq: number,
    limit: number,
    scope?: ReadScope,
    kinds?: readonly string[],
  ): Promise<StoredEvent[]>
  /**
   * The org's log bounds: `last` is the committed counter (every event up to it is committed and
   * readable), `oldest` the first retained sequence (`last + 1` when nothing is retained).
   */
  bounds(orgId: OrgId): Promise<{ oldest: number; last: number }>
  /**
   * Deletes, per org, the prefix of the log up to the newest event created before `before`: always a
   * prefix by sequence, so `oldest` tells exactly what a cursor may still resume from.
   */
  prune(before: string): Promise<number>
}

export interface IdempotencyRecord {
  /** Who sent the request: the same key from two callers is two keys. */
  principalKey: string
  key: string
  operationId: string
  requestHash: string
  status: number
  body: unknown
  etag: string | null
  createdAt: string
}

/** A key's stored answer to look for: the caller's key, used no earlier than `notBefore`. */
export interface IdempotencyLookup {
  principalKey: string
  key: string
  notBefore: string
  /**
   * The key's lock (as `locks.acquire`), taken before the answer is read, by the read that answers
   * it: a concurrent twin has then either committed its record or not begun.
   */
  lock?: string
}

export interface IdempotencyRepo {
  get(principalKey: string, key: string, notBefore: string): Promise<IdempotencyRecord | null>
  /** Returns false, writing nothing, when the key is already stored (a concurrent twin won). */
  put(record: IdempotencyRecord): Promise<boolean>
  /** Deletes records older than `before`. */
  prune(before: string): Promise<number>
}

export interface StoredSecret {
  name: string
  value: string
  createdAt: string
}

/** Server-wide secrets and keys (cursor keys, signing keys) that every instance must share. */
export interface SecretRepo {
  list(prefix: string): Promise<StoredSecret[]>
  /** Returns false, writing nothing, when the name exists: under a race exactly one value wins. */
  insert(secret: StoredSecret): Promise<boolean>
}
