import { createUser } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEngine, type TestEngine } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

/** The protocol-session repository (MCP sessions shared by instances) and its pruning. */
describeEachDatabase('protocol sessions', (db) => {
  let t: TestEngine
  beforeAll(async () => {
    t = await createTestEngine(db)
  })
  afterAll(() => t.close())

  it('stores, updates, touches, deletes and prunes sessions', async () => {
    const user = await createUser(t.engine.storage, { email: `ps.${Date.now()}@example.com`, name: 'P' })
    const now = new Date().toISOString()
    const old = new Date(Date.now() - 25 * 3_600_000).toISOString()
    const state = { initialize: { method: 'initialize' }, subscriptions: [] }
    await t.storage.transaction(async (s) => {
      await s.protocolSessions.insert({
        id: 'ps-new',
        userId: user.id,
        protocol: 'mcp',
        state,
        createdAt: now,
        seenAt: now,
      })
      await s.protocolSessions.insert({
        id: 'ps-old',
        userId: user.id,
        protocol: 'mcp',
        state,
        createdAt: old,
        seenAt: old,
      })
    })
    const read = (id: string) => t.storage.read((s) => s.protocolSessions.get(id))
    expect(await read('ps-new')).toEqual({
      id: 'ps-new',
      userId: user.id,
      protocol: 'mcp',
      state,
      createdAt: now,
      seenAt: now,
    })
    expect(await read('ps-none')).toBeNull()

    const next = {
      ...state,
      subscriptions: [{ uri: 'workgraph://x', orgId: 'o', recordId: 'r', fromSeq: 3 }],
    }
    expect(await t.storage.transaction((s) => s.protocolSessions.update('ps-new', next))).toBe(true)
    expect(await t.storage.transaction((s) => s.protocolSessions.update('ps-none', next))).toBe(false)
    const later = new Date(Date.now() + 1000).toISOString()
    await t.storage.transaction((s) => s.protocolSessions.touch('ps-new', later))
    expect(await read('ps-new')).toMatchObject({ state: next, seenAt: later })

    const pruned = await t.engine.prune()
    expect(pruned.sessions).toBe(1)
    expect(await read('ps-old')).toBeNull()
    expect(await t.storage.transaction((s) => s.protocolSessions.delete('ps-new'))).toBe(true)
    expect(await read('ps-new')).toBeNull()
  })
})
