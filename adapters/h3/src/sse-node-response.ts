import type { StreamItem, StreamSink } from '@workgraph/core'
import { bytesOf, chunkOf, SSE_PREAMBLE } from './sse-frames.ts'

// The broker hands every stream at the same positions the same array of items in a round: its
// chunks are joined once for all of them (10,000 streams of a group: one buffer, not 10,000).
const joined = new WeakMap<readonly StreamItem[], Uint8Array>()

/** The items as chunks in one write: a socket write is a system call, the most of a delivery's cost. */
function chunksOf(items: readonly StreamItem[]): Uint8Array {
  let chunks = joined.get(items)
  if (chunks === undefined) {
    chunks =
      items.length === 1
        ? chunkOf(bytesOf(items[0]!))
        : Buffer.concat(items.map((item) => chunkOf(bytesOf(item))))
    joined.set(items, chunks)
  }
  return chunks
}

/** What the stream needs of Node's `ServerResponse` (HTTP/1) or `Http2ServerResponse`. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown
  write(chunk: Uint8Array): boolean
  end(): unknown
  readonly writableLength: number
  once(event: 'close', listener: () => void): unknown
  /** HTTP/1: the connection, and whether the body goes out in chunks (`Transfer-Encoding: chunked`). */
  readonly socket?: SocketLike | null
  readonly chunkedEncoding?: boolean
}

interface SocketLike {
  write(chunk: Uint8Array): boolean
  readonly writableLength: number
  readonly writable: boolean
}

/**
 * The socket to write framed chunks to directly, when the response is HTTP/1 with a chunked body
 * whose head has gone to the socket and nothing is held in the response's own buffer; else null.
 */
function directSocket(res: NodeResponseLike): SocketLike | null {
  const socket = res.socket
  if (!socket || res.chunkedEncoding !== true) return null
  return res.writableLength === socket.writableLength ? socket : null
}

export interface NodeSseStream {
  /** Handed to the broker; what it writes before `start` waits for the head. */
  sink: StreamSink
  /** Writes the head and what is queued, then resolves once the response has closed. */
  start(headers: Record<string, string>, unsubscribe: () => void): Promise<void>
}

/**
 * A live stream written straight to Node's response: one `write` per frame, with no web
 * `ReadableStream` and reader between the broker and the socket (at ten thousand connections those
 * were most of the per-connection cost of a fan-out). On HTTP/1 with a chunked body, once the head is
 * out, each frame goes to the socket as one chunk framed once for every stream that shares it (the
 * frames of one round in one write, since a socket write is a system call): the
 * response's own `write` framed it again per stream, in four pieces, corked and sent with `writev`
 * on the next tick (half the server's time in a fan-out to 10,000 streams). The response still ends
 * the body (`res.end()` writes the last chunk). `queued()` is the response's `writableLength` (its
 * own buffer and the socket's), so a reader that stops reading is ended by the broker's byte bound
 * as before.
 */
export function nodeSseStream(res: NodeResponseLike): NodeSseStream {
  // opening: subscribed, head not written yet; open: writing; ended: `close()` was called.
  let state: 'opening' | 'open' | 'ended' = 'opening'
  let gone = false
  let early: Uint8Array[] = []
  let earlyBytes = 0
  let endWhenOpen = false
  let unsubscribe = () => {}
  let socket: SocketLike | null = null
  const closed = new Promise<void>((resolve) => {
    res.once('close', () => {
      gone = true
      unsubscribe()
      resolve()
    })
  })
  const sink: StreamSink = {
    write(items) {
      if (gone || state === 'ended') return
      if (state === 'open') {
        if (socket) {
          if (socket.writable && items.length > 0) socket.write(chunksOf(items))
        } else for (const item of items) res.write(bytesOf(item))
        return
      }
      for (const item of items) {
        const bytes = bytesOf(item)
        early.push(bytes)
        earlyBytes += bytes.byteLength
      }
    },
    queued: () => (gone || state === 'ended' ? 0 : state === 'open' ? res.writableLength : earlyBytes),
    close() {
      if (gone || state === 'ended') return
      if (state === 'opening') {
        endWhenOpen = true
        return
      }
      state = 'ended'
      res.end()
    },
  }
  return {
    sink,
    start(headers, unsubscribeFn) {
      unsubscribe = unsubscribeFn
      // The client left while the stream was being set up.
      if (gone) {
        unsubscribe()
        return closed
      }
      res.writeHead(200, headers)
      res.write(SSE_PREAMBLE)
      for (const bytes of early) res.write(bytes)
      early = []
      earlyBytes = 0
      state = 'open'
      socket = directSocket(res)
      if (endWhenOpen) sink.close()
      return closed
    },
  }
}
