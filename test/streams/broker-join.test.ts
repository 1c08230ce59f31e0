import type { OrgId } from '@workgraph/core'
import type { Storage, Store } from '@workgraph/core/storage'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../support/matrix.ts'
import { createTask, recordingSink, testBroker, useBrokerServer } from '../support/stream-broker.ts'
import { newWorkspace } from '../support/workspace.ts'

// A new stream runs a round (a walk over every stream of the workspace) only when it starts behind
// what the broker knows of the log. These tests write an event in the window between the stream's
// start read and its join, with a hub only the test publishes on and no fallback poll within the
// test's time: the event must arrive whether its notice is heard inside the window or after it.
describeEachDatabase('a stream joining while an event is written', (db) => {
  const server = useBrokerServer(db)

  /** A broker on the server's storage, with `inWindow` run once right after the next read of a log's bounds. */
  function setup() {
    let inWindow: (() => Promise<void>) | null = null
    const withWindow = (store: Store): Store => {
      const events = new Proxy(store.events, {
        get(target, key) {
          if (key !== 'bounds') return Reflect.get(target, key)
          return async (orgId: OrgId) => {
            const bounds = await target.bounds(orgId)
            const run = inWindow
            inWindow = null
            await run?.()
            return bounds
          }
        },
      })
      return new Proxy(store, {
        get: (target, key) => (key === 'events' ? events : Reflect.get(target, key)),
      })
    }
    const storage: Storage = {
      ...server().storage,
      read: (fn) => server().storage.read((store) => fn(withWindow(store))),
    }
    return { ...testBroker(storage), arm: (fn: () => Promise<void>) => (inWindow = fn) }
  }

  it('delivers an event whose notice is heard between the start read and the join, when the broker knew the head and the workspace had no stream', async () => {
    const ws = await newWorkspace(server())
    const { hub, broker, arm } = setup()
    try {
      // A first stream makes the broker learn the head in a round, then leaves.
      const first = recordingSink()
      const close = await broker.subscribe(ws.owner.principal, { orgId: ws.orgId, from: 'now' }, first.sink)
      await createTask(server(), ws, 'before', hub)
      expect(await first.until('before')).toEqual(['before'])
      close()

      arm(async () => {
        await createTask(server(), ws, 'in the window', hub)
      })
      const second = recordingSink()
      await broker.subscribe(ws.owner.principal, { orgId: ws.orgId, from: 'now' }, second.sink)
      expect(await second.until('in the window')).toEqual(['in the window'])
    } finally {
      broker.close()
    }
  })

  it('delivers an event committed in the window whose notice comes after the join', async () => {
    const ws = await newWorkspace(server())
    const { hub, broker, arm } = setup()
    try {
      let seq = 0
      arm(async () => {
        seq = await createTask(server(), ws, 'in the window')
      })
      const stream = recordingSink()
      await broker.subscribe(ws.owner.principal, { orgId: ws.orgId, from: 'now' }, stream.sink)
      expect(seq).toBeGreaterThan(0)
      hub.publish({ orgId: ws.orgId, seq })
      expect(await stream.until('in the window')).toEqual(['in the window'])
    } finally {
      broker.close()
    }
  })
})
