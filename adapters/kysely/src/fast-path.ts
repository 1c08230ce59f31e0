import type SQLite from 'better-sqlite3'
import { CamelCasePlugin, type SqliteDatabase, type SqliteStatement } from 'kysely'

/**
 * better-sqlite3 behind Kysely's `SqliteDialect`, with each distinct SQL text prepared once.
 * Kysely's driver calls `prepare` for every query; preparing is parsing and planning, about a tenth
 * of a list request's time under load. The compiled SQL of a repository method is the same text
 * every time (values are parameters), so a small map keyed by SQL serves nearly every request.
 * Reuse is safe: Kysely runs one query at a time on the single SQLite connection (a streamed query
 * holds it until done), and SQLite re-prepares a statement itself after a schema change.
 */
export function cachedStatements(database: SQLite.Database, capacity = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>()
  return {
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql)
      if (statement) {
        // Most recently used last: the first key is the one to evict.
        statements.delete(sql)
      } else {
        statement = database.prepare(sql) as unknown as SqliteStatement
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!)
      }
      statements.set(sql, statement)
      return statement
    },
    close(): void {
      statements.clear()
      database.close()
    },
  }
}

/**
 * Kysely's camel-case mapping with both directions remembered: the plugin converts every column
 * name of every row (and every identifier of every query) with a regular-expression walk; the set
 * of names is small and fixed, so each is converted once. Rows are mapped with a plain loop; nested
 * plain objects and arrays (Postgres `jsonb`) are mapped as the stock plugin maps them.
 */
export class CachedCamelCasePlugin extends CamelCasePlugin {
  readonly #toCamel = new Map<string, string>()
  readonly #toSnake = new Map<string, string>()

  protected override camelCase(str: string): string {
    let mapped = this.#toCamel.get(str)
    if (mapped === undefined) {
      mapped = super.camelCase(str)
      this.#toCamel.set(str, mapped)
    }
    return mapped
  }

  protected override snakeCase(str: string): string {
    let mapped = this.#toSnake.get(str)
    if (mapped === undefined) {
      mapped = super.snakeCase(str)
      this.#toSnake.set(str, mapped)
    }
    return mapped
  }

  // Only column names map: keys inside JSON values (jsonb on Postgres) are data, such as the custom
  // field ids (`cf_…`) keying a task's `fields` in event payloads, and stay as written.
  protected override mapRow(row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const key in row) out[this.camelCase(key)] = row[key]
    return out
  }
}
