import { createRequire } from 'node:module'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'
import { checkSqliteDirectory, parseDatabaseUrl } from './database-url.ts'
import { CachedCamelCasePlugin, cachedStatements, QueuedSqliteDialect } from './driver/fast-path.ts'
import { holdingPool } from './driver/held-writes.ts'
import { walCheckpointer } from './driver/wal-checkpointer.ts'
import type { Database, Dialect } from './schema.ts'
import { registerWorkspaceWords } from './workspace-words.ts'

export interface ConnectOptions {
  /** A `postgres://` URL, or a SQLite file path (`:memory:` for a throwaway database). */
  url: string
  /** Postgres only: the schema to work in (created if missing), e.g. one per test run. */
  schema?: string
  /** Postgres only: pool size. */
  poolSize?: number
}

export interface Connection {
  db: Kysely<Database>
  dialect: Dialect
  /** The Postgres pool, for LISTEN/NOTIFY and raw access; absent on SQLite. */
  pool?: pg.Pool
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url)
}

/** Opens the database named by `url` (`parseDatabaseUrl`): Postgres via pg, or a SQLite file (WAL). */
export async function connect(options: ConnectOptions): Promise<Connection> {
  // Column names map through a cache; keys inside JSON values stay as written (see CachedCamelCasePlugin).
  const plugins = [new CachedCamelCasePlugin()]
  const target = parseDatabaseUrl(options.url)
  if (target.dialect === 'postgres') {
    // Loaded on demand, so a SQLite server never parses the Postgres driver (cold start).
    const { default: pg } = await import('pg')
    if (options.schema && !/^[a-z_][a-z0-9_]*$/.test(options.schema))
      throw new Error(`Invalid schema name ${options.schema}`)
    if (options.schema) {
      const admin = new pg.Client({ connectionString: options.url })
      await admin.connect()
      await admin.query(`create schema if not exists ${options.schema}`)
      await admin.end()
    }
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // While the database is away, a request fails (503) after this long instead of waiting forever.
      connectionTimeoutMillis: 5_000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    })
    ignoreLostConnections(pool)
    return {
      // Kysely's clients carry a transaction's held write (held-writes.ts); `pool` is the plain one.
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: holdingPool(pool) }), plugins }),
      dialect: 'postgres',
      pool,
    }
  }
  checkSqliteDirectory(target.path)
  const addon = sqliteAddon()
  const database = new SQLite(target.path, addon ? { nativeBinding: addon } : {})
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  database.pragma('synchronous = NORMAL')
  // A statement that fires triggers (the task insert: its search entry) keeps a statement journal
  // of every page it changes; past 64 KiB SQLite spills it to a temp file it creates, writes and
  // deletes in each transaction (a create touches ~20 pages). In memory it costs no system calls.
  database.pragma('temp_store = MEMORY')
  registerWorkspaceWords(database)
  const checkpointer =
    target.path === ':memory:'
      ? undefined
      : walCheckpointer(database, { path: target.path, nativeBinding: addon })
  return {
    db: new Kysely<Database>({
      dialect: new QueuedSqliteDialect({
        database: cachedStatements(database),
        afterCommit: checkpointer?.committed,
        beforeDestroy: checkpointer?.stop,
      }),
      plugins,
    }),
    dialect: 'sqlite',
  }
}

/**
 * better-sqlite3's native addon where its install puts it, or undefined (another layout): named, it
 * loads directly; otherwise better-sqlite3's `bindings` package reads a stack trace and tries a dozen
 * paths first, a few ms of every cold start.
 */
function sqliteAddon(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node')
  } catch {
    return undefined
  }
}

/**
 * A connection the database closes (a restart, a failover) is reported as an 'error' event: on
 * the pool for an idle one, on the client for one in use. Unheard, either crashes the process.
 * The query in flight fails anyway (a 503 to the client), and pg drops the dead connection from
 * the pool and opens a new one on demand, so the events need no more than a listener.
 */
export function ignoreLostConnections(pool: pg.Pool): void {
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
}
