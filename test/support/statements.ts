import type { Kysely } from 'kysely'

export interface RecordedStatement {
  sql: string
  parameters: readonly unknown[]
}

type QueryRunner = {
  executeQuery: (query: RecordedStatement, ...rest: unknown[]) => Promise<unknown>
}

/**
 * The statements `run` sends through `db`, recorded at Kysely's executor (as bench/hub-profile.ts
 * does): every executor of the instance, its transactions' too, shares that prototype.
 */
export async function recordStatements<DB>(
  db: Kysely<DB>,
  run: () => Promise<unknown>,
): Promise<RecordedStatement[]> {
  const executor = Object.getPrototypeOf(Object.getPrototypeOf(db.getExecutor())) as QueryRunner
  const execute = executor.executeQuery
  const recorded: RecordedStatement[] = []
  executor.executeQuery = function (this: unknown, query, ...rest) {
    recorded.push({ sql: query.sql, parameters: [...query.parameters] })
    return execute.call(this, query, ...rest)
  }
  try {
    await run()
  } finally {
    executor.executeQuery = execute
  }
  return recorded
}

/** SQLite's plan of a recorded statement: one `detail` line per step (`EXPLAIN QUERY PLAN`). */
export async function sqlitePlan<DB>(db: Kysely<DB>, statement: RecordedStatement): Promise<string[]> {
  const plan = await db.executeQuery<{ detail: string }>({
    sql: `explain query plan ${statement.sql}`,
    parameters: statement.parameters,
    query: null,
  } as never)
  return plan.rows.map((r) => r.detail)
}
