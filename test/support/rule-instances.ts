import type { ServerOptions } from '@workgraph/server'
import { afterAll, beforeAll, expect } from 'vitest'
import type { DatabaseTarget, TestDatabase } from './databases.ts'
import { startTestServer } from './http.ts'
import type { TestWorkspace } from './workspace.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

const fail = (error: unknown) => {
  throw error
}

/**
 * Two servers (two engines) on one database, as two instances of a deployment, for the automation
 * rule suites: made in the calling suite's `beforeAll`, dropped in its `afterAll`. With them, what
 * those suites ask of the API: a rule, a task, a task read back, a rule's runs.
 */
export function ruleInstances(db: TestDatabase, options: Partial<ServerOptions> = {}) {
  let target: DatabaseTarget
  let a: Server
  let b: Server
  beforeAll(async () => {
    target = await db.fresh()
    const shared: TestDatabase = { ...db, fresh: async () => ({ ...target, drop: async () => {} }) }
    a = await startTestServer(shared, options)
    b = await startTestServer(shared, options)
  }, 60_000)
  afterAll(async () => {
    await a.drop()
    await b.drop()
    await target.drop()
  })

  const rulesOf = (ws: TestWorkspace) => `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/automation-rules`

  return {
    /** The instance the suites make workspaces and requests on. */
    get a() {
      return a
    },
    get b() {
      return b
    },
    rulesOf,

    /**
     * Both engines run the rules until neither finds anything left (no run, no due date passing):
     * at once on Postgres. Answers how many rule runs that took.
     */
    async settle(): Promise<number> {
      let runs = 0
      for (let i = 0; i < 10; i++) {
        const run = (s: Server) => s.engine.runRules({ onError: fail })
        // SQLite's connections in one process would wait on each other's write lock synchronously.
        const [x, y] =
          db.name === 'postgres' ? await Promise.all([run(a), run(b)]) : [await run(a), await run(b)]
        if (x.runs + y.runs + x.duePassed + y.duePassed === 0) return runs
        runs += x.runs + y.runs
      }
      throw new Error('The rules did not settle')
    },

    async rule(ws: TestWorkspace, body: object, api = ws.api) {
      const res = await api.post(rulesOf(ws), { name: 'A rule', ...body })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return res.body
    },

    async task(ws: TestWorkspace, extra: object = {}) {
      const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
        teamId: ws.teamId,
        title: 'Work',
        ...extra,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return res.body.id as string
    },

    read: async (ws: TestWorkspace, id: string) =>
      (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${id}`)).body,

    runsOf: async (ws: TestWorkspace, ruleId: string) =>
      (await ws.api.get(`/v1/orgs/${ws.orgId}/automation-rules/${ruleId}/runs`)).body.data as any[],
  }
}
