import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStorage } from '@workgraph/kysely'
import pg from 'pg'
import { POSTGRES_DIRECT_URL, postgresDirectUrl } from './databases.ts'

/**
 * The run's template databases, migrated once from zero by the global setup. Each suite's fresh
 * database is a copy: the SQLite file copied, or on Postgres `CREATE DATABASE … TEMPLATE`.
 */
export interface Templates {
  /** The migrated SQLite file. */
  sqlite: string
  /** The migrated Postgres database, and the prefix of every database this run makes; null without Postgres. */
  postgres: { template: string; prefix: string } | null
}

/** Databases of a test run are named `wgtest_{pid of the run}_…`, so a later run can tell a dead run's leftovers. */
const RUN_DATABASE = /^wgtest_(\d+)_/

export async function migrateSqliteTemplate(): Promise<{ file: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-template-'))
  const file = join(dir, 'template.db')
  // Closing the last connection checkpoints the write-ahead log into the file, so the file alone is whole.
  await (await openStorage({ url: file })).close()
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export async function migratePostgresTemplate(
  client: pg.Client,
): Promise<{ template: string; prefix: string; remove(): Promise<void> }> {
  await dropDeadRuns(client)
  const prefix = `wgtest_${process.pid}_`
  const template = `${prefix}template`
  await client.query(`drop database if exists ${template}`)
  await client.query(`create database ${template}`)
  await (await openStorage({ url: postgresDirectUrl(template) })).close()
  // No connections from here on (autovacuum included), as copying a template requires.
  await client.query(`alter database ${template} with is_template true allow_connections false`)
  return {
    template,
    prefix,
    async remove() {
      const admin = new pg.Client({ connectionString: POSTGRES_DIRECT_URL })
      await admin.connect()
      try {
        await admin.query(`alter database ${template} with is_template false`)
        for (const name of await runDatabases(admin, (pid) => pid === process.pid))
          await admin.query(`drop database if exists ${name} with (force)`)
      } finally {
        await admin.end()
      }
    },
  }
}

/** Databases left by runs that were killed before their teardown. */
async function dropDeadRuns(client: pg.Client): Promise<void> {
  for (const name of await runDatabases(client, (pid) => pid !== process.pid && !alive(pid))) {
    await client.query(`alter database ${name} with is_template false`)
    await client.query(`drop database if exists ${name} with (force)`)
  }
}

async function runDatabases(client: pg.Client, of: (pid: number) => boolean): Promise<string[]> {
  const { rows } = await client.query<{ datname: string }>(
    `select datname from pg_database where datname like 'wgtest\\_%'`,
  )
  return rows.map((row) => row.datname).filter((name) => of(Number(RUN_DATABASE.exec(name)?.[1])))
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
