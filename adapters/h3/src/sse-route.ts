import {
  type Engine,
  isProblem,
  type Principal,
  ProblemError,
  parseSseQuery,
  SSE_ENDPOINT,
} from '@workgraph/core'
import { fromNodeHandler, type H3, type H3Event } from 'h3'
import { authenticate } from './authenticate.ts'
import { envelopeHeaders, recordHead } from './envelope.ts'
import { parseQuery } from './http-request.ts'
import { bearerChallenge, CORS_HEADERS, corsPreflight, internalError, problem } from './http-response.ts'
import { SSE_HEADERS } from './sse-frames.ts'
import { nodeSseStream } from './sse-node-response.ts'
import { webSseStream } from './sse-web-stream.ts'

export { frame } from './sse-frames.ts'
export const SSE_PATH = SSE_ENDPOINT.path

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
      const principal = await authenticate(event, engine, headers, seen)
      if (!principal)
        throw new ProblemError('unauthenticated', 'Send `Authorization: Bearer <access token>`.')
      if (!principal.scopes.has('work:read'))
        throw new ProblemError('insufficient_scope', 'This stream needs the `work:read` scope.', {
          extensions: { requiredScope: 'work:read' },
        })
      const options = parseSseQuery(parseQuery(event.url.searchParams), request.headers.get('last-event-id'))
      return await open(event, engine, principal, options, headers, onError)
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

/**
 * On Node the frames go straight to the `ServerResponse` (see `nodeSseStream`); h3 is told the
 * response is handled through `fromNodeHandler`, whose handler stays pending until the response
 * closes (srvx ends the response once the handler settles). Elsewhere the body is a web stream.
 */
async function open(
  event: H3Event,
  engine: Engine,
  principal: Principal,
  options: ReturnType<typeof parseSseQuery>,
  headers: Record<string, string>,
  onError: ((e: unknown, r: Request) => void) | undefined,
): Promise<unknown> {
  const res = event.runtime?.node?.res
  if (res) {
    const stream = nodeSseStream(res)
    // Problems (bad cursor, not a member) are thrown here, before anything is written.
    const unsubscribe = await engine.streams.subscribe(principal, options, stream.sink)
    const handled = fromNodeHandler(() => {
      const closed = stream.start(envelopeHeaders(event.req, { ...headers, ...SSE_HEADERS }), unsubscribe)
      recordHead(event.req, 200)
      return closed
    })(event)
    return Promise.resolve(handled).catch((error: unknown) => {
      if (!res.headersSent) throw error
      // The stream has begun: no problem document can follow, and srvx only ends the response.
      onError?.(error, event.req)
      return new Response(null)
    })
  }
  const stream = webSseStream()
  stream.onCancel(await engine.streams.subscribe(principal, options, stream.sink))
  return new Response(stream.body, { status: 200, headers: { ...headers, ...SSE_HEADERS } })
}
