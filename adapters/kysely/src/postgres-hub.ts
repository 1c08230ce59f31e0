import { randomUUID } from 'node:crypto'
import { createMemoryEventHub, type EventHub, type HubNotice } from '@workgraph/core'
import type pg from 'pg'

export interface PostgresHubOptions {
  /** The `postgres://` URL of the database every instance shares: `NOTIFY` goes this way. */
  url: string
  /**
   * Where the listener connects, when `url` is a pooler in transaction mode: `LISTEN` needs a
   * session of its own, which such a pooler does not keep (docs/scale-out.md). `url` by default.
   */
  listenUrl?: string
  /** The schema the instances work in: one channel per schema, so schemas on one server stay apart. */
  schema?: string
  /** Delay before reconnecting a lost listener. */
  reconnectMs?: number
  onError?: (error: unknown) => void
  /**
   * Called when the listener, once connected, does not hear its own test notification within
   * `probeMs`: `LISTEN` does not hold on that connection (a pooler in transaction mode), and
   * instances wake each other's stream readers only on their fallback re-read.
   */
  onDeaf?: () => void
  /** How long the listener waits for its test notification (3 s). */
  probeMs?: number
}

/**
 * The event hub across server instances: `publish` wakes this process's readers at once and sends
 * `NOTIFY` (after the engine's commit); a dedicated connection (on `listenUrl`, a direct one, when
 * `url` is a pooler) `LISTEN`s and wakes readers for the other instances' writes. Notifications
 * only wake readers, who then read the log: one lost while the listener reconnects delays an event
 * until the readers' fallback re-read, it never loses it.
 */
export async function createPostgresEventHub(options: PostgresHubOptions): Promise<EventHub> {
  const { default: pg } = await import('pg')
  const local = createMemoryEventHub({ onListenerError: options.onError })
  const channel = `workgraph_events${options.schema ? `_${options.schema}` : ''}`.slice(0, 63)
  const instance = randomUUID()
  const sender = new pg.Pool({ connectionString: options.url, max: 2 })
  sender.on('error', (error) => options.onError?.(error))
  sender.on('connect', (client) => client.on('error', () => {}))
  let listener: pg.Client | null = null
  let closed = false
  // The test notifications not heard yet, by nonce.
  const probes = new Map<string, () => void>()

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: options.listenUrl ?? options.url })
    client.on('notification', (message) => {
      const [from, orgId, seq] = (message.payload ?? '').split(' ')
      if (from === instance && orgId === 'probe') probes.get(seq ?? '')?.()
      if (from === instance || !orgId || !seq) return
      local.publish({ orgId: orgId as HubNotice['orgId'], seq: Number(seq) })
    })
    client.on('error', (error) => {
      options.onError?.(error)
      reconnect(client)
    })
    client.on('end', () => reconnect(client))
    await client.connect()
    await client.query(`LISTEN "${channel}"`)
    listener = client
  }

  /** Sends a notification only this listener should hear, and waits for it. */
  async function probe(): Promise<void> {
    const nonce = randomUUID()
    let timer: NodeJS.Timeout | undefined
    const heard = await new Promise<boolean>((resolve) => {
      probes.set(nonce, () => resolve(true))
      timer = setTimeout(() => resolve(false), options.probeMs ?? 3000)
      sender
        .query('select pg_notify($1, $2)', [channel, `${instance} probe ${nonce}`])
        .catch((error: unknown) => {
          options.onError?.(error)
          resolve(false)
        })
    })
    clearTimeout(timer)
    probes.delete(nonce)
    if (!heard && !closed) options.onDeaf?.()
  }

  function reconnect(client: pg.Client): void {
    if (closed || listener !== client) return
    listener = null
    client.removeAllListeners()
    client.end().catch(() => {})
    retry()
  }

  function retry(): void {
    setTimeout(() => {
      if (closed) return
      listen()
        .then(() => probe())
        .catch((error: unknown) => {
          options.onError?.(error)
          retry()
        })
    }, options.reconnectMs ?? 1000).unref()
  }

  await listen()
  await probe()
  return {
    publish(notice) {
      local.publish(notice)
      sender
        .query('select pg_notify($1, $2)', [channel, `${instance} ${notice.orgId} ${notice.seq}`])
        .catch((error: unknown) => options.onError?.(error))
    },
    subscribe: local.subscribe,
    async close() {
      closed = true
      const client = listener
      listener = null
      await client?.end().catch(() => {})
      await sender.end()
      await local.close()
    },
  }
}
