import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { POSTGRES_URL, workerDatabaseName } from './databases.ts'

/** Checks Postgres once. Without it the Postgres half is skipped, unless WORKGRAPH_REQUIRE_POSTGRES=1 (CI). */
export default async function setup(project: TestProject): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
    await createWorkerDatabases(client, project.config.maxWorkers)
    project.provide('postgresUp', true)
  } catch (error) {
    if (process.env.WORKGRAPH_REQUIRE_POSTGRES === '1') {
      throw new Error(
        `Postgres is required (WORKGRAPH_REQUIRE_POSTGRES=1) but ${POSTGRES_URL} did not answer: ${(error as Error).message}`,
      )
    }
    console.warn(`Postgres at ${POSTGRES_URL} did not answer: the Postgres half of the suites is skipped.`)
    project.provide('postgresUp', false)
  } finally {
    await client.end().catch(() => {})
  }
}

/** One database per test worker (see `workerDatabaseName`); they stay between runs, empty of schemas. */
async function createWorkerDatabases(client: pg.Client, workers: number): Promise<void> {
  const wanted = Array.from({ length: Math.max(1, workers) }, (_, i) => workerDatabaseName(i + 1))
  const { rows } = await client.query<{ datname: string }>(
    'select datname from pg_database where datname = any($1)',
    [wanted],
  )
  const existing = new Set(rows.map((row) => row.datname))
  for (const name of wanted) if (!existing.has(name)) await client.query(`create database ${name}`)
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUp: boolean
  }
}
