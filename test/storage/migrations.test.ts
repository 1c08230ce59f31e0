import { connect } from '@workgraph/kysely'
import { Migrator, sql } from 'kysely'
import { expect, it } from 'vitest'
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
 * must reach exactly the schema of the template every other test runs on.
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
    } finally {
      await empty.drop()
      await template.drop()
    }
  }, 120_000)
})
