import type SQLite from 'better-sqlite3'
import type { CompiledQuery, Kysely, QueryExecutor, SqliteStatement } from 'kysely'

/** Each executor's twin without plugins, made once (Kysely makes a new one per `withoutPlugins`). */
const bareExecutors = new WeakMap<object, QueryExecutor>()

/**
 * Runs a compiled query and answers the driver's rows as they come (snake_case columns, no plugin's
 * mapping), for a caller that builds its own objects from them in one pass: the camel-cased copy of
 * every row is skipped. The query runs through the same executor method as any other, so the
 * statement recorders of tests and benches see it.
 */
export async function runRaw<R>(
  db: Pick<Kysely<unknown>, 'getExecutor'>,
  compiled: CompiledQuery,
): Promise<R[]> {
  const executor = db.getExecutor()
  let bare = bareExecutors.get(executor)
  if (!bare) {
    bare = executor.withoutPlugins()
    bareExecutors.set(executor, bare)
  }
  return (await bare.executeQuery(compiled)).rows as R[]
}

/**
 * Marks a statement (its SQL's first characters, a comment SQLite ignores) whose rows SQLite answers
 * as arrays of values in column order (`runArrayRows`). better-sqlite3 builds a row object key by key;
 * a page of 51 tasks of 30 columns cost 0.5–0.75 ms of CPU as objects against 0.27–0.34 ms as arrays
 * (the page query alone, 3,000 runs, on a loaded machine).
 */
export const ARRAY_ROWS = '/* array rows */ '

/** Rows in column order, with their columns' names (one array per statement, the same every run). */
export type ArrayRows = unknown[][] & { columns: readonly string[] }

/** A statement whose `all` answers `ArrayRows`. */
export function arrayRowsStatement(statement: SQLite.Statement): SqliteStatement {
  statement.raw(true)
  const names = () => Object.freeze(statement.columns().map((c) => c.name))
  let columns = names()
  return {
    reader: statement.reader,
    all(parameters) {
      const rows = statement.all(parameters) as ArrayRows
      // SQLite prepares the statement again after a schema change, and `*` may then name more columns.
      if (rows.length > 0 && rows[0]!.length !== columns.length) columns = names()
      rows.columns = columns
      return rows
    },
    run: (parameters) => statement.run(parameters),
    iterate: (parameters) => statement.iterate(parameters),
  }
}

/** Whether `rows` came as `ArrayRows` (a statement marked `ARRAY_ROWS`, on SQLite). */
export function isArrayRows(rows: readonly unknown[]): rows is ArrayRows {
  return (rows as Partial<ArrayRows>).columns !== undefined
}

/**
 * `runRaw` for a statement whose rows the caller maps itself by column: on SQLite the rows come as
 * `ArrayRows`; on Postgres (and for a driver that answers objects) as the driver's objects.
 */
export function runArrayRows<R>(
  db: Pick<Kysely<unknown>, 'getExecutor'>,
  dialect: 'sqlite' | 'postgres',
  compiled: CompiledQuery,
): Promise<ArrayRows | R[]> {
  if (dialect !== 'sqlite') return runRaw<R>(db, compiled)
  return runRaw<unknown[]>(db, { ...compiled, sql: ARRAY_ROWS + compiled.sql }) as Promise<ArrayRows>
}
