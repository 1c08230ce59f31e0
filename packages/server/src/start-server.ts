import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, type Engine, type EngineSettings, type EventHub, type Mailer } from '@workgraph/core'
import { type AppOptions, createApp } from '@workgraph/h3'
import { createPostgresEventHub, isPostgresUrl, type KyselyStorage, openStorage } from '@workgraph/kysely'
import { createRedisRateLimitStore } from '@workgraph/redis'
import { toNodeHandler } from 'h3'
import { answerClientErrors } from './client-errors.ts'
import { createNodeDnsResolver } from './dns-resolver.ts'
import { blobDirectoryBeside, createFileBlobStore } from './file-blob-store.ts'

export interface ServerOptions extends AppOptions {
  /** A SQLite file path or a `postgres://` URL. */
  databaseUrl: string
  /** Postgres only: work inside this schema (tests give each run its own). */
  databaseSchema?: string
  /** Postgres: a direct connection for the event hub's `LISTEN` when `databaseUrl` is a pooler. */
  databaseDirectUrl?: string
  /**
   * `redis://…`: rate-limit counters shared by every instance using it, so limits hold behind a
   * load balancer. Without it each instance counts on its own, in memory.
   */
  redisUrl?: string
  /** Prefix of this deployment's keys in Redis (default `workgraph:rate:`). */
  redisPrefix?: string
  port?: number
  host?: string
  /** The public origin; defaults to `http://{host}:{port}`. */
  baseUrl?: string
  config?: Omit<EngineSettings, 'baseUrl'>
  /** Where invitation mail goes; the default prints it. */
  mailer?: Mailer
  /** The engine's clock (tests move it to expire tokens and end cycles). */
  clock?: () => Date
  /**
   * Where attachment bytes are kept: by default a `blobs` directory beside the SQLite file, and for
   * Postgres a new temporary directory (give one that outlives the process, and that every
   * instance shares, in production).
   */
  blobDirectory?: string
}

export interface RunningServer {
  url: string
  engine: Engine
  storage: KyselyStorage
  server: Server
  /**
   * Answers a request in this process, as the listening socket would, without a connection: for an
   * embedding host's own routing, and tests. Streams (SSE) and body limits are the socket's business.
   */
  fetch(request: Request): Promise<Response>
  close(): Promise<void>
}

/** Opens storage (migrating it), builds the engine and listens on node:http. Port 0 picks a free port. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const storage = await openStorage({
    url: options.databaseUrl,
    ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
  })
  // Several instances on one Postgres database wake each other's stream readers over LISTEN/NOTIFY.
  const hub: EventHub | undefined = isPostgresUrl(options.databaseUrl)
    ? await createPostgresEventHub({
        url: options.databaseUrl,
        ...(options.databaseDirectUrl ? { listenUrl: options.databaseDirectUrl } : {}),
        ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
        onError: (error) => console.error('event hub', error),
      })
    : undefined
  const rateLimitStore = options.redisUrl
    ? createRedisRateLimitStore({
        url: options.redisUrl,
        ...(options.redisPrefix ? { prefix: options.redisPrefix } : {}),
      })
    : undefined
  const blobDirectory =
    options.blobDirectory ??
    (isPostgresUrl(options.databaseUrl)
      ? await mkdtemp(join(tmpdir(), 'workgraph-blobs-'))
      : blobDirectoryBeside(options.databaseUrl))
  const server = createServer()
  answerClientErrors(server)
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://${host}:${port}`
  const engine = await createEngine({
    storage,
    config: {
      ...options.config,
      dns: options.config?.dns ?? createNodeDnsResolver(),
      blobs: options.config?.blobs ?? createFileBlobStore(blobDirectory),
      baseUrl: options.baseUrl ?? url,
    },
    ...(hub ? { hub } : {}),
    ...(rateLimitStore ? { rateLimitStore } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
  })
  const app = createApp(engine, options)
  server.on('request', toNodeHandler(app))
  return {
    url,
    engine,
    storage,
    server,
    fetch: async (request) => app.fetch(request),
    async close() {
      // Ends open streams first (with a final frame), then the long-lived responses (MCP) that would hold close() open.
      await engine.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await engine.hub.close()
      await rateLimitStore?.close()
      await storage.close()
    },
  }
}
