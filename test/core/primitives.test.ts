import { CursorCodec, createRateLimiter, etagMatches, etagOf, IdSchema, isId, newId } from '@workgraph/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

describe('ids', () => {
  it('mints prefix_ULID ids that sort by creation and carry their brand', () => {
    const a = newId('TaskId')
    const b = newId('TaskId')
    expect(a).toMatch(/^task_[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(a < b).toBe(true)
    expect(isId('TaskId', a)).toBe(true)
    expect(isId('TeamId', a)).toBe(false)
    expect(IdSchema('TeamId')['x-id-brand']).toBe('TeamId')
  })
})

describe('cursors', () => {
  const codec = new CursorCodec(Buffer.alloc(32, 7))
  it('round-trip any position and refuse every single-character change', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        fc.string({ minLength: 1 }),
        fc.nat(),
        (value, id, at) => {
          const cursor = codec.encode('scope', { value, id })
          expect(codec.decode('scope', cursor)).toEqual({ value, id })
          const i = at % cursor.length
          const altered = cursor.slice(0, i) + (cursor[i] === 'x' ? 'y' : 'x') + cursor.slice(i + 1)
          expect(() => codec.decode('scope', altered)).toThrow()
        },
      ),
    )
  })
  it('belong to the list that issued them', () => {
    const cursor = codec.encode('tasks:team=a', { value: 1, id: 'x' })
    expect(() => codec.decode('tasks:team=b', cursor)).toThrow(/another list/)
    expect(() => new CursorCodec(Buffer.alloc(32, 8)).decode('tasks:team=a', cursor)).toThrow()
  })
})

describe('etags', () => {
  it('are equal for equal representations whatever the key order, and differ otherwise', () => {
    expect(etagOf({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(etagOf({ b: [1, { d: 3, c: 2 }], a: 1 }))
    expect(etagOf({ a: 1 })).not.toBe(etagOf({ a: 2 }))
  })
  it('match lists and the wildcard', () => {
    const tag = etagOf({ a: 1 })
    expect(etagMatches(`"other", ${tag}`, tag)).toBe(true)
    expect(etagMatches('*', tag)).toBe(true)
    expect(etagMatches(`W/${tag}`, tag)).toBe(false)
  })
})

describe('rate limiter', () => {
  it('allows `limit` hits per window per key, then reports the reset', async () => {
    let now = 1_000_000
    const limiter = createRateLimiter({ limit: 2, windowSeconds: 10, now: () => now })
    expect((await limiter.consume('a')).allowed).toBe(true)
    expect((await limiter.consume('a')).remaining).toBe(0)
    const third = await limiter.consume('a')
    expect(third).toMatchObject({ allowed: false, remaining: 0 })
    expect(third.resetSeconds).toBeGreaterThan(0)
    expect((await limiter.consume('b')).allowed).toBe(true)
    now += 10_000
    expect((await limiter.consume('a')).allowed).toBe(true)
  })
})
