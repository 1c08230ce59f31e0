import { type Kysely, sql } from 'kysely'

/** A schema as the statements that create it, and the last migration it holds. */
export interface Baseline {
  through: string
  statements: readonly string[]
}

/**
 * Builds a fresh SQLite database from `baseline` in one transaction, and records every migration up to
 * `baseline.through` as applied, so the migrator runs only the ones after it. A database that holds any
 * table is left alone (it is migrated step by step, as before). `begin immediate` takes the write lock
 * before looking, so two processes opening one new file cannot both build it. Returns the migrations
 * the baseline stood for, none when it was not used.
 */
export async function applySqliteBaseline(
  db: Kysely<any>,
  baseline: Baseline,
  migrations: readonly string[],
): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    let applied: string[] = []
    await sql`begin immediate`.execute(conn)
    try {
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
        conn,
      )
      if (Number(rows[0]!.n) === 0) {
        for (const statement of baseline.statements) await sql.raw(statement).execute(conn)
        const now = new Date().toISOString()
        applied = migrations.filter((m) => m <= baseline.through)
        for (const name of applied)
          await sql`insert into kysely_migration (name, timestamp) values (${name}, ${now})`.execute(conn)
      }
      await sql`commit`.execute(conn)
      return applied
    } catch (error) {
      await sql`rollback`.execute(conn)
      throw error
    }
  })
}

/**
 * The statements that build the schema of the SQLite database `db` holds, in the order SQLite made its
 * objects, and the rows its tables hold apart from the migration log (an empty database holds only the
 * migrator's lock): what scripts/write-baseline.ts writes.
 */
export async function sqliteSchemaStatements(db: Kysely<any>): Promise<string[]> {
  // FTS5 makes its shadow tables itself when its virtual table is created.
  const shadows = new Set(
    (await sql<{ name: string; type: string }>`pragma table_list`.execute(db)).rows
      .filter((t) => t.type === 'shadow')
      .map((t) => t.name),
  )
  const objects = (
    await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from sqlite_master
      where sql is not null and name not like 'sqlite_%' order by rowid`.execute(db)
  ).rows.filter((o) => !shadows.has(o.name))
  const statements = objects.map((o) => o.sql)
  for (const { name } of objects.filter((o) => o.type === 'table' && o.name !== 'kysely_migration')) {
    for (const row of (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db))
      .rows) {
      const values = Object.values(row).map((v) =>
        v === null ? 'null' : typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`,
      )
      statements.push(`insert into "${name}" values (${values.join(', ')})`)
    }
  }
  return statements
}
