import { CursorCodec, createMemoryEventHub, type EventHub } from '@workgraph/core'
import type { Storage } from '@workgraph/core/storage'
import { afterAll, beforeAll } from 'vitest'
import { createStreamBroker, type StreamItem } from '../../packages/core/src/streams/broker.ts'
import type { TestDatabase } from './databases.ts'
import { startTestServer, type TestServer } from './http.ts'
import type { TestWorkspace } from './workspace.ts'

/**
 * A test server for the suite (started before its tests, dropped after), for tests that drive a
 * stream broker of their own over the server's storage: `server()` is valid inside the tests.
 */
export function useBrokerServer(db: TestDatabase): () => TestServer {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server?.drop())
  return () => {
    if (!server) throw new Error('the test server is not started')
    return server
  }
}

/**
 * A broker on `storage` with a hub only the test publishes on, and neither pings nor a fallback
 * poll within a test's time: an event arrives only through the notices the test publishes.
 */
export function testBroker(storage: Storage) {
  const hub = createMemoryEventHub()
  const cursors = new CursorCodec(Buffer.alloc(32, 7))
  const broker = createStreamBroker({
    storage,
    hub,
    cursors,
    config: { retentionDays: 30, pingSeconds: 3600, maxBufferedBytes: 1 << 20, pollFallbackMs: 3_600_000 },
    clock: () => new Date(),
  })
  return { hub, broker, cursors }
}

/** A sink that keeps what it is handed; `titles` are the created tasks' titles in order. */
export function recordingSink() {
  const items: StreamItem[] = []
  const titles = () =>
    items.flatMap((i) =>
      i.type === 'event' && i.event.kind === 'task.created' ? [(i.event.data as any).task.title] : [],
    )
  return {
    items,
    titles,
    sink: {
      write: (more: readonly StreamItem[]) => void items.push(...more),
      queued: () => 0,
      close: () => {},
    },
    /** Waits (up to 5 s) for the task titled `title`, then answers every title so far. */
    async until(title: string) {
      for (let i = 0; i < 500 && !titles().includes(title); i++) await new Promise((r) => setTimeout(r, 10))
      return titles()
    },
  }
}

/** Creates a task (its event committed), publishes its notice on `hub` if given, and answers the log's head. */
export async function createTask(
  server: TestServer,
  ws: TestWorkspace,
  title: string,
  hub?: EventHub,
): Promise<number> {
  await server.engine.execute(
    'tasks.create',
    { params: { orgId: ws.orgId }, body: { teamId: ws.teamId, title } },
    ws.owner.principal,
  )
  const { last } = await server.storage.read((s) => s.events.bounds(ws.orgId))
  hub?.publish({ orgId: ws.orgId, seq: last })
  return last
}
