import type { Engine, FileAnswer } from '@workgraph/core'
import { type ProblemDocument, ProblemError, type RateLimitDecision } from '@workgraph/core'

export const CORS_HEADERS: Record<string, string> = {
  // Bearer tokens, never cookies, authenticate API calls, so any origin may call with its own token.
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'ETag, Location, RateLimit, RateLimit-Policy, Retry-After, WWW-Authenticate, Idempotency-Replayed',
}

export function corsPreflight(allow: string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': allow.join(', '),
      'access-control-allow-headers': 'Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key',
      'access-control-max-age': '600',
      allow: allow.join(', '),
    },
  })
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 || status === 304 ? null : JSON.stringify(body), {
    status,
    headers: {
      ...(status === 204 || status === 304 ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      'cache-control': 'no-store',
      ...headers,
    },
  })
}

export function problem(error: ProblemError, headers: Record<string, string> = {}): Response {
  const document: ProblemDocument = error.toDocument()
  return new Response(JSON.stringify(document), {
    status: error.status,
    headers: {
      'content-type': 'application/problem+json; charset=utf-8',
      'cache-control': 'no-store',
      // A database outage is usually seconds long (a restart, a failover).
      ...(error.code === 'service_unavailable' ? { 'retry-after': '2' } : {}),
      ...headers,
    },
  })
}

/** Hides anything unexpected behind a plain 500: no stack, no SQL. */
export function internalError(): ProblemError {
  return new ProblemError(
    'internal_error',
    'Something went wrong on our side. The request changed nothing; retry later.',
  )
}

/** RateLimit and RateLimit-Policy headers (IETF httpapi draft), and Retry-After when exhausted. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'ratelimit-policy': `"default";q=${decision.limit};w=${decision.windowSeconds}`,
    ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { 'retry-after': String(decision.resetSeconds) }),
  }
}

/**
 * The challenge that goes with a 401 or an `insufficient_scope` 403 (RFC 6750), pointing at the
 * protected-resource metadata (RFC 9728) so a client can discover where to get a token.
 */
export function bearerChallenge(
  error: ProblemError,
  hadToken: boolean,
  resourceMetadata?: string,
): Record<string, string> {
  const metadata = resourceMetadata ? `, resource_metadata="${resourceMetadata}"` : ''
  if (error.code === 'unauthenticated') {
    return {
      'www-authenticate': hadToken
        ? `Bearer realm="workgraph", error="invalid_token"${metadata}`
        : `Bearer realm="workgraph"${metadata}`,
    }
  }
  if (error.code === 'insufficient_scope') {
    return {
      'www-authenticate': `Bearer realm="workgraph", error="insufficient_scope", scope="${String(error.extensions.requiredScope)}"${metadata}`,
    }
  }
  return {}
}

/**
 * A download: the operation has checked access; its content is streamed piece by piece, each read
 * on its own, as an attachment.
 */
export function fileResponse(
  engine: Engine,
  file: FileAnswer,
  result: unknown,
  headers: Record<string, string>,
): Response {
  const encoder = new TextEncoder()
  const pieces = file.content(engine.storage, result)[Symbol.asyncIterator]()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await pieces.return?.()
    },
  })
  const filename = file.filename(result).replace(/[^\w.-]/g, '_')
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': `${file.mediaType}; charset=utf-8`,
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      ...headers,
    },
  })
}
