import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createEngine, type Engine, type EngineConfig, type Mailer } from '@workgraph/core'
import { type KyselyStorage, openStorage } from '@workgraph/kysely'
import { toNodeHandler } from 'h3'
import { type AppOptions, createApp } from './app.ts'

export interface ServerOptions extends AppOptions {
  /** A SQLite file path or a `postgres://` URL. */
  databaseUrl: string
  /** Postgres only: work inside this schema (tests give each run its own). */
  databaseSchema?: string
  port?: number
  host?: string
  /** The public origin; defaults to `http://{host}:{port}`. */
  baseUrl?: string
  config?: Partial<Omit<EngineConfig, 'baseUrl'>>
  /** Where invitation mail goes; the default prints it. */
  mailer?: Mailer
  /** The engine's clock (tests move it to make cycles end). */
  clock?: () => Date
}

export interface RunningServer {
  url: string
  engine: Engine
  storage: KyselyStorage
  server: Server
  close(): Promise<void>
}

/** Opens storage (migrating it), builds the engine and listens on node:http. Port 0 picks a free port. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const storage = await openStorage({
    url: options.databaseUrl,
    ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
  })
  const server = createServer()
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://${host}:${port}`
  const engine = await createEngine({
    storage,
    config: { ...options.config, baseUrl: options.baseUrl ?? url },
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  })
  server.on('request', toNodeHandler(createApp(engine, options)))
  return {
    url,
    engine,
    storage,
    server,
    async close() {
      // Long-lived responses (MCP and other event streams) would hold close() open: end them too.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await engine.hub.close()
      await storage.close()
    },
  }
}
