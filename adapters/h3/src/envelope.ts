import { randomUUID } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { H3, H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { bodyTextOf } from './http-response.ts'

/** What the host learns of each answered request (for its request log). */
export interface RequestRecord {
  method: string
  /** The URL path, without the query (which may carry cursors and search text). */
  path: string
  status: number
  /** Until the response head was ready; streams go on after it. */
  durationMs: number
  requestId: string
}

export interface EnvelopeOptions {
  onRequest?: (record: RequestRecord) => void
  /** Where this server documents problem types (`{baseUrl}/problems/`): each problem's `type` is this plus its code's slug. */
  problemTypeBase?: string
}

const requestIds = new WeakMap<Request, string>()
const heads = new WeakMap<Request, (status: number) => void>()

/** The id given to a request (for logging an error beside its request record). */
export function requestIdOf(request: Request): string | undefined {
  return requestIds.get(request)
}

// A caller's own id (a proxy's, a client's) is kept when it is a plain token, so logs join up.
const CALLER_ID = /^[A-Za-z0-9._:-]{1,128}$/
// Below this a compressed body saves less than the work costs.
const MIN_COMPRESS_BYTES = 1024
const COMPRESSIBLE = /^(application\/(json|problem\+json|javascript)|text\/(html|javascript|css|plain))/
const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Every response gets an `X-Request-Id` (the caller's when given, else a new one), problem documents
 * carry the same id as `requestId` and a `type` URL on this server, bodies of a kilobyte or more are compressed when the client
 * accepts it (streams never are), and the host hears of each request once its head is ready.
 */
export function useEnvelope(app: H3, options: EnvelopeOptions = {}): void {
  // Public, unchanging bodies of this app (the OpenAPI document, the reference script) are compressed once.
  const compressedOnce = new Map<string, Uint8Array<ArrayBuffer>>()
  app.use(async (event, next) => {
    const started = performance.now()
    const given = event.req.headers.get('x-request-id')
    const requestId = given && CALLER_ID.test(given) ? given : randomUUID()
    requestIds.set(event.req, requestId)
    let recorded = false
    const record = (status: number) => {
      if (recorded) return
      recorded = true
      options.onRequest?.({
        method: event.req.method,
        path: event.url.pathname,
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        requestId,
      })
    }
    heads.set(event.req, record)
    let response = (await next()) as unknown
    if (response instanceof Response)
      response = await finish(event, response, requestId, compressedOnce, options.problemTypeBase)
    record(response instanceof Response ? response.status : 200)
    return response
  })
}

/**
 * A response written straight to Node's `ServerResponse` (the SSE stream) passes by `finish`: these
 * are its headers with what the envelope adds to every response (`X-Request-Id`, exposed to CORS).
 */
export function envelopeHeaders(request: Request, headers: Record<string, string>): Record<string, string> {
  const requestId = requestIds.get(request)
  if (requestId === undefined) return headers
  const all = new Headers(headers)
  all.set('x-request-id', requestId)
  exposeRequestId(all)
  return Object.fromEntries(all)
}

/** Such a response's head is written: the request is recorded now, not when its stream ends. */
export function recordHead(request: Request, status: number): void {
  heads.get(request)?.(status)
}

async function finish(
  event: H3Event,
  response: Response,
  requestId: string,
  compressedOnce: Map<string, Uint8Array<ArrayBuffer>>,
  problemTypeBase: string | undefined,
): Promise<Response> {
  const type = response.headers.get('content-type') ?? ''
  const headers = new Headers(response.headers)
  headers.set('x-request-id', requestId)
  exposeRequestId(headers)
  if (!response.body || type.startsWith('text/event-stream') || headers.has('content-encoding'))
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })

  // JSON built by this app is at hand as text; anything else is read from its stream.
  let body: Uint8Array<ArrayBuffer> | string =
    bodyTextOf(response) ?? new Uint8Array(await response.arrayBuffer())
  if (type.startsWith('application/problem+json')) {
    const document = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as Record<
      string,
      unknown
    >
    // The type URL opens this server's page about the code.
    const type =
      problemTypeBase && typeof document.code === 'string'
        ? { type: `${problemTypeBase}${document.code.replaceAll('_', '-')}` }
        : {}
    body = JSON.stringify({ ...document, ...type, requestId })
  }
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
  if (COMPRESSIBLE.test(type)) {
    headers.append('vary', 'Accept-Encoding')
    const encoding =
      length >= MIN_COMPRESS_BYTES ? chooseEncoding(event.req.headers.get('accept-encoding')) : null
    if (encoding) {
      const key = /\bpublic\b/.test(headers.get('cache-control') ?? '')
        ? `${event.url.pathname}|${encoding}|${length}`
        : undefined
      const cached = key ? compressedOnce.get(key) : undefined
      body = cached ?? (await compress(typeof body === 'string' ? Buffer.from(body) : body, encoding))
      if (key && !cached) compressedOnce.set(key, body)
      headers.set('content-encoding', encoding)
    }
  }
  headers.set('content-length', String(typeof body === 'string' ? length : body.byteLength))
  // Written to the socket in one piece on Node (see `bodyTextOf`).
  return new FastResponse(body, { status: response.status, statusText: response.statusText, headers })
}

function exposeRequestId(headers: Headers): void {
  const exposed = headers.get('access-control-expose-headers')
  if (exposed && !/x-request-id/i.test(exposed))
    headers.set('access-control-expose-headers', `${exposed}, X-Request-Id`)
}

/** `br` when the client takes it, else `gzip`; none for `identity` only or a `q=0` refusal. */
export function chooseEncoding(header: string | null): 'br' | 'gzip' | null {
  if (!header) return null
  const accepted = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    accepted.set(name!, q ? Number(q.slice(2)) : 1)
  }
  const weight = (name: string) => accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0)
  if (weight('br') > 0) return 'br'
  if (weight('gzip') > 0) return 'gzip'
  return null
}

async function compress(body: Uint8Array, encoding: 'br' | 'gzip'): Promise<Uint8Array<ArrayBuffer>> {
  const out =
    encoding === 'br'
      ? // Quality 5 compresses the 3 MB OpenAPI document in tens of milliseconds; 11 would take seconds.
        await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : await gzipAsync(body)
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength) as Uint8Array<ArrayBuffer>
}
