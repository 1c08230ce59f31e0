import { CursorCodec, createMemoryEventHub, type OrgId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createStreamBroker, type StreamItem } from '../../packages/core/src/streams/broker.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

// A server runs for months and hears a notice for every write in every workspace: the broker must
// keep nothing for a workspace once no stream of it is open or being opened, or its memory grows
// with every workspace that ever wrote.
describeEachDatabase('a long-lived stream broker', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  function setup() {
    const hub = createMemoryEventHub()
    const broker = createStreamBroker({
      storage: server.storage,
      hub,
      cursors: new CursorCodec(Buffer.alloc(32, 7)),
      config: { retentionDays: 30, pingSeconds: 3600, maxBufferedBytes: 1 << 20, pollFallbackMs: 3_600_000 },
      clock: () => new Date(),
    })
    return { hub, broker }
  }

  /** Creates a task and publishes its notice on `hub`, as the engine does after the commit. */
  async function write(ws: TestWorkspace, hub: ReturnType<typeof createMemoryEventHub>, title: string) {
    await server.engine.execute(
      'tasks.create',
      { params: { orgId: ws.orgId }, body: { teamId: ws.teamId, title } },
      ws.owner.principal,
    )
    const { last } = await server.storage.read((s) => s.events.bounds(ws.orgId))
    hub.publish({ orgId: ws.orgId, seq: last })
  }

  function sink() {
    const items: StreamItem[] = []
    const titles = () =>
      items.flatMap((i) =>
        i.type === 'event' && i.event.kind === 'task.created' ? [(i.event.data as any).task.title] : [],
      )
    return {
      sink: { write: (more: StreamItem[]) => void items.push(...more), queued: () => 0, close: () => {} },
      async until(title: string) {
        for (let i = 0; i < 500 && !titles().includes(title); i++) await new Promise((r) => setTimeout(r, 10))
        return titles()
      },
    }
  }

  it('keeps nothing for workspaces whose notices it heard without a stream', async () => {
    const { hub, broker } = setup()
    try {
      for (let i = 0; i < 20; i++) hub.publish({ orgId: `org_${i}` as OrgId, seq: i + 1 })
      expect(broker.workspaces).toBe(0)
    } finally {
      broker.close()
    }
  })

  it('forgets a workspace once its last stream has closed, and still delivers to the next one', async () => {
    const { hub, broker } = setup()
    const spaces = [await newWorkspace(server), await newWorkspace(server)]
    try {
      for (const [i, ws] of spaces.entries()) {
        const stream = sink()
        const close = await broker.subscribe(
          ws.owner.principal,
          { orgId: ws.orgId, from: 'now' },
          stream.sink,
        )
        await write(ws, hub, `first ${i}`)
        expect(await stream.until(`first ${i}`)).toEqual([`first ${i}`])
        expect(broker.workspaces).toBe(1)
        close()
        await write(ws, hub, `unheard ${i}`)
        expect(broker.workspaces).toBe(0)
      }

      // A workspace forgotten is read afresh by its next stream: nothing written meanwhile is skipped.
      const [ws] = spaces
      const again = sink()
      await broker.subscribe(ws!.owner.principal, { orgId: ws!.orgId, from: 'now' }, again.sink)
      await write(ws!, hub, 'after')
      expect(await again.until('after')).toEqual(['after'])
    } finally {
      broker.close()
    }
  })

  it('keeps nothing for a workspace whose stream was refused', async () => {
    const { broker } = setup()
    const [mine, theirs] = [await newWorkspace(server), await newWorkspace(server)]
    try {
      await expect(
        broker.subscribe(mine.owner.principal, { orgId: theirs.orgId }, sink().sink),
      ).rejects.toMatchObject({ code: 'not_found' })
      await expect(
        broker.subscribe(mine.owner.principal, { orgId: mine.orgId, cursor: 'not a cursor' }, sink().sink),
      ).rejects.toThrow()
      expect(broker.workspaces).toBe(0)
    } finally {
      broker.close()
    }
  })
})
