import type { Principal } from '../auth/principal.ts'
import { ProblemError } from '../problems.ts'
import type { IdempotencyLookup, IdempotencyRecord, Store } from '../storage.ts'
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
function idempotencyLock(request: IdempotentRequest): string {
  return `idempotency:${request.principalKey}:${request.key}`
}

/**
 * What to look for: the key's record of the last 24 hours; with `locked`, under the key's lock, taken
 * by the read that answers it (in the org's standing read: one statement fewer per request).
 */
export function idempotencyLookup(request: IdempotentRequest, now: Date, locked: boolean): IdempotencyLookup {
  const notBefore = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString()
  const lookup: IdempotencyLookup = { principalKey: request.principalKey, key: request.key, notBefore }
  if (locked) lookup.lock = idempotencyLock(request)
  return lookup
}

/**
 * The stored response for this key, if the key was used in the last 24 hours (`record`, read inside
 * the transaction after the key's lock: a concurrent twin has either committed its record or not
 * begun). A record of another request under the same key is refused.
 */
export function replayOf(request: IdempotentRequest, record: IdempotencyRecord | null): ExecuteResult | null {
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
