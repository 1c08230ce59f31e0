/** An SSE client of the cluster test: it follows the stream through the balancer and resumes wherever it is cut. */
import { openSse, type SseClient } from '../sse.ts'

export interface Follower {
  /** Resolves once the first stream is open. */
  ready: Promise<void>
  /** The `seq` of every event heard, in order. */
  seqs: number[]
  events: any[]
  /** When each event arrived (ms since the epoch), by position in `events`. */
  heardAt: number[]
  readonly resumes: number
  /** Resolves once `predicate` holds over what was heard (checked on every frame). */
  until(predicate: () => boolean, timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

/** Follows `url`'s stream as `token`, resuming with Last-Event-ID whenever the response ends or fails. */
export function follow(url: string, token: string): Follower {
  const seqs: number[] = []
  const events: any[] = []
  const heardAt: number[] = []
  let lastId: string | undefined
  let resumes = 0
  let stopped = false
  let current: SseClient | undefined
  let heard = () => {}
  let connected = () => {}
  const ready = new Promise<void>((resolve) => (connected = resolve))
  const loop = (async () => {
    while (!stopped) {
      try {
        current = await openSse(`${url}/v1/stream/sse${lastId ? '' : '?from=now'}`, {
          token,
          ...(lastId ? { headers: { 'last-event-id': lastId } } : {}),
        })
        connected()
        let read = 0
        const take = () => {
          for (const frame of current!.frames.slice(read)) {
            read++
            if (frame.event !== 'stream-event') continue
            const event = JSON.parse(frame.data)
            seqs.push(event.seq)
            events.push(event)
            heardAt.push(Date.now())
            lastId = frame.id
          }
          heard()
        }
        // Until the response ends (the instance died or drained) or the follower stops.
        await Promise.race([current.until(() => (take(), stopped), 3_600_000), current.ended]).catch(() => {})
        take()
      } catch {
        // The instance died or drained, or the balancer had no server for a moment: resume.
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      if (!stopped) resumes++
    }
  })()
  return {
    ready,
    seqs,
    events,
    heardAt,
    get resumes() {
      return resumes
    },
    until(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`SSE: not heard within ${timeoutMs} ms`)), timeoutMs)
        heard = () => {
          if (predicate()) {
            clearTimeout(timer)
            resolve()
          }
        }
        heard()
      })
    },
    async stop() {
      stopped = true
      current?.close()
      await loop
    },
  }
}
