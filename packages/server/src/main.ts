// The reference server's program (bin/server.ts runs it; `pnpm start` loads it from a bundle with
// V8's code cache, scripts/start.cjs). Every setting it reads is in settings.ts and
// docs/configuration.md; a `.env` file in the working directory is read first.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createEngine } from '@workgraph/core'
import { createApp, createCimdFetcher, requestIdOf } from '@workgraph/h3'
import {
  claimInstanceFile,
  createPostgresEventHub,
  explainDatabaseError,
  FileInUseError,
  instanceFileOf,
  isPostgresUrl,
  openStorage,
  parseDatabaseUrl,
} from '@workgraph/kysely'
import { toNodeHandler } from 'h3'
import { answerClientErrors } from './client-errors.ts'
import { loadConnectors } from './connectors-config.ts'
import { createFileBlobStore } from './file-blob-store.ts'
import { gracefulClose } from './graceful-close.ts'
import { bindServer, PortInUseError } from './listen.ts'
import { createLogger } from './logger.ts'
import { createMailboxFileMailer, mailboxFileOf } from './mailbox-file.ts'
import { DEFAULT_DATABASE_URL, readSettings, SettingsError } from './settings.ts'

/** Starts the server from the environment's settings; resolves once it listens and its loops run. */
export async function main(): Promise<void> {
  let settings: ReturnType<typeof readSettings>
  let bound: Awaited<ReturnType<typeof bindServer>>
  try {
    settings = readSettings()
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error
    console.error(error.message)
    // 2: the invocation is wrong, as for a bad command-line argument.
    process.exit(2)
  }
  try {
    bound = await bindServer(settings.port, settings.host)
  } catch (error) {
    if (!(error instanceof PortInUseError)) throw error
    console.error(error.message)
    process.exit(1)
  }
  const log = createLogger({ format: settings.logFormat, level: settings.logLevel })
  // The issuer and every advertised URL name the address really held (PORT=0 included).
  const baseUrl = settings.baseUrl ?? `http://${settings.host}:${bound.port}`
  const schema = settings.databaseSchema ? { schema: settings.databaseSchema } : {}
  const connectors = loadConnectors(settings.connectorsFile, settings.connectorsKey)
  const shutdownTimeoutMs = settings.shutdownTimeoutSeconds * 1000

  /**
   * Ends a start that failed for a reason the operator can fix with one line that says what to do;
   * anything else with its message, and its stack only at LOG_LEVEL=debug.
   */
  function failStart(error: unknown): never {
    const explained =
      explainDatabaseError(error, settings.databaseUrl) ??
      (error instanceof FileInUseError ? error.message : undefined)
    if (explained) console.error(explained)
    else
      console.error(
        `workgraph could not start: ${(error as Error)?.message ?? error} (LOG_LEVEL=debug shows the stack)`,
      )
    if (settings.logLevel === 'debug') console.error(error)
    process.exit(1)
  }

  /** Said when the event hub's LISTEN does not hear its own test notification. */
  function deafHub(directUrl: string | undefined): string {
    const where = directUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL'
    return (
      `warning: the event hub's LISTEN on ${where} did not hear its own test notification: ` +
      `${where} looks like a pooler in transaction mode (PgBouncer pool_mode = transaction), which keeps no session. ` +
      "Other instances' writes reach this one's streams only on the fallback re-read, seconds late. " +
      `${directUrl ? 'Point DATABASE_DIRECT_URL at Postgres itself' : 'Set DATABASE_DIRECT_URL to a direct connection to the same database'} (docs/scale-out.md).`
    )
  }

  const target = parseDatabaseUrl(settings.databaseUrl)
  let releaseInstanceFile = () => {}
  if (target.dialect === 'sqlite' && target.path !== ':memory:') {
    // Only the default's directory is made: a configured path under a missing one was refused above.
    if (settings.databaseUrl === DEFAULT_DATABASE_URL) mkdirSync(dirname(target.path), { recursive: true })
    try {
      releaseInstanceFile = claimInstanceFile(instanceFileOf(target.path), {
        url: baseUrl,
        startedAt: new Date().toISOString(),
      })
    } catch (error) {
      failStart(error)
    }
  }
  process.on('exit', () => releaseInstanceFile())

  let storage: Awaited<ReturnType<typeof openStorage>>
  let hub: Awaited<ReturnType<typeof createPostgresEventHub>> | undefined
  try {
    storage = await openStorage({ url: settings.databaseUrl, ...schema })
    // On Postgres, instances sharing the database wake each other's stream readers (LISTEN/NOTIFY).
    hub = isPostgresUrl(settings.databaseUrl)
      ? await createPostgresEventHub({
          url: settings.databaseUrl,
          ...(settings.databaseDirectUrl ? { listenUrl: settings.databaseDirectUrl } : {}),
          ...schema,
          onError: (error) => log.error('event hub', error),
          onDeaf: () => console.warn(deafHub(settings.databaseDirectUrl)),
        })
      : undefined
  } catch (error) {
    failStart(error)
  }
  // Loaded only when configured: nodemailer, ioredis and the AWS SDK are most of what a start would parse.
  const smtp = settings.smtp ? (await import('./smtp-mailer.ts')).createSmtpMailer(settings.smtp) : undefined
  // Without a mail transport, a SQLite server also keeps its mail beside its file, for the CLI's demo seed.
  const mailer =
    smtp ??
    (target.dialect === 'sqlite' && target.path !== ':memory:'
      ? createMailboxFileMailer(mailboxFileOf(target.path))
      : undefined)
  const rateLimitStore = settings.redisUrl
    ? (await import('@workgraph/redis')).createRedisRateLimitStore({ url: settings.redisUrl })
    : undefined
  const blobs = settings.s3
    ? (await import('./s3-blob-store.ts')).createS3BlobStore(settings.s3)
    : createFileBlobStore(settings.blobDir)
  const engine = await createEngine({
    storage,
    config: {
      baseUrl,
      streams: { retentionDays: settings.retentionDays, pingSeconds: settings.pingSeconds },
      firstPartyClients: settings.firstPartyClients,
      blobs,
      maxUploadBytes: settings.maxUploadBytes,
      ...(connectors ? { connectors } : {}),
    },
    ...(hub ? { hub } : {}),
    ...(rateLimitStore ? { rateLimitStore } : {}),
    ...(mailer ? { mailer } : {}),
  })
  const app = createApp(engine, {
    onError: (error, request) =>
      log.error(`${request.method} ${new URL(request.url).pathname}`, error, {
        requestId: requestIdOf(request) ?? null,
      }),
    onRequest: (record) => log.request(record),
    // Client ID Metadata Documents are fetched from public addresses only.
    oauth: { cimdFetcher: createCimdFetcher(), passwordCost: settings.passwordHashCost },
  })
  answerClientErrors(bound.server)
  const server = gracefulClose(bound.server)
  bound.serve(toNodeHandler(app))

  console.log(
    `workgraph ${engine.config.version} on ${storage.dialect === 'postgres' ? 'Postgres' : `SQLite (${settings.databaseUrl})`}`,
  )
  const listening = `http://${settings.host}:${bound.port}`
  if (listening !== baseUrl) console.log(`  Listens  ${listening} (public origin ${baseUrl})`)
  console.log(`  API      ${baseUrl}/v1`)
  console.log(`  Docs     ${baseUrl}/v1/docs`)
  console.log(`  OpenAPI  ${baseUrl}/v1/openapi.json`)
  console.log(`  Sign in  ${baseUrl}/sign-in`)
  console.log(`  CLI      workgraph login --server ${baseUrl}`)

  // Expired idempotency records go hourly; the timer never keeps the process alive on its own.
  const pruning = setInterval(
    () => engine.prune().catch((error) => log.error('prune failed', error)),
    3_600_000,
  )
  pruning.unref()

  // Cycles end and start by the clock: complete ended ones (rolling tasks over) and keep each
  // cadence's upcoming cycles, every minute and once at start.
  const advance = () =>
    engine
      .advanceCycles({ onError: (error) => log.error('cycle maintenance failed', error) })
      .then((pass) => log.debug('cycle maintenance pass', { ...pass }))
      .catch((error) => log.error('cycle maintenance failed', error))
  void advance()
  const cycles = setInterval(advance, 60_000)
  cycles.unref()

  // Teams' auto-close and auto-archive count in days: hourly, and once at start, is soon enough. A
  // pass that finds a long backlog works through it in short transactions (docs/triage.md).
  const automate = () =>
    engine
      .automateTasks({ onError: (error) => log.error('task automation failed', error) })
      .then((pass) => log.debug('task automation pass', { ...pass }))
      .catch((error) => log.error('task automation failed', error))
  void automate()
  const automation = setInterval(automate, 3_600_000)
  automation.unref()

  // Notifications follow the event logs after commit (hub wake-ups, a poll as fallback) and reminders
  // of due dates go out hourly, each once per task and day.
  const notifier = engine.startNotifier({
    onError: (error) => log.error('notifier failed', error),
    onPass: (kind, pass) =>
      log.debug(kind === 'notify' ? 'notifier pass' : 'due-date reminders pass', { ...pass }),
  })

  // Recurring work creates its tasks (once per occurrence, whatever the number of instances) and
  // task reminders are delivered, every minute.
  const scheduler = engine.startScheduler({
    onError: (error) => log.error('scheduler failed', error),
    onPass: (pass) => log.debug('scheduler pass', { ...pass }),
  })

  // Notification mail (docs/mail.md) goes out where there is a mail transport: SMTP, or on SQLite the
  // development mailbox file. Instant mail, the daily digests and retries, every 10 seconds.
  const mailing = mailer
    ? engine.startMail({ onError: (error) => log.error('notification mail failed', error) })
    : undefined

  // Automation rules follow the event logs after commit, each run once whatever the number of
  // instances (docs/rules.md).
  const rules = engine.startRules({ onError: (error) => log.error('automation rules failed', error) })

  // Exports and imports are written in steps, each committed with its checkpoint, so after a restart
  // this loop carries on where the last step left off.
  const transfers = engine.startTransfers({ onError: (error) => log.error('transfers failed', error) })

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
    clearInterval(automation)
    await notifier.stop()
    await scheduler.stop()
    await transfers.stop()
    await mailing?.stop()
    await rules.stop()
    const closing = server.close(shutdownTimeoutMs)
    await engine.close()
    const { drained } = await closing
    await engine.hub.close()
    await rateLimitStore?.close()
    smtp?.close()
    await storage.close()
    console.log(drained ? 'stopped' : 'stopped after cutting connections still open at the deadline')
    process.exit(drained ? 0 : 1)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}
