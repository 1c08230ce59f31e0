import { request } from 'node:http'

export interface SseFrame {
  event: string
  id: string | undefined
  data: string
}

export interface SseClient {
  status: number
  /** Every frame so far, in order. */
  frames: SseFrame[]
  /** The `stream-event` payloads so far. */
  events(): any[]
  /** Resolves once `predicate` holds over the frames (checked on every frame). */
  until(predicate: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<void>
  /** Resolves when the server ends the response. */
  ended: Promise<void>
  /** Stops reading from the socket (a slow reader) and resumes. */
  pause(): void
  resume(): void
  close(): void
}

/**
 * A raw HTTP server-sent events reader (no library): parses `event:`, `id:` and `data:` lines.
 * Rejects with the status and body when the server answers with anything but a stream.
 */
export function openSse(
  url: string,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        accept: 'text/event-stream',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
    })
    req.on('error', reject)
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        let body = ''
        res.on('data', (c) => (body += c))
        res.on('end', () =>
          reject(
            Object.assign(new Error(`SSE ${res.statusCode}: ${body}`), { status: res.statusCode, body }),
          ),
        )
        return
      }
      const frames: SseFrame[] = []
      const waiters = new Set<() => void>()
      let buffer = ''
      let current: SseFrame = { event: 'message', id: undefined, data: '' }
      let hasData = false
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffer += chunk
        let newline = buffer.indexOf('\n')
        while (newline >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '')
          buffer = buffer.slice(newline + 1)
          newline = buffer.indexOf('\n')
          if (line === '') {
            if (hasData) frames.push(current)
            current = { event: 'message', id: undefined, data: '' }
            hasData = false
            continue
          }
          if (line.startsWith(':')) continue
          const colon = line.indexOf(':')
          const field = colon < 0 ? line : line.slice(0, colon)
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
          if (field === 'event') current.event = value
          else if (field === 'id') current.id = value
          else if (field === 'data') {
            current.data = hasData ? `${current.data}\n${value}` : value
            hasData = true
          }
        }
        for (const wake of [...waiters]) wake()
      })
      const ended = new Promise<void>((done) => {
        res.on('end', done)
        res.on('close', done)
      })
      void ended.then(() => {
        for (const wake of [...waiters]) wake()
      })
      let isEnded = false
      void ended.then(() => (isEnded = true))
      resolve({
        status: res.statusCode,
        frames,
        events: () => frames.filter((f) => f.event === 'stream-event').map((f) => JSON.parse(f.data)),
        until(predicate, timeoutMs = 15_000) {
          return new Promise((done, fail) => {
            const check = () => {
              if (predicate(frames)) {
                cleanup()
                done()
              } else if (isEnded) {
                cleanup()
                fail(new Error(`SSE ended before the condition held (${frames.length} frames)`))
              }
            }
            const timer = setTimeout(() => {
              cleanup()
              fail(new Error(`SSE condition not met within ${timeoutMs} ms (${frames.length} frames)`))
            }, timeoutMs)
            const cleanup = () => {
              clearTimeout(timer)
              waiters.delete(check)
            }
            waiters.add(check)
            check()
          })
        },
        ended,
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      })
    })
    req.end()
  })
}
