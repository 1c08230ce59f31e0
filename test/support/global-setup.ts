import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { POSTGRES_URL } from './databases.ts'
import { migratePostgresTemplate, migrateSqliteTemplate, type Templates } from './templates.ts'

/**
 * Migrates the run's template databases once (each suite copies one, test/support/templates.ts) and
 * checks Postgres. Without Postgres the Postgres half is skipped, unless WORKGRAPH_REQUIRE_POSTGRES=1 (CI).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sqlite = await migrateSqliteTemplate()
  const postgres = await postgresTemplate()
  project.provide('templates', {
    sqlite: sqlite.file,
    postgres: postgres ? { template: postgres.template, prefix: postgres.prefix } : null,
  })
  return async () => {
    sqlite.remove()
    await postgres?.remove()
  }
}

async function postgresTemplate() {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    return await migratePostgresTemplate(client)
  } catch (error) {
    if (process.env.WORKGRAPH_REQUIRE_POSTGRES === '1') {
      throw new Error(
        `Postgres is required (WORKGRAPH_REQUIRE_POSTGRES=1) but ${POSTGRES_URL} did not answer: ${(error as Error).message}`,
      )
    }
    console.warn(`Postgres at ${POSTGRES_URL} did not answer: the Postgres half of the suites is skipped.`)
    return null
  } finally {
    await client.end().catch(() => {})
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    templates: Templates
  }
}
