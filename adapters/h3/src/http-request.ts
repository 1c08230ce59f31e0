import { ProblemError } from '@workgraph/core'

/** What reading a body needs of Node's request (`IncomingMessage`, or HTTP/2's `Http2ServerRequest`). */
export interface NodeBodySource {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown
  on(event: 'end' | 'close', listener: () => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  off(event: 'data', listener: (chunk: Buffer) => void): unknown
  off(event: 'end' | 'close', listener: () => void): unknown
  off(event: 'error', listener: (error: Error) => void): unknown
  readonly readableEnded: boolean
}

/**
 * Reads the body as text, refusing more than `limit` bytes without buffering the excess. Given
 * Node's request (`node`), reads it directly: a web stream over it costs more than the body's bytes.
 */
export async function readLimitedText(
  request: Request,
  limit: number,
  node?: NodeBodySource,
): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) throw tooLarge(limit)
  // A GET or HEAD has no body in the Fetch API (srvx hands none over either): what one sends is ignored.
  if (request.method === 'GET' || request.method === 'HEAD') return undefined
  const bytes = node && !node.readableEnded ? await readNode(node, limit) : await readWeb(request, limit)
  if (bytes === undefined || bytes.byteLength === 0) return undefined
  const text = bytes.toString('utf8')
  // As `TextDecoder` reads it: a leading byte-order mark is not part of the text.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

async function readWeb(request: Request, limit: number): Promise<Buffer | undefined> {
  if (!request.body) return undefined
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, size)
}

/**
 * Past `limit` it stops listening and refuses: the rest flows by unread until the connection
 * closes after the 413 (`Connection: close`). A request closed before its end fails the read.
 */
function readNode(source: NodeBodySource, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (settle: () => void) => {
      source.off('data', onData)
      source.off('end', onEnd)
      source.off('close', onClose)
      source.off('error', onError)
      settle()
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > limit) done(() => reject(tooLarge(limit)))
      else chunks.push(chunk)
    }
    const onEnd = () => done(() => resolve(Buffer.concat(chunks, size)))
    const onClose = () => done(() => reject(new Error('The request closed before its body ended.')))
    const onError = (error: Error) => done(() => reject(error))
    source.on('data', onData)
    source.on('end', onEnd)
    source.on('close', onClose)
    source.on('error', onError)
  })
}

/**
 * A raw body for an operation that streams it (`streamBody`), unread: core reads it and stops past
 * `limit`. A declared `Content-Length` over the limit is refused before anything is read.
 */
export function streamedBody(request: Request, limit: number): AsyncIterable<Uint8Array> | undefined {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) throw tooLarge(limit)
  const body = request.body
  return body ? readWithoutCancel(body) : undefined
}

/**
 * Reads a body until the consumer stops, then only lets go of it. Cancelling Node's request stream
 * mid-body breaks its web-stream adapter (a later chunk is queued on the closed stream and throws
 * outside any handler); the unread rest is left to the server, which closes the connection after
 * the 413 (`Connection: close`).
 */
async function* readWithoutCancel(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

function tooLarge(limit: number): ProblemError {
  return new ProblemError('payload_too_large', `The request body is larger than ${limit} bytes.`, {
    extensions: { maxBytes: limit },
  })
}

/** Parses a JSON body; only `application/json` (or `+json`) is accepted. */
export function parseJsonBody(text: string | undefined, contentType: string | null): unknown {
  if (text === undefined) return undefined
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new ProblemError('unsupported_media_type', 'Send the request body as `application/json`.')
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ProblemError(
      'invalid_json',
      `The request body is not valid JSON: ${(error as Error).message}`,
      {
        errors: [{ pointer: '/body', message: 'Not valid JSON' }],
      },
    )
  }
}

/** Query parameters as plain strings; a repeated parameter is refused rather than silently picked. */
export function parseQuery(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [key, value] of params) {
    if (key in query) {
      throw new ProblemError('validation_failed', `The query parameter \`${key}\` is repeated.`, {
        errors: [{ pointer: `/query/${key}`, message: 'Repeated parameter; send it once' }],
      })
    }
    query[key] = value
  }
  return query
}

/** Whether the `Accept` header allows a JSON answer (absent means anything goes). */
export function acceptsJson(accept: string | null, alsoAccepted?: string): boolean {
  if (!accept || accept.trim() === '') return true
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    if (q && Number(q.slice(2)) === 0) return false
    return (
      type === '*/*' ||
      type === 'application/*' ||
      type === 'application/json' ||
      type === 'application/problem+json' ||
      // A download of any type (`*/*`, an attachment) answers whatever the client accepts.
      (alsoAccepted !== undefined && (type === alsoAccepted || alsoAccepted === '*/*'))
    )
  })
}

/** The bearer token of the request, or null when there is none; a malformed header is a 401. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization')
  if (header === null) return null
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim())
  if (!match)
    throw new ProblemError('unauthenticated', 'The Authorization header must be `Bearer <access token>`.')
  return match[1]!
}
