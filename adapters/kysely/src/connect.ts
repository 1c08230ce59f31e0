import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Database, Dialect } from './schema.ts'

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

/** Opens the database named by `url`: Postgres via pg, anything else as a SQLite file (WAL). */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const plugins = [new CamelCasePlugin()]
  if (isPostgresUrl(options.url)) {
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
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    })
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins }),
      dialect: 'postgres',
      pool,
    }
  }
  if (options.url !== ':memory:') mkdirSync(dirname(options.url), { recursive: true })
  const database = new SQLite(options.url)
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  database.pragma('synchronous = NORMAL')
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database }), plugins }),
    dialect: 'sqlite',
  }
}
