import type { Kysely, PostgresPool, PostgresPoolClient, PostgresQueryResult, QueryCreator } from 'kysely'
import { CompiledQuery, sql } from 'kysely'
import type pg from 'pg'

/**
 * Postgres: a transaction's write held back and sent as leading data-modifying CTEs of its next
 * statement, one round trip instead of two. `tasks.create` holds its insert (the task, labels, field
 * values, history, subscriptions) and the event append takes it (issue 31): a create holds the team's
 * counter row from the number's allocation to commit, so every round trip in between is serialized
 * across the team's writers. Any other next statement (a read, `commit`) sends the held write first,
 * on its own, so nothing reads past it; `rollback` drops it. One write is held at a time.
 *
 * The connection carries it (a transaction owns its connection until it ends): the pool handed to
 * Kysely wraps each client, and a held write travels to it as a statement marked `HOLD`. Both marks
 * are comments of complete statements: over a pool not wrapped (a Kysely instance an embedder built),
 * the held write simply runs at once.
 */
/** Marks a statement to hold rather than send. */
const HOLD = '/* held */ '
/** How a held statement ends after its CTEs: it reads nothing (`heldStatement`). */
const HELD_END = ' select 1 as "held"'
/** Marks a statement that may take a held write as its first CTEs. */
const TAKES = '/* takes held */ '
/** Marks a transaction's last statement, sent with the transaction's `commit` behind it. */
const THEN_COMMIT = '/* then commit */ '

/** A data-modifying statement with CTEs: `ctes` is its list of CTEs, without the `with` keyword. */
interface Held {
  ctes: string
  parameters: readonly unknown[]
}

/** The statement to hold: the writes of `into` (its CTEs), reading nothing. */
export function heldStatement<DB>(into: QueryCreator<DB>) {
  return into.selectNoFrom(sql<number>`1`.as('held'))
}

/**
 * Holds `statement` (a compiled `heldStatement`) for the transaction's next statement; outside a
 * transaction there is no next statement of its own, so it runs at once.
 */
export async function holdWrite<DB>(db: Kysely<DB>, statement: CompiledQuery) {
  ctesOf(statement.sql) // refuses anything but a statement of CTEs before it is held
  const text = db.isTransaction ? `${HOLD}${statement.sql}` : statement.sql
  await db.executeQuery(CompiledQuery.raw(text, [...statement.parameters]))
}

/** `query` marked to take a held write as its first CTEs (a `with` of its own follows them). */
export function takingHeld<Q extends { sql: string }>(query: Q): Q {
  return { ...query, sql: `${TAKES}${query.sql.trimStart()}` }
}

/**
 * `query` marked as its transaction's last statement: the connection sends `commit` right behind it,
 * pipelined (pg's pipeline mode, for these two statements only), so Postgres commits as soon as the
 * statement is done and the locks it holds (the org's event counter row, a team's number) are not
 * held while its answer waits for Node's event loop, busy with other requests, and Node's `commit`
 * travels back. If the statement fails, the transaction is aborted and Postgres answers that
 * `commit` with a rollback: nothing is written, and the statement's error reaches the caller.
 */
export function thenCommit<Q extends { sql: string }>(query: Q): Q {
  return { ...query, sql: `${THEN_COMMIT}${query.sql}` }
}

/** A compiled `heldStatement`'s list of CTEs. */
function ctesOf(text: string): string {
  if (!text.startsWith('with ') || !text.endsWith(HELD_END))
    throw new Error(`Not a statement of CTEs to hold: ${text.slice(0, 80)}`)
  return text.slice('with '.length, text.length - HELD_END.length)
}

/** The pool for Kysely's Postgres dialect, whose clients carry held writes. */
export function holdingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  return {
    async connect() {
      const client = await pool.connect()
      let holding = wrapped.get(client)
      if (!holding) {
        holding = holdingClient(client)
        wrapped.set(client, holding)
      }
      return holding
    },
    end: () => pool.end(),
  }
}

type Result = PostgresQueryResult<never>

function holdingClient(client: pg.PoolClient): PostgresPoolClient {
  let held: Held | null = null
  /** The `commit` sent behind a transaction's last statement, until Kysely ends the transaction. */
  let committing: Promise<Result> | null = null
  const send = (sql: string, parameters: readonly unknown[]) =>
    client.query(sql, parameters as unknown[]) as unknown as Promise<Result>
  const flush = async () => {
    if (!held) return
    const { ctes, parameters } = held
    held = null
    await send(`with ${ctes}${HELD_END}`, parameters)
  }
  /** `sql`, then `commit` on the wire behind it, without waiting for its answer. */
  const sendThenCommit = (sql: string, parameters: readonly unknown[]) => {
    // Pipeline mode (pg ≥ 8.22) writes each query as it is queued. Nothing else is in flight on the
    // connection (a transaction's statements are awaited one by one); it ends with the commit.
    const modes = client as unknown as { pipeline: boolean }
    modes.pipeline = true
    const answer = send(sql, parameters)
    const commit = send('commit', [])
    committing = commit.finally(() => {
      modes.pipeline = false
    })
    committing.catch(() => {}) // answered to Kysely's own `commit` or `rollback`
    return answer
  }
  /** Kysely's `commit` or `rollback` after the last statement: both answered by the sent `commit`. */
  const end = async (sql: string, commit: Promise<Result>) => {
    committing = null
    if (sql === 'commit') return commit
    if (sql !== 'rollback')
      throw new Error(`A statement after the transaction's last one: ${sql.slice(0, 80)}`)
    // The last statement failed (so Postgres rolled back), or the commit itself did.
    const outcome = await commit.catch(() => null)
    if ((outcome?.command as string | undefined) === 'COMMIT')
      throw new Error('The transaction committed with its last statement and cannot be rolled back')
    return { command: 'ROLLBACK', rowCount: 0, rows: [] } as unknown as Result
  }
  async function query(sql: string, parameters: readonly unknown[]) {
    if (committing) return end(sql, committing)
    if (sql.startsWith(HOLD)) {
      await flush()
      held = { ctes: ctesOf(sql.slice(HOLD.length)), parameters }
      return { command: 'INSERT', rowCount: 0, rows: [] }
    }
    const last = sql.startsWith(THEN_COMMIT)
    let text = last ? sql.slice(THEN_COMMIT.length) : sql
    let values = parameters
    if (held && text.startsWith(TAKES)) {
      const { ctes, parameters: first } = held
      held = null
      // The statement's own parameters follow the held write's; its own CTEs follow the held ones.
      const own = text.slice(TAKES.length).replace(/\$(\d+)/g, (_, n) => `$${Number(n) + first.length}`)
      text = own.startsWith('with ') ? `with ${ctes}, ${own.slice('with '.length)}` : `with ${ctes} ${own}`
      values = [...first, ...parameters]
    } else if (held) {
      if (sql === 'rollback') held = null
      else await flush()
    }
    return last ? sendThenCommit(text, values) : send(text, values)
  }
  return {
    query: ((sqlOrCursor: unknown, parameters?: readonly unknown[]) =>
      typeof sqlOrCursor === 'string'
        ? query(sqlOrCursor, parameters ?? [])
        : client.query(sqlOrCursor as never)) as unknown as PostgresPoolClient['query'],
    release() {
      held = null
      committing = null
      client.release()
    },
  }
}
