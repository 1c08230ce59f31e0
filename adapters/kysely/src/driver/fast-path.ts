import type SQLite from 'better-sqlite3'
import {
  CamelCasePlugin,
  type Compilable,
  type CompiledQuery,
  createQueryId,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformResultArgs,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  type SqliteStatement,
  type TransactionSettings,
  type UnknownRow,
} from 'kysely'
import { ARRAY_ROWS, arrayRowsStatement } from './raw-rows.ts'

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
        statement = sql.startsWith(ARRAY_ROWS)
          ? arrayRowsStatement(database.prepare(sql))
          : (database.prepare(sql) as unknown as SqliteStatement)
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

  // The rows of one result share their columns: each result's rows are mapped by one function made
  // for its columns (see `rowMapper`).
  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows
    if (!Array.isArray(rows) || rows.length === 0) return args.result
    const columns = Object.keys(rows[0]!)
    const key = columns.join('\u0000')
    let map = this.#mappers.get(key)
    if (!map) {
      map = rowMapper(
        columns,
        columns.map((c) => this.camelCase(c)),
      )
      if (this.#mappers.size >= MAX_MAPPERS) this.#mappers.delete(this.#mappers.keys().next().value!)
      this.#mappers.set(key, map)
    }
    const mapped = new Array<UnknownRow>(rows.length)
    for (let r = 0; r < rows.length; r++) mapped[r] = map(rows[r]!)
    return { ...args.result, rows: mapped }
  }

  readonly #mappers = new Map<string, (row: UnknownRow) => UnknownRow>()
}

/** Row mappers kept per plugin: one per distinct column list the app's queries return. */
const MAX_MAPPERS = 2_000

/**
 * A function that copies a row's `columns` to `names`, as one object literal. Filling an empty
 * object key by key (thirty-odd columns a task) left V8 a slow dictionary object per row: mapping a
 * page of 51 tasks took 75–220 µs, against 3–6 µs with the literal. The names are quoted as JSON
 * strings, so no column name reaches the generated code as code; `__proto__`, which a literal would
 * take for the prototype, keeps the loop.
 */
function rowMapper(columns: readonly string[], names: readonly string[]): (row: UnknownRow) => UnknownRow {
  const loop = (row: UnknownRow) => {
    const out: UnknownRow = {}
    for (let c = 0; c < columns.length; c++) out[names[c]!] = row[columns[c]!]
    return out
  }
  if (names.includes('__proto__')) return loop
  const fields = columns.map((c, i) => `${JSON.stringify(names[i])}: row[${JSON.stringify(c)}]`)
  try {
    return new Function('row', `return { ${fields.join(', ')} }`) as (row: UnknownRow) => UnknownRow
  } catch {
    // A host that refuses code from strings (`--disallow-code-generation-from-strings`, some edge
    // runtimes) still gets its rows, by the loop.
    return loop
  }
}

/** Stands for one argument while a query is compiled once; never sent to the database. */
const PLACEHOLDER = '\u0000workgraph-argument:'
/**
 * Shapes kept per plugin set. A shape counts a reader's teams and projects, so an org's readers make
 * many; past this bound the oldest compiled shape goes (it is compiled again if it comes back).
 */
const MAX_SHAPES = 2_000
type Shapes = Map<string, { compiled: CompiledQuery; slots: number[] }>
/**
 * Compiled shapes per plugin set, keyed plugin by plugin: Kysely copies the plugin array for every
 * transaction (`withConnectionProvider`), so the array itself is a new key each time while the
 * plugins in it are the same objects.
 */
interface PluginNode {
  shapes?: Shapes
  next: WeakMap<KyselyPlugin, PluginNode>
}
const compiledQueries: PluginNode = { next: new WeakMap() }

function shapesFor(plugins: readonly KyselyPlugin[]): Shapes {
  let node = compiledQueries
  for (const plugin of plugins) {
    let next = node.next.get(plugin)
    if (!next) {
      next = { next: new WeakMap() }
      node.next.set(plugin, next)
    }
    node = next
  }
  node.shapes ??= new Map()
  return node.shapes
}

/**
 * A hot query built and compiled once, then run with new arguments: Kysely builds an immutable
 * operation tree, runs the plugins over it and compiles it to SQL on every call, which costs more
 * than running the statement for the small look-ups every request makes (the token check, the
 * member, the grants). `build` receives stand-ins for `args` and must pass each straight into the
 * query as a value (not branch on it); `shape` names what else changes the SQL (a list's length, a
 * null). Cached per plugin set, so a Kysely instance with other plugins compiles its own.
 */
export function compiledOnce<DB, O>(
  db: Kysely<DB>,
  shape: string,
  args: readonly unknown[],
  build: (args: readonly string[]) => Compilable<O>,
): CompiledQuery<O> {
  const byShape = shapesFor(db.getExecutor().plugins)
  let entry = byShape.get(shape)
  if (!entry) {
    const stand = args.map((_, i) => `${PLACEHOLDER}${i}`)
    const compiled = build(stand).compile() as CompiledQuery
    // Each parameter's argument found through a map, not by searching the stand-ins: a search made
    // compiling a bulk insert quadratic in its values (2,000 events of 11 columns took seconds).
    const place = new Map(stand.map((s, i) => [s, i]))
    const slots = compiled.parameters.map((p) => (typeof p === 'string' ? (place.get(p) ?? -1) : -1))
    const used = new Set(slots)
    if (stand.some((_, i) => !used.has(i)))
      throw new Error(`compiledOnce(${shape}): an argument is not a parameter of the query`)
    entry = { compiled, slots }
    if (byShape.size >= MAX_SHAPES) byShape.delete(byShape.keys().next().value!)
    byShape.set(shape, entry)
  }
  const { compiled, slots } = entry
  const parameters = compiled.parameters.map((p, i) => (slots[i]! >= 0 ? args[slots[i]!] : p))
  return { ...compiled, parameters, queryId: createQueryId() } as CompiledQuery<O>
}

/** Runs a query from `compiledOnce` (rows mapped by the plugins, as `execute` does). */
export async function runCompiled<DB, O>(db: Kysely<DB>, compiled: CompiledQuery<O>): Promise<O[]> {
  return (await db.executeQuery(compiled)).rows
}

/**
 * Kysely's SQLite driver with its one connection handed out first come, first served. Its own mutex
 * wakes every waiter on each release and all but one wait again: with 32 requests in flight, each
 * of a request's queries woke the other 31, a seventh of the server's time in a profile of the task
 * list. Here the waiters queue and a release wakes only the next one, so the inner driver's mutex
 * is never contended.
 */
class QueuedSqliteDriver implements Driver {
  readonly #inner: Driver
  readonly #hooks: SqliteDriverHooks
  readonly #waiting: (() => void)[] = []
  #busy = false

  constructor(inner: Driver, hooks: SqliteDriverHooks) {
    this.#inner = inner
    this.#hooks = hooks
  }
  init(): Promise<void> {
    return this.#inner.init()
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    // A release hands the connection straight to the next waiter (`#busy` stays set), so no caller
    // arriving in between can take it out of turn.
    if (this.#busy) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    this.#busy = true
    return this.#inner.acquireConnection()
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.#inner.releaseConnection(connection)
    const next = this.#waiting.shift()
    if (next) next()
    else this.#busy = false
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings)
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#inner.commitTransaction(connection)
    this.#hooks.afterCommit?.()
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection)
  }
  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#inner.savepoint!(connection, name, compile)
  }
  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#inner.rollbackToSavepoint!(connection, name, compile)
  }
  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#inner.releaseSavepoint!(connection, name, compile)
  }
  async destroy(): Promise<void> {
    await this.#hooks.beforeDestroy?.()
    return this.#inner.destroy()
  }
}

/** What `QueuedSqliteDialect` calls around the connection's life (the WAL checkpointer). */
export interface SqliteDriverHooks {
  /** After each transaction's commit. */
  afterCommit?: () => void
  /** Before the connection closes. */
  beforeDestroy?: () => Promise<void>
}

/**
 * SQLite runs schema changes inside a transaction as well as Postgres does; Kysely's adapter says
 * otherwise only to be careful with PRAGMAs, which no migration here uses. Saying so makes a run of
 * migrations one transaction, so a migration that fails leaves the database as it was.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

/** `SqliteDialect` with `QueuedSqliteDriver`, and migrations run in one transaction. */
export class QueuedSqliteDialect extends SqliteDialect {
  readonly #hooks: SqliteDriverHooks

  constructor(config: SqliteDialectConfig & SqliteDriverHooks) {
    super(config)
    this.#hooks = config
  }
  override createDriver(): Driver {
    return new QueuedSqliteDriver(super.createDriver(), this.#hooks)
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter()
  }
}

/**
 * `compiledOnce` for a query that writes `rows` (plain values; keys whose value is undefined are left
 * out, as Kysely leaves them out): compiled once per `shape` and the rows' keys, then run with the
 * rows' values. `build` receives stand-ins for the rows and passes them straight into `values`.
 */
export function rowsOnce<DB, O>(
  db: Kysely<DB>,
  shape: string,
  rows: readonly Record<string, unknown>[],
  build: (rows: Record<string, string>[]) => Compilable<O>,
): CompiledQuery<O> {
  const keys = rows.map((row) => Object.keys(row).filter((k) => row[k] !== undefined))
  const args = rows.flatMap((row, i) => keys[i]!.map((k) => row[k]))
  const shapeOfRows = keys.map((k) => k.join(',')).join('|')
  return compiledOnce(db, `${shape}:${shapeOfRows}`, args, (stand) => {
    let at = 0
    return build(keys.map((k) => Object.fromEntries(k.map((key) => [key, stand[at++]!]))))
  })
}
