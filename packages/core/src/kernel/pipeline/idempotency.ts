import type { Principal } from '../auth/principal.ts'
import { ProblemError } from '../problems.ts'
import type { Store } from '../storage.ts'
import { canonicalJson, sha256 } from './canonical.ts'
import type { ExecuteResult } from './execution.ts'

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/** One POST's idempotency key, scoped to its caller, with a hash of what the request asked for. */
export interface IdempotentRequest {
  principalKey: string
  key: string
  operationId: string
  hash: string
}

export function idempotentRequest(
  key: string,
  operationId: string,
  principal: Principal | null,
  input: { params: unknown; body: unknown },
): IdempotentRequest {
  return {
    principalKey: principal ? `${principal.userId}:${principal.clientId ?? ''}` : 'anonymous',
    key,
    operationId,
    hash: sha256(canonicalJson({ op: operationId, params: input.params, body: input.body })),
  }
}

/** The lock that makes concurrent requests with one key run one after the other. */
export function idempotencyLock(request: IdempotentRequest): string {
  return `idempotency:${request.principalKey}:${request.key}`
}

/**
 * The stored response for this key, if the key was used in the last 24 hours. Called inside the
 * transaction, after the key's lock: a concurrent twin has either committed its record or not begun.
 */
export async function findReplay(
  store: Store,
  request: IdempotentRequest,
  now: Date,
): Promise<ExecuteResult | null> {
  const notBefore = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString()
  const record = await store.idempotency.get(request.principalKey, request.key, notBefore)
  if (!record) return null
  if (record.requestHash !== request.hash || record.operationId !== request.operationId) {
    throw new ProblemError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request.',
    )
  }
  return {
    status: record.status,
    body: record.body,
    ...(record.etag ? { etag: record.etag } : {}),
    replayed: true,
  }
}

/**
 * Takes the key's lock for the rest of the transaction, then answers the stored response to replay,
 * if any. A write that holds no transaction (`perWorkspace`) has nothing to lock in and only looks.
 */
export async function claimIdempotencyKey(
  store: Store,
  request: IdempotentRequest,
  now: Date,
  { lock }: { lock: boolean },
): Promise<ExecuteResult | null> {
  if (lock) await store.locks.acquire(idempotencyLock(request))
  return findReplay(store, request, now)
}

/** Stores a successful response in the same transaction as the change it describes. */
export async function rememberResponse(
  store: Store,
  request: IdempotentRequest,
  result: ExecuteResult,
  now: string,
): Promise<void> {
  const stored = await store.idempotency.put({
    principalKey: request.principalKey,
    key: request.key,
    operationId: request.operationId,
    requestHash: request.hash,
    status: result.status,
    body: result.body,
    etag: result.etag ?? null,
    createdAt: now,
  })
  // Only possible if a twin slipped past the lock; rolling back keeps the change from happening twice.
  if (!stored)
    throw new ProblemError('conflict', 'A request with this Idempotency-Key is in progress; retry.')
}
