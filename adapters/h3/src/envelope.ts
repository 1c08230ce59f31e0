import { randomUUID } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { H3, H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { type BuiltResponse, builtOf } from './http-response.ts'

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
  const made = builtOf(response)
  if (made) return finishBuilt(event, made, requestId, compressedOnce, problemTypeBase)
  const type = response.headers.get('content-type') ?? ''
  const headers = new Headers(response.headers)
  headers.set('x-request-id', requestId)
  exposeRequestId(headers)
  if (!response.body || type.startsWith('text/event-stream') || headers.has('content-encoding'))
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })

  const bytes = new Uint8Array(await response.arrayBuffer())
  const read = type.startsWith('application/problem+json')
    ? withRequestId(new TextDecoder().decode(bytes), requestId, problemTypeBase)
    : bytes
  const publicBody = /\bpublic\b/.test(headers.get('cache-control') ?? '')
  const { body, encoding } = await encode(event, read, type, publicBody, compressedOnce)
  if (COMPRESSIBLE.test(type)) headers.append('vary', 'Accept-Encoding')
  if (encoding) headers.set('content-encoding', encoding)
  headers.set('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength))
  // Written to the socket in one piece on Node (see `builtOf`).
  return new FastResponse(body, { status: response.status, statusText: response.statusText, headers })
}

/** A response made by `json` or `problem`: finished from its plain headers and text, no web `Headers`. */
async function finishBuilt(
  event: H3Event,
  made: BuiltResponse,
  requestId: string,
  compressedOnce: Map<string, Uint8Array<ArrayBuffer>>,
  problemTypeBase: string | undefined,
): Promise<Response> {
  const headers: Record<string, string> = {}
  for (const name in made.headers) headers[name.toLowerCase()] = made.headers[name]!
  headers['x-request-id'] = requestId
  const exposed = withExposedRequestId(headers['access-control-expose-headers'])
  if (exposed) headers['access-control-expose-headers'] = exposed
  if (made.text === null) return new FastResponse(null, { status: made.status, headers })

  const type = headers['content-type'] ?? ''
  const text = type.startsWith('application/problem+json')
    ? withRequestId(made.text, requestId, problemTypeBase)
    : made.text
  const publicBody = /\bpublic\b/.test(headers['cache-control'] ?? '')
  const { body, encoding } = await encode(event, text, type, publicBody, compressedOnce)
  if (COMPRESSIBLE.test(type))
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding'
  if (encoding) headers['content-encoding'] = encoding
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)
  return new FastResponse(body, { status: made.status, headers })
}

/** A problem document with this request's id and, when this server documents them, its type's URL. */
function withRequestId(text: string, requestId: string, problemTypeBase: string | undefined): string {
  const document = JSON.parse(text) as Record<string, unknown>
  // The type URL opens this server's page about the code.
  const type =
    problemTypeBase && typeof document.code === 'string'
      ? { type: `${problemTypeBase}${document.code.replaceAll('_', '-')}` }
      : {}
  return JSON.stringify({ ...document, ...type, requestId })
}

/**
 * The body as sent: compressed when its type is compressible, it is a kilobyte or more and the
 * client accepts an encoding; a public, unchanging body (`Cache-Control: public`) is compressed once.
 */
async function encode(
  event: H3Event,
  body: string | Uint8Array<ArrayBuffer>,
  type: string,
  publicBody: boolean,
  compressedOnce: Map<string, Uint8Array<ArrayBuffer>>,
): Promise<{ body: string | Uint8Array<ArrayBuffer>; encoding: 'br' | 'gzip' | null }> {
  if (!COMPRESSIBLE.test(type)) return { body, encoding: null }
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
  const encoding =
    length >= MIN_COMPRESS_BYTES ? chooseEncoding(event.req.headers.get('accept-encoding')) : null
  if (!encoding) return { body, encoding: null }
  const key = publicBody ? `${event.url.pathname}|${encoding}|${length}` : undefined
  const cached = key ? compressedOnce.get(key) : undefined
  const compressed = cached ?? (await compress(typeof body === 'string' ? Buffer.from(body) : body, encoding))
  if (key && !cached) compressedOnce.set(key, compressed)
  return { body: compressed, encoding }
}

function exposeRequestId(headers: Headers): void {
  const exposed = withExposedRequestId(headers.get('access-control-expose-headers'))
  if (exposed) headers.set('access-control-expose-headers', exposed)
}

/** A CORS response's exposed headers with `X-Request-Id` among them (none without CORS). */
function withExposedRequestId(exposed: string | null | undefined): string | null {
  if (!exposed) return null
  return /x-request-id/i.test(exposed) ? exposed : `${exposed}, X-Request-Id`
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
