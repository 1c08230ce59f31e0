import { createEngine, type Engine } from '@workgraph/core'
import { connect, createKyselyStorage, registerWorkspaceWords } from '@workgraph/kysely'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget } from '../support/databases.ts'
import { newPerson, type TestPerson } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

/**
 * On Postgres a create's writes are held for the event append on connections of the pool `connect`
 * makes (adapters/kysely/src/driver/held-writes.ts). An embedder may hand `createKyselyStorage` a Kysely
 * instance of their own, over a plain pool: creates must then be written all the same. On SQLite
 * their own better-sqlite3 connection needs the search index's function (`registerWorkspaceWords`,
 * migration 0076), which `connect` registers on its own.
 */
describeEachDatabase('creates through a Kysely instance the embedder built', (db) => {
  let target: DatabaseTarget
  let engine: Engine
  let person: TestPerson
  let close: () => Promise<void>

  beforeAll(async () => {
    target = await db.fresh()
    const connection = await connect({ url: target.url, ...(target.schema ? { schema: target.schema } : {}) })
    const plugins = [...connection.db.getExecutor().plugins]
    const own = connection.pool
      ? new Kysely<never>({ dialect: new PostgresDialect({ pool: connection.pool }), plugins })
      : new Kysely<never>({ dialect: new SqliteDialect({ database: ownSqlite(target.url) }), plugins })
    const storage = createKyselyStorage({
      db: own as unknown as typeof connection.db,
      dialect: connection.dialect,
    })
    engine = await createEngine({ storage, config: { baseUrl: 'http://workgraph.test' } })
    person = await newPerson(engine)
    close = async () => {
      await own.destroy()
      await connection.db.destroy().catch(() => {})
      await target.drop()
    }
  })
  afterAll(() => close())

  it('writes the task, its history and its event, and answers what a read answers', async () => {
    const run = async (id: string, input: Parameters<Engine['execute']>[1]) => {
      const result = await engine.execute(id, input, person.principal)
      expect(result.status, JSON.stringify(result.body)).toBeLessThan(300)
      return result.body as any
    }
    const org = await run('orgs.create', { body: { name: 'Own pool' } })
    const team = await run('teams.create', { params: { orgId: org.id }, body: { name: 'T', key: 'T' } })
    const params = { orgId: org.id }
    const created = await run('tasks.create', { params, body: { teamId: team.id, title: 'Held or not' } })
    const read = await run('tasks.get', { params: { ...params, taskId: created.id } })
    expect(created).toStrictEqual(read)
    const history = await run('tasks.history.list', { params: { ...params, taskId: created.id }, query: {} })
    expect(history.data.map((e: { field: string }) => e.field)).toContain('created')
    const events = await engine.storage.read((s) => s.events.list(org.id, 0, 100))
    expect(events.map((e) => e.kind)).toContain('task.created')
    const found = await run('tasks.list', { params, query: { q: 'held' } })
    expect(found.data.map((t: { id: string }) => t.id)).toEqual([created.id])
  })
})

function ownSqlite(file: string): SQLite.Database {
  const database = new SQLite(file)
  database.pragma('journal_mode = WAL')
  registerWorkspaceWords(database)
  return database
}
