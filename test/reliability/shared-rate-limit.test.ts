import { randomBytes } from 'node:crypto'
import { createRedisRateLimitStore } from '@workgraph/redis'
import { type RunningServer, startServer } from '@workgraph/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseTarget } from '../support/databases.ts'
import { newPerson } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const LIMIT = 12

describeEachDatabase('two instances behind one address, rate limits in Redis', (db) => {
  let fresh: DatabaseTarget
  // Each run its own keys, so runs and databases never count each other's requests.
  const redisPrefix = `workgraph-test:${randomBytes(6).toString('hex')}:`
  const instances: RunningServer[] = []

  beforeAll(async () => {
    fresh = await db.fresh()
    for (let i = 0; i < 2; i++)
      instances.push(
        await startServer({
          databaseUrl: fresh.url,
          ...(fresh.schema ? { databaseSchema: fresh.schema } : {}),
          // Both answer for one public origin, as behind a load balancer.
          baseUrl: 'http://workgraph.test',
          redisUrl: REDIS_URL,
          redisPrefix,
          config: { rateLimit: { limit: LIMIT, windowSeconds: 60 } },
        }),
      )
  })
  afterAll(async () => {
    for (const instance of instances) await instance.close()
    await fresh.drop()
  })

  it('holds one limit when requests alternate between the instances', async () => {
    const person = await newPerson(instances[0]!.engine)
    const statuses: number[] = []
    const remaining: string[] = []
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await fetch(`${instances[i % 2]!.url}/v1/orgs`, {
        headers: { authorization: `Bearer ${person.token}` },
      })
      statuses.push(res.status)
      remaining.push(res.headers.get('ratelimit') ?? '')
      await res.body?.cancel()
    }
    // Alone, each instance would have allowed LIMIT; together they allow LIMIT in all.
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true)
    expect(statuses.slice(LIMIT)).toEqual([429, 429])
  })
})

describe('the Redis rate-limit store', () => {
  it('counts in memory while Redis cannot be reached, and says so once', async () => {
    const errors: unknown[] = []
    // Nothing listens on port 1: every command fails at once (no offline queue).
    const store = createRedisRateLimitStore({
      url: 'redis://127.0.0.1:1',
      onError: (error) => errors.push(error),
    })
    const now = Date.now()
    const first = await store.hit('k', 60_000, now)
    const second = await store.hit('k', 60_000, now)
    expect([first.count, second.count]).toEqual([1, 2])
    expect(errors).toHaveLength(1)
    await store.close()
  })

  it('shares counts between two connections and starts a new window on its own', async () => {
    const prefix = `workgraph-test:${randomBytes(6).toString('hex')}:`
    const a = createRedisRateLimitStore({ url: REDIS_URL, prefix })
    const b = createRedisRateLimitStore({ url: REDIS_URL, prefix })
    // The start of the current window: keys expire at their window's end, so times must be real.
    const now = Math.floor(Date.now() / 60_000) * 60_000
    expect((await a.hit('k', 60_000, now)).count).toBe(1)
    expect((await b.hit('k', 60_000, now + 1)).count).toBe(2)
    const next = await a.hit('k', 60_000, now + 60_000)
    expect(next).toEqual({ count: 1, resetAt: now + 120_000 })
    await a.close()
    await b.close()
  })
})
