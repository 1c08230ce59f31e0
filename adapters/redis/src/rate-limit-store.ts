import { createMemoryRateLimitStore, type RateLimitStore } from '@workgraph/core'
import { Redis } from 'ioredis'

export interface RedisRateLimitStoreOptions {
  /** `redis://…` (or `rediss://…`); or pass `client`. */
  url?: string
  /** An existing connection; the store never closes a client it did not open. */
  client?: Redis
  /** Prefix of every key, so several deployments can share one Redis. */
  prefix?: string
  /** Told when Redis fails and the instance counts on its own until it is back. */
  onError?: (error: unknown) => void
}

export interface RedisRateLimitStore extends RateLimitStore {
  close(): Promise<void>
}

/**
 * Fixed-window counters in Redis, shared by every instance that points at it, so a limit holds
 * however a load balancer spreads the requests. One round trip per hit: INCR and PEXPIREAT in one
 * MULTI, keyed by the window's start, so a window's key expires on its own.
 *
 * If Redis cannot be reached, the hit is counted in this instance's memory instead: limits hold
 * per instance for that time rather than every request failing or none being limited.
 */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RedisRateLimitStore {
  if (!options.client && !options.url) throw new Error('createRedisRateLimitStore needs a url or a client')
  // No offline queue: while disconnected a hit fails at once (and falls back) instead of waiting.
  const client =
    options.client ??
    new Redis(options.url!, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 })
  const owned = !options.client
  // Hits wait for the first connection (a few seconds at most), not for later reconnections.
  const firstConnection = new Promise<void>((resolve) => {
    if (client.status === 'ready') return resolve()
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(done, 3_000)
    timer.unref()
    client.once('ready', done)
    client.once('error', done)
  })
  const prefix = options.prefix ?? 'workgraph:rate:'
  const fallback = createMemoryRateLimitStore()
  const onError = options.onError ?? ((error) => console.error('rate-limit store (Redis)', error))
  // A connection that keeps failing is reported once per outage, not once per request.
  let failing = false
  if (owned) client.on('error', (error) => reportOnce(error))
  client.on('ready', () => {
    failing = false
  })
  function reportOnce(error: unknown) {
    if (failing) return
    failing = true
    onError(error)
  }

  return {
    async hit(key, windowMs, now) {
      const start = Math.floor(now / windowMs) * windowMs
      const resetAt = start + windowMs
      const redisKey = `${prefix}${key}:${start}`
      try {
        if (client.status !== 'ready') await firstConnection
        const results = await client
          .multi()
          .incr(redisKey)
          .pexpireat(redisKey, resetAt + 1_000)
          .exec()
        const [incr] = results ?? []
        if (!incr || incr[0]) throw incr?.[0] ?? new Error('the transaction was discarded')
        return { count: Number(incr[1]), resetAt }
      } catch (error) {
        reportOnce(error)
        return fallback.hit(key, windowMs, now)
      }
    },
    async close() {
      if (owned) await client.quit().catch(() => client.disconnect())
    },
  }
}
