import { type StreamItem, streamEventOf } from '@workgraph/core'

const encoder = new TextEncoder()

/** The first bytes of every stream: they open the response at once, so clients see it before any event. */
export const SSE_PREAMBLE = encoder.encode(': workgraph stream\nretry: 2000\n\n')

/** The SSE response's own headers, beside CORS and the envelope's. */
export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
}

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

/** The frame of one item as bytes, shared by every subscriber that gets the same event at the same cursor. */
export function bytesOf(item: StreamItem): Uint8Array {
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

const CRLF = encoder.encode('\r\n')
// The same frame as one HTTP/1.1 chunk (size line, frame, CRLF), built once per shared frame.
const chunks = new WeakMap<Uint8Array, Uint8Array>()

/** A frame's bytes as one chunk of a chunked HTTP/1.1 body. */
export function chunkOf(bytes: Uint8Array): Uint8Array {
  let chunk = chunks.get(bytes)
  if (!chunk) {
    const head = encoder.encode(`${bytes.byteLength.toString(16)}\r\n`)
    chunk = new Uint8Array(head.byteLength + bytes.byteLength + 2)
    chunk.set(head, 0)
    chunk.set(bytes, head.byteLength)
    chunk.set(CRLF, head.byteLength + bytes.byteLength)
    chunks.set(bytes, chunk)
  }
  return chunk
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
