import type { StreamSink } from '@workgraph/core'
import { bytesOf, SSE_PREAMBLE } from './sse-frames.ts'

/** What the stream needs of Node's `ServerResponse` (HTTP/1) or `Http2ServerResponse`. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown
  write(chunk: Uint8Array): boolean
  end(): unknown
  readonly writableLength: number
  once(event: 'close', listener: () => void): unknown
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
 * were most of the per-connection cost of a fan-out). `queued()` is the response's `writableLength`
 * (its own buffer and the socket's), so a reader that stops reading is ended by the broker's byte
 * bound as before.
 */
export function nodeSseStream(res: NodeResponseLike): NodeSseStream {
  // opening: subscribed, head not written yet; open: writing; ended: `close()` was called.
  let state: 'opening' | 'open' | 'ended' = 'opening'
  let gone = false
  let early: Uint8Array[] = []
  let earlyBytes = 0
  let endWhenOpen = false
  let unsubscribe = () => {}
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
        for (const item of items) res.write(bytesOf(item))
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
      if (endWhenOpen) sink.close()
      return closed
    },
  }
}
