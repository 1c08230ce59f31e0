import { type Engine, isProblem } from '@workgraph/core'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const TASKS = 5
const RUNS = Number(process.env.DEPENDENCY_RUNS ?? 30)

/** Link or unlink "from blocks to", over task indexes. */
const stepArb = fc.record({
  link: fc.boolean(),
  from: fc.integer({ min: 0, max: TASKS - 1 }),
  to: fc.integer({ min: 0, max: TASKS - 1 }),
})

/** Whether `to` is reachable from `from` along "blocks" edges of the model. */
function reaches(edges: Set<string>, from: number, to: number): boolean {
  const seen = new Set([from])
  const queue = [from]
  while (queue.length > 0) {
    const at = queue.shift()!
    if (at === to) return true
    for (let next = 0; next < TASKS; next++) {
      if (edges.has(`${at}>${next}`) && !seen.has(next)) {
        seen.add(next)
        queue.push(next)
      }
    }
  }
  return false
}

describeEachDatabase('dependency graph (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('stays acyclic under any sequence of links and unlinks, refusing exactly the links that close a cycle', async () => {
    const engine: Engine = server.engine
    const owner = await newPerson(engine)
    const run = async (op: string, params: Record<string, unknown>, body?: unknown) =>
      (await engine.execute(op, { params, query: {}, body }, owner.principal)).body as any
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          stepArb.filter((s) => s.from !== s.to),
          { maxLength: 25 },
        ),
        async (steps) => {
          const org = await run('orgs.create', {}, { name: 'Graph' })
          const team = await run('teams.create', { orgId: org.id }, { name: 'Graph', key: 'G' })
          const ids: string[] = []
          for (let i = 0; i < TASKS; i++) {
            ids.push((await run('tasks.create', { orgId: org.id }, { teamId: team.id, title: `t${i}` })).id)
          }
          const model = new Set<string>()
          for (const { link, from, to } of steps) {
            const params = { orgId: org.id, taskId: ids[to] }
            if (!link) {
              // Idempotent: removing a link that is not there succeeds too, and changes nothing.
              await run('tasks.blockers.remove', { ...params, blockerId: ids[from] })
              model.delete(`${from}>${to}`)
              continue
            }
            try {
              await run('tasks.blockers.add', { ...params, blockerId: ids[from] })
              // Accepted: it must not have closed a cycle.
              expect(reaches(model, to, from)).toBe(false)
              model.add(`${from}>${to}`)
            } catch (error) {
              expect(isProblem(error) && error.code).toBe('dependency_cycle')
              // Refused: the link really would have closed one, along the path the error names.
              expect(reaches(model, to, from)).toBe(true)
              const path = (error as { extensions: { path: string[] } }).extensions.path
              expect(path[0]).toBe(ids[from])
              expect(path.at(-1)).toBe(ids[from])
            }
          }
          // The stored graph is the model's.
          const stored = new Set<string>()
          for (let to = 0; to < TASKS; to++) {
            const page = await run('tasks.blockers.list', { orgId: org.id, taskId: ids[to] })
            for (const t of page.data) stored.add(`${ids.indexOf(t.id)}>${to}`)
          }
          expect(stored).toEqual(model)
        },
      ),
      { numRuns: RUNS },
    )
  })
})
