import { type Engine, isProblem } from '@workgraph/core'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const PROJECTS = 3
/** Record `i` is project `i >> 1` itself when `i` is even, its milestone when odd. */
const RECORDS = PROJECTS * 2
const RUNS = Number(process.env.DEPENDENCY_RUNS ?? 25)

const stepArb = fc.record({
  link: fc.boolean(),
  from: fc.integer({ min: 0, max: RECORDS - 1 }),
  to: fc.integer({ min: 0, max: RECORDS - 1 }),
})

/*
 * The reference model, written out on its own: a project is two moments (start, end), a milestone one
 * moment between them, and `a blocks b` orders a's end before b's start. A link is refused exactly
 * when the moments could not be ordered any more: b's start already precedes a's end.
 */
const start = (r: number) => (r % 2 ? `m${r}` : `s${r}`)
const end = (r: number) => (r % 2 ? `m${r}` : `e${r}`)
function moments(links: Iterable<string>): [string, string][] {
  const edges: [string, string][] = []
  for (let p = 0; p < RECORDS; p += 2) {
    edges.push([`s${p}`, `e${p}`], [`s${p}`, `m${p + 1}`], [`m${p + 1}`, `e${p}`])
  }
  for (const l of links) {
    const [x, y] = l.split('>').map(Number) as [number, number]
    edges.push([end(x), start(y)])
  }
  return edges
}
function precedes(links: Set<string>, a: string, b: string): boolean {
  const edges = moments(links)
  const seen = new Set([a])
  const queue = [a]
  while (queue.length > 0) {
    const at = queue.shift()!
    if (at === b) return true
    for (const [x, y] of edges) {
      if (x === at && !seen.has(y)) {
        seen.add(y)
        queue.push(y)
      }
    }
  }
  return false
}

/** Kahn's algorithm: every moment can be placed in an order. */
function acyclic(links: Iterable<string>): boolean {
  const edges = moments(links)
  const nodes = new Set(edges.flat())
  const indegree = new Map([...nodes].map((n) => [n, 0]))
  for (const [, y] of edges) indegree.set(y, indegree.get(y)! + 1)
  const ready = [...nodes].filter((n) => indegree.get(n) === 0)
  let placed = 0
  while (ready.length > 0) {
    const n = ready.pop()!
    placed++
    for (const [x, y] of edges) {
      if (x !== n) continue
      indegree.set(y, indegree.get(y)! - 1)
      if (indegree.get(y) === 0) ready.push(y)
    }
  }
  return placed === nodes.size
}

describeEachDatabase('project dependency graph (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('stays acyclic under any links and unlinks of projects and milestones, refusing exactly the links that close a cycle', async () => {
    const engine: Engine = server.engine
    const owner = await newPerson(engine)
    const run = async (op: string, params: Record<string, unknown>, body?: unknown) =>
      (await engine.execute(op, { params, query: {}, body }, owner.principal)).body as any
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          stepArb.filter((s) => s.from !== s.to),
          { maxLength: 20 },
        ),
        async (steps) => {
          const org = await run('orgs.create', {}, { name: 'Graph' })
          const team = await run('teams.create', { orgId: org.id }, { name: 'Graph', key: 'G' })
          const ids: string[] = []
          const projectOf: string[] = []
          for (let p = 0; p < PROJECTS; p++) {
            const project = await run(
              'projects.create',
              { orgId: org.id },
              { name: `p${p}`, teamIds: [team.id] },
            )
            const milestone = await run(
              'milestones.create',
              { orgId: org.id, projectId: project.id },
              { name: `m${p}` },
            )
            ids.push(project.id, milestone.id)
            projectOf.push(project.id, project.id)
          }
          const model = new Map<string, string>()
          const between = (a: number, b: number) => model.has(`${a}>${b}`) || model.has(`${b}>${a}`)
          for (const { link, from, to } of steps) {
            const key = `${from}>${to}`
            if (!link) {
              const relationId = model.get(key)
              if (!relationId) continue
              await run('projectRelations.delete', { orgId: org.id, relationId })
              model.delete(key)
              continue
            }
            const body = {
              type: 'blocks',
              milestoneId: from % 2 ? ids[from] : null,
              relatedProjectId: projectOf[to],
              relatedMilestoneId: to % 2 ? ids[to] : null,
            }
            try {
              const relation = await run(
                'projects.relations.create',
                { orgId: org.id, projectId: projectOf[from] },
                body,
              )
              // Accepted: no relation between the two yet, and no cycle closed.
              expect(between(from, to)).toBe(false)
              expect(precedes(new Set(model.keys()), start(to), end(from))).toBe(false)
              model.set(key, relation.id)
            } catch (error) {
              if (isProblem(error) && error.code === 'already_exists') {
                expect(between(from, to)).toBe(true)
                continue
              }
              expect(isProblem(error) && error.code).toBe('dependency_cycle')
              expect(between(from, to)).toBe(false)
              // Refused: the link really would have closed one, along the path the error names.
              expect(precedes(new Set(model.keys()), start(to), end(from))).toBe(true)
              const path = (error as { extensions: { path: string[] } }).extensions.path
              expect(path[0]).toBe(ids[from])
              expect(path.at(-1)).toBe(ids[from])
            }
          }
          // The stored graph is the model's, and its moments can still be ordered.
          const stored = new Set<string>()
          for (let p = 0; p < RECORDS; p += 2) {
            const page = await run('projects.relations.list', { orgId: org.id, projectId: ids[p] }, undefined)
            for (const r of page.data) stored.add(r.id)
          }
          expect(stored).toEqual(new Set(model.values()))
          expect(acyclic(model.keys())).toBe(true)
        },
      ),
      { numRuns: RUNS },
    )
  })
})
