import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'

/** The server every suite's Postgres database is reached through: Postgres, or a pooler in front of it. */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * Postgres itself, when TEST_DATABASE_URL is a pooler in transaction mode (docs/scale-out.md): what
 * needs a session goes here, as DATABASE_DIRECT_URL does for the server. That is the event hub's
 * `LISTEN`, and making and dropping databases: a pooler keeps idle server connections to a
 * database, and Postgres copies a template or drops a database only when nothing is connected.
 */
export const POSTGRES_DIRECT_URL = process.env.TEST_DATABASE_DIRECT_URL ?? POSTGRES_URL

/** The URL of database `name` on the test server (through the pooler, if there is one). */
export function postgresDatabaseUrl(name: string): string {
  return databaseOn(POSTGRES_URL, name)
}

/** The URL of database `name` on Postgres itself, for what needs a session. */
export function postgresDirectUrl(name: string): string {
  return databaseOn(POSTGRES_DIRECT_URL, name)
}

function databaseOn(server: string, name: string): string {
  const url = new URL(server)
  url.pathname = `/${name}`
  return url.toString()
}

/** One database of one suite: where it is, and how to throw it away. */
export interface DatabaseTarget {
  url: string
  /** Postgres only: the same database on Postgres itself, for the event hub's `LISTEN` (POSTGRES_DIRECT_URL). */
  directUrl?: string
  /** Postgres only: the schema to work in, when not the database's default one. */
  schema?: string
  drop(): Promise<void>
}

export interface TestDatabase {
  name: 'sqlite' | 'postgres'
  /**
   * A fresh database for one suite, already at the latest migration: a copy of the run's template
   * (test/support/templates.ts), which costs milliseconds where migrating from zero costs a second.
   */
  fresh(): Promise<DatabaseTarget>
  /** A fresh database with no tables at all, for the tests of the migrations themselves. */
  empty(): Promise<DatabaseTarget>
}

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'workgraph-test-')), 'test.db')
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  async fresh() {
    const url = tempFile()
    copyFileSync(inject('templates').sqlite, url)
    return { url, drop: async () => {} }
  },
  async empty() {
    return { url: tempFile(), drop: async () => {} }
  },
}

/** Runs one statement on the server's maintenance connection (CREATE and DROP DATABASE cannot run in a pool's transaction). */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_DIRECT_URL })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** A new database of this run (a copy of `from`, or empty), dropped even while connections linger. */
async function createDatabase(from?: string): Promise<DatabaseTarget> {
  const { prefix } = inject('templates').postgres!
  const name = `${prefix}${randomBytes(5).toString('hex')}`
  for (let attempt = 1; ; attempt++) {
    try {
      await admin(`create database ${name}${from ? ` template ${from}` : ''}`)
      break
    } catch (error) {
      // 55006: something (autovacuum, say) touched the template at that instant; it lets go at once.
      if ((error as { code?: string }).code !== '55006' || attempt === 5) throw error
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
    }
  }
  return {
    url: postgresDatabaseUrl(name),
    directUrl: postgresDirectUrl(name),
    // In the background, as the next copy is made: nothing waits on it, and whatever a drop misses,
    // the run's teardown drops with the template.
    drop: async () => void admin(`drop database if exists ${name} with (force)`).catch(() => {}),
  }
}

/**
 * Copying the template takes about a second, nearly all of it Postgres waiting on the disk for each
 * of its ~350 files: so each worker copies the next suite's database while the current suite runs.
 * A copy not used by the end of the run is dropped with the run's other databases (templates.ts).
 */
let next: Promise<DatabaseTarget> | undefined

function copyOfTemplate(): Promise<DatabaseTarget> {
  const copy = createDatabase(inject('templates').postgres!.template)
  copy.catch(() => {}) // a failure is reported to the suite that takes this copy
  return copy
}

const postgres: TestDatabase = {
  name: 'postgres',
  async fresh() {
    const copy = next ?? copyOfTemplate()
    next = copyOfTemplate()
    return copy
  },
  empty: () => createDatabase(),
}

/** Whether Postgres answered the global setup. CI sets WORKGRAPH_REQUIRE_POSTGRES so a miss fails the run. */
export function postgresAvailable(): boolean {
  return inject('templates').postgres !== null
}

/** Both databases; every storage-touching suite runs once per entry. */
export const DATABASES: TestDatabase[] = [sqlite, postgres]

export function skipReason(db: TestDatabase): string | false {
  return db.name === 'postgres' && !postgresAvailable()
    ? `Postgres is not reachable at ${POSTGRES_URL}`
    : false
}
