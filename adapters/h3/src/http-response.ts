import type { Engine, FileAnswer } from '@workgraph/core'
import { type ProblemDocument, ProblemError, type RateLimitDecision } from '@workgraph/core'
import { FastResponse } from 'srvx'

/** A response made here (`json`, `problem`): its status, its headers as given, its text (null: none). */
export interface BuiltResponse {
  status: number
  headers: Record<string, string>
  text: string | null
}

/**
 * What the responses made here were made of, so the envelope finishes them from plain values
 * without reading web `Headers` or draining a stream. They are srvx's `FastResponse`: on Node the
 * text goes to the socket in one write with its length, where a plain `Response` is read through a
 * `ReadableStream` chunk by chunk.
 */
const built = new WeakMap<Response, BuiltResponse>()

/** How a response made by `json` or `problem` was made, if it was. */
export function builtOf(response: Response): BuiltResponse | undefined {
  return built.get(response)
}

function builtResponse(text: string | null, status: number, headers: Record<string, string>): Response {
  const response = new FastResponse(text, { status, headers })
  built.set(response, { status, headers, text })
  return response
}

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
  if (status === 204 || status === 304)
    return builtResponse(null, status, { 'cache-control': 'no-store', ...headers })
  return builtResponse(JSON.stringify(body), status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  })
}

export function problem(error: ProblemError, headers: Record<string, string> = {}): Response {
  const document: ProblemDocument = error.toDocument()
  return builtResponse(JSON.stringify(document), error.status, {
    'content-type': 'application/problem+json; charset=utf-8',
    'cache-control': 'no-store',
    // A database outage is usually seconds long (a restart, a failover).
    ...(error.code === 'service_unavailable' ? { 'retry-after': '2' } : {}),
    ...headers,
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
 * on its own, as an attachment. It is never shown inline: `nosniff` and a sandboxing CSP keep a
 * browser from running what a file holds even when opened directly.
 */
export function fileResponse(
  engine: Engine,
  file: FileAnswer,
  result: unknown,
  headers: Record<string, string>,
): Response {
  const encoder = new TextEncoder()
  const pieces = file.content(engine.storage, result, engine.config)[Symbol.asyncIterator]()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next()
      if (next.done) controller.close()
      else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value)
    },
    async cancel() {
      await pieces.return?.()
    },
  })
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': file.contentType?.(result) ?? `${file.mediaType}; charset=utf-8`,
      'content-disposition': attachmentDisposition(file.filename(result)),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'no-store',
      ...headers,
    },
  })
}

/**
 * `attachment` with an ASCII fallback `filename` (anything but letters, digits, `.`, `-`, `_` and
 * spaces replaced) and, when that differs, the exact name as RFC 8187 `filename*` (RFC 6266): no quote, backslash,
 * control character or line break of a name can reach the header.
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\w. -]/g, '_') || 'file'
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  if (fallback === name) return `attachment; filename="${name}"`
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`
}
