import type { StreamSink } from '@workgraph/core'
import { bytesOf, SSE_PREAMBLE } from './sse-frames.ts'

// What the response stream holds before it counts as unread by the client; the engine's
// `streams.maxBufferedBytes` decides when that backlog ends the stream.
const QUEUE_MARK = 16 * 1024

export interface WebSseStream {
  body: ReadableStream<Uint8Array>
  sink: StreamSink
  /** Called with the broker's unsubscribe, for when the client cancels the body. */
  onCancel(unsubscribe: () => void): void
}

/** A live stream as a web `ReadableStream`: the response body on runtimes other than Node. */
export function webSseStream(): WebSseStream {
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
  controller.enqueue(SSE_PREAMBLE)
  return {
    body,
    sink,
    onCancel(fn) {
      unsubscribe = fn
    },
  }
}
