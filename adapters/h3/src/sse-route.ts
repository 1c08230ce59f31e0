import {
  type Engine,
  isProblem,
  type Principal,
  ProblemError,
  parseSseQuery,
  SSE_ENDPOINT,
  type StreamItem,
  type StreamSink,
  streamEventOf,
} from '@workgraph/core'
import type { H3 } from 'h3'
import { authenticate } from './authenticate.ts'
import { parseQuery } from './http-request.ts'
import { bearerChallenge, CORS_HEADERS, corsPreflight, internalError, problem } from './http-response.ts'

export const SSE_PATH = SSE_ENDPOINT.path
const encoder = new TextEncoder()
// What the response stream holds before it counts as unread by the client; the engine's
// `streams.maxBufferedBytes` decides when that backlog ends the stream.
const QUEUE_MARK = 16 * 1024

// One event goes to every subscriber that may see it: serialise its payload once.
const payloads = new WeakMap<object, string>()
function payloadOf(event: Extract<StreamItem, { type: 'event' }>['event']): string {
  let json = payloads.get(event)
  if (json === undefined) {
    json = JSON.stringify(streamEventOf(event))
    payloads.set(event, json)
  }
  return json
}

// Subscribers at the same position share the event and its cursor: encode that frame once for all.
const encoded = new WeakMap<object, Map<string, Uint8Array>>()
function bytesOf(item: StreamItem): Uint8Array {
  if (item.type !== 'event') return encoder.encode(frame(item))
  let byCursor = encoded.get(item.event)
  if (!byCursor) {
    byCursor = new Map()
    encoded.set(item.event, byCursor)
  }
  let bytes = byCursor.get(item.cursor)
  if (!bytes) {
    bytes = encoder.encode(frame(item))
    byCursor.set(item.cursor, bytes)
  }
  return bytes
}

/** Server-sent event framing of a core live stream: `stream-event`, `ping` and a final `stream-end`. */
export function frame(item: StreamItem): string {
  switch (item.type) {
    case 'event':
      return `id: ${item.cursor}\nevent: stream-event\ndata: ${payloadOf(item.event)}\n\n`
    case 'ping':
      return `id: ${item.cursor}\nevent: ping\ndata: {}\n\n`
    case 'end':
      return `event: stream-end\ndata: ${JSON.stringify({ reason: item.reason, detail: item.detail })}\n\n`
  }
}

/**
 * `GET /v1/stream/sse`: authenticates like every API route, then hands the connection to the
 * engine's stream broker. Problems before the stream opens (bad token, cursor, org) are problem
 * documents; afterwards the broker ends the stream with a `stream-end` frame saying why.
 */
export function registerSseRoute(app: H3, engine: Engine, onError?: (e: unknown, r: Request) => void): void {
  const resourceMetadata = `${engine.config.baseUrl}/.well-known/oauth-protected-resource/v1`
  app.all(SSE_PATH, async (event) => {
    const request = event.req
    if (request.method === 'OPTIONS') return corsPreflight(['GET', 'OPTIONS'])
    const headers: Record<string, string> = { ...CORS_HEADERS }
    const seen = { hadToken: false }
    try {
      if (request.method !== 'GET')
        throw new ProblemError('method_not_allowed', `${request.method} is not allowed here; use GET.`)
      const url = new URL(request.url)
      const principal = await authenticate(event, engine, headers, seen)
      if (!principal)
        throw new ProblemError('unauthenticated', 'Send `Authorization: Bearer <access token>`.')
      if (!principal.scopes.has('work:read'))
        throw new ProblemError('insufficient_scope', 'This stream needs the `work:read` scope.', {
          extensions: { requiredScope: 'work:read' },
        })
      const options = parseSseQuery(parseQuery(url), request.headers.get('last-event-id'))
      return await open(engine, principal, options, headers)
    } catch (error) {
      if (isProblem(error))
        return problem(error, {
          ...headers,
          ...bearerChallenge(error, seen.hadToken, resourceMetadata),
          ...(error.code === 'method_not_allowed' ? { allow: 'GET, OPTIONS' } : {}),
        })
      onError?.(error, request)
      return problem(internalError(), headers)
    }
  })
}

async function open(
  engine: Engine,
  principal: Principal,
  options: ReturnType<typeof parseSseQuery>,
  headers: Record<string, string>,
): Promise<Response> {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let closed = false
  let unsubscribe = () => {}
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
      },
      cancel() {
        closed = true
        unsubscribe()
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUE_MARK }),
  )
  const sink: StreamSink = {
    write(items) {
      if (closed) return
      for (const item of items) controller.enqueue(bytesOf(item))
    },
    queued: () => (closed ? 0 : Math.max(0, QUEUE_MARK - (controller.desiredSize ?? 0))),
    close() {
      if (closed) return
      closed = true
      controller.close()
    },
  }
  // The first bytes open the response at once, so clients see the stream before any event.
  controller.enqueue(encoder.encode(': workgraph stream\nretry: 2000\n\n'))
  unsubscribe = await engine.streams.subscribe(principal, options, sink)
  return new Response(body, {
    status: 200,
    headers: {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  })
}
