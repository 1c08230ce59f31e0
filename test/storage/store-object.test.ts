import { openStorage } from '@workgraph/kysely'
import { expect, it } from 'vitest'
import type { TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'

// The store a transaction hands out builds a group's repositories on first use; to whoever wraps or
// decorates it (tests, embedders) it must still be a plain object of repositories.
describeEachDatabase('the store of a transaction', (db: TestDatabase) => {
  it('spreads to every repository and keeps one assigned to it', async () => {
    const target = await db.fresh()
    const storage = await openStorage({
      url: target.url,
      ...(target.schema ? { schema: target.schema } : {}),
    })
    try {
      await storage.transaction(async (store) => {
        const copy = { ...store }
        expect(Object.keys(copy).sort()).toEqual(Object.keys(store).sort())
        expect(Object.keys(copy)).toEqual(expect.arrayContaining(['tasks', 'events', 'notifications']))
        expect(typeof copy.tasks.get).toBe('function')
        const standIn = { ...store.events }
        store.events = standIn
        expect(store.events).toBe(standIn)
        expect({ ...store }.events).toBe(standIn)
      })
      // Each transaction starts from the real repositories again.
      await storage.transaction(async (store) => {
        expect(typeof store.events.append).toBe('function')
        expect(Object.hasOwn(store, 'events')).toBe(true)
      })
    } finally {
      await storage.close()
      await target.drop()
    }
  })
})
