import { createEngine, type Engine, type OrgId } from '@workgraph/core'
import { connect, createKyselyStorage } from '@workgraph/kysely'
import type { KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget } from '../support/databases.ts'
import { newPerson, type TestPerson } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

/**
 * What one workspace may cost `hub.today` in statements, whatever it holds: the member and their
 * teams and grants (3), the task sections and their extras (2), the mentions, the org, the approvals,
 * the update settings and the three kinds of records whose update is due (docs/performance-log.md).
 * It was 23 when each section read a page and its extras, and the approvals and the updates due
 * each read the org and the member's teams and grants again.
 */
const STATEMENTS_PER_WORKSPACE = 6

/**
 * `hub.today` reads each workspace in a bounded number of statements: its five task sections
 * together (one statement, and one for their labels, fields and blocked flags), not a page and its
 * extras per section. Counted at Kysely's executor of the engine's own storage: every query the
 * engine runs, nothing of another suite's.
 */
describeEachDatabase('hub.today statements per workspace', (db) => {
  let target: DatabaseTarget
  let engine: Engine
  let close: () => Promise<void>
  let storage: ReturnType<typeof createKyselyStorage>
  let person: TestPerson
  let statements = 0
  let counting = false
  const counter: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      if (counting) statements++
      return args.result
    },
  }
  const today = new Date().toISOString().slice(0, 10)
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

  beforeAll(async () => {
    target = await db.fresh()
    const connection = await connect({ url: target.url, ...(target.schema ? { schema: target.schema } : {}) })
    storage = createKyselyStorage({ db: connection.db.withPlugin(counter), dialect: connection.dialect })
    engine = await createEngine({ storage, config: { baseUrl: 'http://workgraph.test' } })
    close = async () => {
      await connection.db.destroy()
      await target.drop()
    }
    person = await newPerson(engine)
  })
  afterAll(() => close())

  const run = async (id: string, input: Parameters<Engine['execute']>[1]) => {
    const result = await engine.execute(id, input, person.principal)
    expect(result.status, JSON.stringify(result.body)).toBeLessThan(300)
    return result.body as any
  }

  /** A workspace where the person has tasks overdue, due today and soon. */
  async function addWorkspace(n: number): Promise<OrgId> {
    const org = await run('orgs.create', { body: { name: `Org ${n}` } })
    const team = await run('teams.create', { params: { orgId: org.id }, body: { name: 'T', key: 'T' } })
    const me = (await storage.read((s) => s.members.findByUser(org.id, person.user.id)))!
    for (const due of [day(-2), today, day(1)])
      await run('tasks.create', {
        params: { orgId: org.id },
        body: { teamId: team.id, title: `Due ${due}`, assigneeId: me.id, dueDate: due },
      })
    return org.id
  }

  async function todayStatements(): Promise<number> {
    statements = 0
    counting = true
    const body = await run('hub.today', { query: { date: today } })
    counting = false
    expect(body.partial).toEqual([])
    // Every workspace has something in the sections, so every read runs.
    expect(
      body.overdue.items.length + body.dueToday.items.length + body.dueSoon.items.length,
    ).toBeGreaterThan(0)
    return statements
  }

  it(`costs at most ${STATEMENTS_PER_WORKSPACE} statements per workspace`, async () => {
    await addWorkspace(1)
    const one = await todayStatements()
    await addWorkspace(2)
    await addWorkspace(3)
    const three = await todayStatements()
    const perWorkspace = (three - one) / 2
    expect(perWorkspace).toBeGreaterThan(0)
    expect(perWorkspace).toBeLessThanOrEqual(STATEMENTS_PER_WORKSPACE)
  })
})
