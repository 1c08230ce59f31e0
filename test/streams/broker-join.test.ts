import { CursorCodec, createMemoryEventHub, type OrgId } from '@workgraph/core'
import type { Storage, Store } from '@workgraph/core/storage'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createStreamBroker, type StreamItem } from '../../packages/core/src/streams/broker.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

// A new stream runs a round (a walk over every stream of the workspace) only when it starts behind
// what the broker knows of the log. These tests write an event in the window between the stream's
// start read and its join, with a hub only the test publishes on and no fallback poll within the
// test's time: the event must arrive whether its notice is heard inside the window or after it.
describeEachDatabase('a stream joining while an event is written', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  /** The server's storage, with `inWindow` run once right after the next read of a log's bounds. */
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
      ...server.storage,
      read: (fn) => server.storage.read((store) => fn(withWindow(store))),
    }
    const hub = createMemoryEventHub()
    const broker = createStreamBroker({
      storage,
      hub,
      cursors: new CursorCodec(Buffer.alloc(32, 7)),
      config: { retentionDays: 30, pingSeconds: 3600, maxBufferedBytes: 1 << 20, pollFallbackMs: 3_600_000 },
      clock: () => new Date(),
    })
    return { hub, broker, arm: (fn: () => Promise<void>) => (inWindow = fn) }
  }

  function sink() {
    const items: StreamItem[] = []
    const titles = () =>
      items.flatMap((i) =>
        i.type === 'event' && i.event.kind === 'task.created' ? [(i.event.data as any).task.title] : [],
      )
    return {
      titles,
      sink: { write: (more: StreamItem[]) => void items.push(...more), queued: () => 0, close: () => {} },
      async until(title: string) {
        for (let i = 0; i < 500 && !titles().includes(title); i++) await new Promise((r) => setTimeout(r, 10))
        return titles()
      },
    }
  }

  /** Creates a task (its event committed) and answers the log's head afterwards. */
  async function write(ws: TestWorkspace, title: string): Promise<number> {
    await server.engine.execute(
      'tasks.create',
      { params: { orgId: ws.orgId }, body: { teamId: ws.teamId, title } },
      ws.owner.principal,
    )
    return (await server.storage.read((s) => s.events.bounds(ws.orgId))).last
  }

  it('delivers an event whose notice is heard between the start read and the join, when the broker knew the head and the workspace had no stream', async () => {
    const ws = await newWorkspace(server)
    const { hub, broker, arm } = setup()
    try {
      // A first stream makes the broker learn the head in a round, then leaves.
      const first = sink()
      const close = await broker.subscribe(ws.owner.principal, { orgId: ws.orgId, from: 'now' }, first.sink)
      hub.publish({ orgId: ws.orgId, seq: await write(ws, 'before') })
      expect(await first.until('before')).toEqual(['before'])
      close()

      arm(async () => {
        hub.publish({ orgId: ws.orgId, seq: await write(ws, 'in the window') })
      })
      const second = sink()
      await broker.subscribe(ws.owner.principal, { orgId: ws.orgId, from: 'now' }, second.sink)
      expect(await second.until('in the window')).toEqual(['in the window'])
    } finally {
      broker.close()
    }
  })

  it('delivers an event committed in the window whose notice comes after the join', async () => {
    const ws = await newWorkspace(server)
    const { hub, broker, arm } = setup()
    try {
      let seq = 0
      arm(async () => {
        seq = await write(ws, 'in the window')
      })
      const stream = sink()
      await broker.subscribe(ws.owner.principal, { orgId: ws.orgId, from: 'now' }, stream.sink)
      expect(seq).toBeGreaterThan(0)
      hub.publish({ orgId: ws.orgId, seq })
      expect(await stream.until('in the window')).toEqual(['in the window'])
    } finally {
      broker.close()
    }
  })
})
