import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { CliError } from './errors.ts'
import { log } from './output.ts'
import { accessTokenFor } from './session.ts'

export interface TailOptions {
  server: string | undefined
  orgId?: string
  kinds?: string
  /** Where to start without a cursor: `now` (the default) or `start` (the oldest retained event). */
  from: 'now' | 'start'
  cursor?: string
  /** Each event as its JSON line, instead of `time kind resource id`. */
  json: boolean
  write: (line: string) => void
}

/** Stream ends after which reconnecting with the last id carries on; the others end the command. */
const RESUMABLE = new Set(['token_expired', 'shutdown', 'slow_reader'])
const MAX_DELAY_MS = 30_000

/**
 * Tails `GET /v1/stream/sse` until interrupted. Every frame's id is kept, and each reconnect (the
 * server stopped, the network dropped, the access token expired) sends it as `Last-Event-ID`, so
 * every event is printed exactly once. The token comes from the CLI's cache and is refreshed only
 * when it expires or the server refuses it.
 */
export async function tailStream(options: TailOptions): Promise<never> {
  let lastId = options.cursor
  let stale = false
  let delay = 0
  let retry = 2_000
  let opened = false
  for (;;) {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
    const { origin, accessToken } = await accessTokenFor(options.server, { stale })
    stale = false
    const query = new URLSearchParams()
    if (options.orgId) query.set('orgId', options.orgId)
    if (options.kinds) query.set('kinds', options.kinds)
    if (!lastId) query.set('from', options.from)
    let response: Response
    try {
      response = await fetch(`${origin}/v1/stream/sse?${query}`, {
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: 'text/event-stream',
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
      })
    } catch (error) {
      delay = Math.min(Math.max(retry, delay * 2), MAX_DELAY_MS)
      log.warn(`Could not reach ${origin} (${(error as Error).message}); trying again in ${delay / 1000} s`)
      continue
    }
    if (response.status === 401 && !stale) {
      stale = true
      delay = 0
      continue
    }
    if (!response.ok || !response.body) {
      const problem = (await response.json().catch(() => null)) as { code?: string; detail?: string } | null
      throw new CliError(
        `GET /v1/stream/sse answered ${response.status} ${problem?.code ?? ''}: ${problem?.detail ?? response.statusText}`,
      )
    }
    if (!opened) log.info(`Streaming events from ${origin} (Ctrl-C stops)`)
    opened = true
    delay = 0
    const end: { reason?: string; detail?: string } = {}
    const parser = createParser({
      onRetry: (ms) => {
        retry = ms
      },
      onEvent: (event: EventSourceMessage) => {
        if (event.event === 'stream-event') {
          options.write(options.json ? event.data : describe(event.data))
          lastId = event.id ?? lastId
        } else if (event.event === 'ping') lastId = event.id || lastId
        else if (event.event === 'stream-end') Object.assign(end, JSON.parse(event.data))
      },
    })
    const decoder = new TextDecoder()
    try {
      for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }))
    } catch {
      // The connection dropped mid-stream: reconnect below with the last id.
    }
    const { reason } = end
    if (reason && !RESUMABLE.has(reason))
      throw new CliError(`The server ended the stream: ${reason} (${end.detail ?? ''})`)
    if (reason === 'token_expired') stale = true
    delay = retry
    log.info(`Stream ${reason ? `ended (${reason})` : 'interrupted'}; reconnecting from the last event`)
  }
}

/** One line a person scans: when, what kind, which record. */
function describe(data: string): string {
  const event = JSON.parse(data) as {
    createdAt: string
    kind: string
    resourceType: string
    resourceId: string
  }
  return `${event.createdAt}  ${event.kind.padEnd(24)} ${event.resourceType} ${event.resourceId}`
}
