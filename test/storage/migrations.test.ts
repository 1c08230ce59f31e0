import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, MIGRATION_NAMES, migrateToLatest, openStorage } from '@workgraph/kysely'
import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { migrationsFor } from '../support/migrations.ts'

/** Every table, column, index and constraint, as the database describes them. */
async function schemaOf(target: DatabaseTarget): Promise<unknown> {
  const { db, dialect } = await connect({ url: target.url })
  try {
    if (dialect === 'sqlite')
      return (
        await sql<{
          name: string
        }>`select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by name`.execute(
          db,
        )
      ).rows
    const columns = await sql`
      select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
      where table_schema = current_schema() order by table_name, column_name`.execute(db)
    const indexes = await sql`
      select indexname, indexdef from pg_indexes where schemaname = current_schema() order by indexname`.execute(
      db,
    )
    const constraints = await sql`
      select conrelid::regclass::text as on_table, conname, pg_get_constraintdef(oid) as definition
      from pg_constraint where connamespace = current_schema()::regnamespace order by 1, 2`.execute(db)
    return { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows }
  } finally {
    await db.destroy()
  }
}

/**
 * Each suite's database is a copy of a template migrated once per run, so the migrations are tested
 * here: one at a time from an empty database, as a deployment upgrades from any earlier release, they
 * must reach exactly the schema of the template every other test runs on. On SQLite the template is
 * what a first start builds: the baseline schema (migrations/sqlite-baseline.ts), then the migrations
 * after it; so this also proves the baseline builds what the migrations build.
 */
describeEachDatabase('migrations', (db: TestDatabase) => {
  it('apply one at a time from an empty database and end at the schema every suite starts from', async () => {
    const empty = await db.empty()
    const template = await db.fresh()
    try {
      const { db: conn, dialect } = await connect({ url: empty.url })
      const all = await migrationsFor(dialect)
      const migrator = new Migrator({ db: conn, provider: { getMigrations: async () => all } })
      const applied: string[] = []
      try {
        for (;;) {
          const { error, results } = await migrator.migrateUp()
          expect(error, `migration after ${applied.at(-1) ?? 'none'}`).toBeUndefined()
          if (!results?.length) break
          applied.push(...results.map((r) => r.migrationName))
        }
      } finally {
        await conn.destroy()
      }
      expect(applied).toEqual(Object.keys(all).sort())
      expect(await schemaOf(empty)).toEqual(await schemaOf(template))
      expect(await appliedIn(template)).toEqual(MIGRATION_NAMES)
    } finally {
      await empty.drop()
      await template.drop()
    }
  }, 120_000)
})

/** The migrations a database records as applied, in order. */
async function appliedIn(target: DatabaseTarget): Promise<string[]> {
  const { db } = await connect({ url: target.url })
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
    return rows.map((r) => r.name)
  } finally {
    await db.destroy()
  }
}

describe('a fresh SQLite database', () => {
  it('is built from the baseline once, and a database holding tables is migrated step by step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workgraph-baseline-'))
    try {
      // The first start builds it; the next finds every migration applied and builds nothing.
      const url = join(dir, 'new.sqlite')
      await (await openStorage({ url })).close()
      const { db: again } = await connect({ url })
      const rerun = await migrateToLatest(again, 'sqlite')
      await again.destroy()
      expect(rerun.results).toEqual([])
      expect(await appliedIn({ url } as DatabaseTarget)).toEqual(MIGRATION_NAMES)

      // A database that holds a table of its own is not a fresh one: the baseline leaves it alone and
      // the migrations run from the first.
      const used = join(dir, 'used.sqlite')
      const { db } = await connect({ url: used })
      await sql`create table notes (id integer primary key)`.execute(db)
      const result = await migrateToLatest(db, 'sqlite')
      await db.destroy()
      expect(result.results?.map((r) => r.migrationName)).toEqual(MIGRATION_NAMES)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
