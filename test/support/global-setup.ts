import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { bundleChildPrograms } from './bundles.ts'
import { POSTGRES_DIRECT_URL } from './databases.ts'
import { migratePostgresTemplate, migrateSqliteTemplate, type Templates } from './templates.ts'

/**
 * What every suite shares, made once per run: the template databases (each suite copies one,
 * test/support/templates.ts) and the bundled child programs (test/support/bundles.ts). Without
 * Postgres the Postgres half is skipped, unless WORKGRAPH_REQUIRE_POSTGRES=1 (CI).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [sqlite, postgres, bundles] = await Promise.all([
    migrateSqliteTemplate(),
    postgresTemplate(),
    bundleChildPrograms(),
  ])
  project.provide('templates', {
    sqlite: sqlite.file,
    postgres: postgres ? { template: postgres.template, prefix: postgres.prefix } : null,
  })
  project.provide('bundles', bundles.dir)
  return async () => {
    sqlite.remove()
    bundles.remove()
    await postgres?.remove()
  }
}

async function postgresTemplate() {
  const client = new pg.Client({ connectionString: POSTGRES_DIRECT_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    return await migratePostgresTemplate(client)
  } catch (error) {
    if (process.env.WORKGRAPH_REQUIRE_POSTGRES === '1') {
      throw new Error(
        `Postgres is required (WORKGRAPH_REQUIRE_POSTGRES=1) but ${POSTGRES_DIRECT_URL} did not answer: ${(error as Error).message}`,
      )
    }
    console.warn(
      `Postgres at ${POSTGRES_DIRECT_URL} did not answer: the Postgres half of the suites is skipped.`,
    )
    return null
  } finally {
    await client.end().catch(() => {})
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    templates: Templates
    /** The folder of the bundled child programs. */
    bundles: string
  }
}
