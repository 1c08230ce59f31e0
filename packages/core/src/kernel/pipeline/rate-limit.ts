/** Counters behind the rate limiter. The default keeps them in memory (limits per instance). */
export interface RateLimitStore {
  /** Counts one hit for `key` in the fixed window containing `now`; returns the count so far. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>
}

export function createMemoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>()
  let lastSweep = 0
  return {
    async hit(key, windowMs, now) {
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k)
        lastSweep = now
      }
      let window = windows.get(key)
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: Math.floor(now / windowMs) * windowMs + windowMs }
        windows.set(key, window)
      }
      window.count++
      return { ...window }
    },
  }
}

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
  windowSeconds: number
}

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>
}

export function createRateLimiter(options: {
  limit: number
  windowSeconds: number
  store?: RateLimitStore
  now?: () => number
}): RateLimiter {
  const store = options.store ?? createMemoryRateLimitStore()
  const now = options.now ?? Date.now
  const windowMs = options.windowSeconds * 1000
  return {
    async consume(key) {
      const at = now()
      const { count, resetAt } = await store.hit(key, windowMs, at)
      return {
        allowed: count <= options.limit,
        limit: options.limit,
        remaining: Math.max(0, options.limit - count),
        resetSeconds: Math.max(1, Math.ceil((resetAt - at) / 1000)),
        windowSeconds: options.windowSeconds,
      }
    },
  }
}
