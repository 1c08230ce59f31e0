import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'

/** The database the global setup connects to, and from which tests that need their own database create it. */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * Each test worker keeps its suites' schemas in a database of its own (`test_w1`, `test_w2`, …, made
 * by the global setup). Kysely's migrator lists the tables of every schema of its database, so a
 * schema that another worker drops during that listing fails the migration ("schema … does not
 * exist"); separate databases keep the workers out of each other's catalogues.
 */
export function workerDatabaseName(poolId: number): string {
  return `${new URL(POSTGRES_URL).pathname.slice(1) || 'test'}_w${poolId}`
}

function workerPostgresUrl(): string {
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${workerDatabaseName(Number(process.env.VITEST_POOL_ID ?? 1))}`
  return url.toString()
}

export interface TestDatabase {
  name: 'sqlite' | 'postgres'
  /** A fresh database for one suite: a new SQLite file, or a new Postgres schema. */
  fresh(): { url: string; schema?: string; drop(): Promise<void> }
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  fresh() {
    const dir = mkdtempSync(join(tmpdir(), 'workgraph-test-'))
    return { url: join(dir, 'test.db'), drop: async () => {} }
  },
}

const postgres: TestDatabase = {
  name: 'postgres',
  fresh() {
    const schema = `t_${randomBytes(6).toString('hex')}`
    const url = workerPostgresUrl()
    return {
      url,
      schema,
      async drop() {
        const client = new pg.Client({ connectionString: url })
        await client.connect()
        await client.query(`drop schema if exists ${schema} cascade`)
        await client.end()
      },
    }
  },
}

/** Whether Postgres answered the global setup. CI sets WORKGRAPH_REQUIRE_POSTGRES so a miss fails the run. */
export function postgresAvailable(): boolean {
  return inject('postgresUp')
}

/** Both databases; every storage-touching suite runs once per entry. */
export const DATABASES: TestDatabase[] = [sqlite, postgres]

export function skipReason(db: TestDatabase): string | false {
  return db.name === 'postgres' && !postgresAvailable()
    ? `Postgres is not reachable at ${POSTGRES_URL}`
    : false
}
