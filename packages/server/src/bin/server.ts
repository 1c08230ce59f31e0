#!/usr/bin/env node
import type { Server } from 'node:http'
import { createEngine } from '@workgraph/core'
import { createApp, createCimdFetcher } from '@workgraph/h3'
import { createPostgresEventHub, isPostgresUrl, openStorage } from '@workgraph/kysely'
import { createRedisRateLimitStore } from '@workgraph/redis'
import { toNodeHandler } from 'h3'
import { listen } from 'listhen'
import { answerClientErrors } from '../client-errors.ts'
import { loadConnectors } from '../connectors-config.ts'
import { gracefulClose } from '../graceful-close.ts'

// The reference server: PORT, HOST, DATABASE_URL (a SQLite path or a postgres:// URL), BASE_URL;
// live updates: EVENT_RETENTION_DAYS, STREAM_PING_SECONDS (see docs/events.md); FIRST_PARTY_CLIENTS:
// comma-separated OAuth client ids of the service's own apps (docs/oauth.md); DATABASE_SCHEMA: a
// Postgres schema to work in; SHUTDOWN_TIMEOUT_SECONDS: how long SIGTERM waits for requests in
// flight before cutting them (default 10; docs/reliability.md); REDIS_URL: rate limits shared by
// every instance (docs/reliability.md), else counted per instance in memory; CONNECTORS_FILE and
// CONNECTORS_KEY: providers other tools are connected through (docs/connectors.md).
const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? 'localhost'
const databaseUrl = process.env.DATABASE_URL ?? './.workgraph/workgraph.db'
const schema = process.env.DATABASE_SCHEMA ? { schema: process.env.DATABASE_SCHEMA } : {}
const baseUrl = process.env.BASE_URL ?? `http://${host}:${port}`

const numberFrom = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined)
const streams = {
  ...(numberFrom('EVENT_RETENTION_DAYS') ? { retentionDays: numberFrom('EVENT_RETENTION_DAYS') } : {}),
  ...(numberFrom('STREAM_PING_SECONDS') ? { pingSeconds: numberFrom('STREAM_PING_SECONDS') } : {}),
}

const firstPartyClients = (process.env.FIRST_PARTY_CLIENTS ?? '')
  .split(',')
  .map((id) => id.trim())
  .filter(Boolean)

const connectors = loadConnectors(process.env.CONNECTORS_FILE, process.env.CONNECTORS_KEY)
const shutdownTimeoutMs = (numberFrom('SHUTDOWN_TIMEOUT_SECONDS') ?? 10) * 1000

const storage = await openStorage({ url: databaseUrl, ...schema })
// On Postgres, instances sharing the database wake each other's stream readers (LISTEN/NOTIFY).
const hub = isPostgresUrl(databaseUrl)
  ? await createPostgresEventHub({
      url: databaseUrl,
      ...schema,
      onError: (error) => console.error('event hub', error),
    })
  : undefined
const rateLimitStore = process.env.REDIS_URL
  ? createRedisRateLimitStore({ url: process.env.REDIS_URL })
  : undefined
const engine = await createEngine({
  storage,
  config: { baseUrl, streams, firstPartyClients, ...(connectors ? { connectors } : {}) },
  ...(hub ? { hub } : {}),
  ...(rateLimitStore ? { rateLimitStore } : {}),
})
const app = createApp(engine, {
  onError: (error, request) => console.error(`${request.method} ${request.url}`, error),
  // Client ID Metadata Documents are fetched from public addresses only.
  oauth: { cimdFetcher: createCimdFetcher() },
})
const listener = await listen(toNodeHandler(app), {
  port,
  hostname: host,
  showURL: false,
  qr: false,
  open: false,
  public: host !== 'localhost' && host !== '127.0.0.1',
  // listhen would exit at once on SIGTERM; the shutdown below drains first.
  autoClose: false,
})
answerClientErrors(listener.server as Server)
const server = gracefulClose(listener.server as Server)
const origin = listener.url.replace(/\/$/, '')

console.log(
  `workgraph ${engine.config.version} on ${storage.dialect === 'postgres' ? 'Postgres' : `SQLite (${databaseUrl})`}`,
)
console.log(`  API      ${origin}/v1`)
console.log(`  Docs     ${origin}/v1/docs`)
console.log(`  OpenAPI  ${origin}/v1/openapi.json`)
console.log(`  Sign in  ${origin}/sign-in`)

// Expired idempotency records go hourly; the timer never keeps the process alive on its own.
const pruning = setInterval(
  () => engine.prune().catch((error) => console.error('prune failed', error)),
  3_600_000,
)
pruning.unref()

// Cycles end and start by the clock: complete ended ones (rolling tasks over) and keep each
// cadence's upcoming cycles, every minute and once at start.
const advance = () =>
  engine
    .advanceCycles({ onError: (error) => console.error('cycle maintenance failed', error) })
    .catch((error) => console.error('cycle maintenance failed', error))
void advance()
const cycles = setInterval(advance, 60_000)
cycles.unref()

// Notifications follow the event logs after commit (hub wake-ups, a poll as fallback) and reminders
// of due dates go out hourly, each once per task and day.
const notifier = engine.startNotifier({ onError: (error) => console.error('notifier failed', error) })

// SIGTERM (or SIGINT) drains: no new connections, live streams end with a `shutdown` frame,
// requests in flight finish; whatever is left after SHUTDOWN_TIMEOUT_SECONDS is cut (exit code 1).
// A second signal exits at once.
let stopping = false
const shutdown = async (signal: NodeJS.Signals) => {
  if (stopping) process.exit(1)
  stopping = true
  // Closing storage and the hub cannot hold the process past the deadline either.
  setTimeout(() => process.exit(1), shutdownTimeoutMs + 5_000).unref()
  console.log(`${signal}: draining, at most ${shutdownTimeoutMs / 1000} s`)
  clearInterval(pruning)
  clearInterval(cycles)
  await notifier.stop()
  const closing = server.close(shutdownTimeoutMs)
  await engine.close()
  const { drained } = await closing
  await engine.hub.close()
  await rateLimitStore?.close()
  await storage.close()
  console.log(drained ? 'stopped' : 'stopped after cutting connections still open at the deadline')
  process.exit(drained ? 0 : 1)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
