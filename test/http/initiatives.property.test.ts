import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const RUNS = Number(process.env.INITIATIVE_RUNS ?? 12)
const N = 6
const MAX_DEPTH = 5

/** Nest `child` under `parent` (null: top level), or delete `child`. */
const stepArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      child: fc.nat(N - 1),
      parent: fc.option(fc.nat(N - 1), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), child: fc.nat(N - 1) }) },
)

const HEALTHS = ['onTrack', 'atRisk', 'offTrack'] as const
type Health = (typeof HEALTHS)[number]
const SEVERITY: Record<Health, number> = { onTrack: 0, atRisk: 1, offTrack: 2 }

/** A random org: initiatives in a forest, projects over two teams, links, tasks and updates. */
const worldArb = fc.record({
  parents: fc.tuple(...[0, 1, 2, 3, 4].map((i) => fc.option(fc.nat(Math.max(0, i - 1)), { nil: null }))),
  statuses: fc.array(fc.constantFrom('planned', 'active', 'completed', 'canceled'), {
    minLength: 5,
    maxLength: 5,
  }),
  initiativeHealth: fc.array(fc.option(fc.constantFrom(...HEALTHS), { nil: null }), {
    minLength: 5,
    maxLength: 5,
  }),
  // Teams of each project: 1 = ENG, 2 = DES, 3 = both.
  projectTeams: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }),
  projectHealth: fc.array(fc.option(fc.constantFrom(...HEALTHS), { nil: null }), {
    minLength: 4,
    maxLength: 4,
  }),
  links: fc.uniqueArray(fc.tuple(fc.nat(4), fc.nat(3)), { maxLength: 8, selector: ([i, p]) => `${i}:${p}` }),
  tasks: fc.array(
    fc.record({
      project: fc.nat(3),
      des: fc.boolean(),
      state: fc.constantFrom('Todo', 'Done', 'Canceled'),
      estimate: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    }),
    { maxLength: 10 },
  ),
})

describeEachDatabase('initiative hierarchy and rollups (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('stays acyclic and at most five levels deep under any moves and deletes, refusing exactly the bad moves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 14 }), async (steps) => {
        const ws = await newWorkspace(server)
        const base = `/v1/orgs/${ws.orgId}/initiatives`
        const ids: string[] = []
        for (let i = 0; i < N; i++) ids.push((await ws.api.post(base, { name: `i${i}` })).body.id)
        const parent = new Map<number, number | null>(ids.map((_, i) => [i, null]))
        const alive = new Set(ids.keys())
        const chainUp = (i: number) => {
          const up = [i]
          for (let at = parent.get(i); at !== null && at !== undefined; at = parent.get(at)) up.push(at)
          return up
        }
        const height = (i: number): number =>
          Math.max(0, ...[...alive].filter((c) => parent.get(c) === i).map((c) => height(c) + 1))

        for (const step of steps) {
          if (!alive.has(step.child)) continue
          if (step.kind === 'delete') {
            expect((await ws.api.delete(`${base}/${ids[step.child]}`)).status).toBe(204)
            for (const c of alive) if (parent.get(c) === step.child) parent.set(c, parent.get(step.child)!)
            alive.delete(step.child)
            continue
          }
          if (step.parent !== null && !alive.has(step.parent)) continue
          const res = await ws.api.patch(`${base}/${ids[step.child]}`, {
            parentId: step.parent === null ? null : ids[step.parent],
          })
          const above = step.parent === null ? [] : chainUp(step.parent)
          const cycle = above.includes(step.child)
          const levels = above.length + 1 + height(step.child)
          if (res.status === 200) {
            expect(cycle).toBe(false)
            expect(levels).toBeLessThanOrEqual(MAX_DEPTH)
            parent.set(step.child, step.parent)
          } else if (res.body.code === 'initiative_cycle') {
            expect(cycle).toBe(true)
            // The path runs from the child down to the new parent, each a child of the one before.
            const path = res.body.path.map((id: string) => ids.indexOf(id))
            expect(path[0]).toBe(step.child)
            expect(path.at(-1)).toBe(step.parent)
            for (let k = 1; k < path.length; k++) expect(parent.get(path[k])).toBe(path[k - 1])
          } else {
            expect(res.body.code).toBe('initiative_depth')
            expect(cycle).toBe(false)
            expect(levels).toBeGreaterThan(MAX_DEPTH)
          }
        }
        // The stored hierarchy is the model's, and the tree read walks it depth first.
        const tree = (await ws.api.get(`${base}/tree`)).body.data
        expect(tree).toHaveLength(alive.size)
        for (const node of tree) {
          const i = ids.indexOf(node.id)
          const p = parent.get(i)!
          expect(node.parentId).toBe(p === null ? null : ids[p])
          expect(node.depth).toBe(chainUp(i).length - 1)
          expect(node.depth).toBeLessThan(MAX_DEPTH)
        }
      }),
      { numRuns: RUNS },
    )
  }, 600_000)

  it('rolls up exactly the reference computation over what each reader can see', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (w) => {
        const ws = await newWorkspace(server)
        const o = `/v1/orgs/${ws.orgId}`
        const des = (await ws.api.post(`${o}/teams`, { name: 'Design', key: 'DES' })).body
        const desStates = Object.fromEntries(
          (await ws.api.get(`${o}/teams/${des.id}/states`)).body.data.map((s: any) => [s.name, s.id]),
        )
        const teamsOf = (p: number) => [
          w.projectTeams[p]! & 1 ? ws.teamId : null,
          w.projectTeams[p]! & 2 ? des.id : null,
        ]
        const inis: string[] = []
        for (let i = 0; i < 5; i++) {
          const parentIdx = i === 0 ? null : w.parents[i]!
          const res = await ws.api.post(`${o}/initiatives`, {
            name: `I${i}`,
            status: w.statuses[i],
            ...(parentIdx === null ? {} : { parentId: inis[parentIdx] }),
          })
          expect(res.status).toBe(201)
          inis.push(res.body.id)
          if (w.initiativeHealth[i]) {
            await ws.api.post(`${o}/initiatives/${res.body.id}/updates`, {
              body: 'u',
              health: w.initiativeHealth[i],
            })
          }
        }
        const projects: string[] = []
        for (let p = 0; p < 4; p++) {
          const teamIds = teamsOf(p).filter(Boolean)
          const project = (await ws.api.post(`${o}/projects`, { name: `P${p}`, teamIds })).body
          projects.push(project.id)
          if (w.projectHealth[p]) {
            await ws.api.post(`${o}/projects/${project.id}/updates`, {
              body: 'u',
              health: w.projectHealth[p],
            })
          }
        }
        for (const [i, p] of w.links) await ws.api.put(`${o}/initiatives/${inis[i]}/projects/${projects[p]}`)
        const tasks = w.tasks.map((t) => {
          const [eng, design] = teamsOf(t.project)
          const onDes = design !== null && (t.des || eng === null)
          return { ...t, team: onDes ? 'des' : 'eng' }
        })
        for (const t of tasks) {
          const res = await ws.api.post(`${o}/tasks`, {
            teamId: t.team === 'des' ? des.id : ws.teamId,
            title: 't',
            projectId: projects[t.project],
            stateId: t.team === 'des' ? desStates[t.state] : ws.states[t.state]!.id,
            ...(t.estimate === null ? {} : { estimate: t.estimate }),
          })
          expect(res.status).toBe(201)
        }
        const parentOf = (i: number) => (i === 0 ? null : w.parents[i]!)

        /** What a reader who sees `teams` must get, computed from the model alone. */
        const reference = (teams: Set<string>, orgWide: boolean) => {
          const projectSeen = (p: number) =>
            teamsOf(p).some((t) => t !== null && teams.has(t === ws.teamId ? 'eng' : 'des'))
          const below = (i: number): number[] =>
            [1, 2, 3, 4].filter((c) => parentOf(c) === i).flatMap((c) => [c, ...below(c)])
          const linked = (set: number[]) =>
            [...new Set(w.links.filter(([i]) => set.includes(i)).map(([, p]) => p))].filter(projectSeen)
          // Org-wide readers see every initiative; others those holding a project they can view.
          const iniSeen = (i: number) => orgWide || linked([i, ...below(i)]).length > 0
          const out = new Map<number, unknown>()
          for (let i = 0; i < 5; i++) {
            if (!iniSeen(i)) continue
            const subs = below(i).filter(iniSeen)
            const ps = linked([i, ...subs])
            const ts = tasks.filter((t) => ps.includes(t.project) && teams.has(t.team))
            const sum = (pred: (t: (typeof ts)[number]) => boolean, key: 'tasks' | 'points') =>
              ts.filter(pred).reduce((n, t) => n + (key === 'tasks' ? 1 : (t.estimate ?? 0)), 0)
            const all = () => true
            const canceled = (t: (typeof ts)[number]) => t.state === 'Canceled'
            const done = (t: (typeof ts)[number]) => t.state === 'Done'
            const key = sum(all, 'points') - sum(canceled, 'points') > 0 ? 'points' : 'tasks'
            const scope = sum(all, key) - sum(canceled, key)
            const signals: [string, Health][] = []
            if (w.initiativeHealth[i]) signals.push([inis[i]!, w.initiativeHealth[i]!])
            for (const s of subs) {
              if (['planned', 'active'].includes(w.statuses[s]!) && w.initiativeHealth[s]) {
                signals.push([inis[s]!, w.initiativeHealth[s]!])
              }
            }
            for (const p of ps) if (w.projectHealth[p]) signals.push([projects[p]!, w.projectHealth[p]!])
            const worst = signals.reduce<Health | null>(
              (acc, [, h]) => (acc === null || SEVERITY[h] > SEVERITY[acc] ? h : acc),
              null,
            )
            out.set(i, {
              projects: ps.length,
              subInitiatives: subs.length,
              total: { tasks: sum(all, 'tasks'), points: sum(all, 'points') },
              completedRatio: scope > 0 ? sum(done, key) / scope : 0,
              value: worst,
              reasons: signals
                .filter(([, h]) => h !== 'onTrack')
                .map(([id]) => id)
                .sort(),
            })
          }
          return out
        }

        const guest = await teamGuest(ws, 'view')
        for (const [reader, teams] of [
          [ws, new Set(['eng', 'des'])],
          [guest, new Set(['eng'])],
        ] as const) {
          const expected = reference(teams as Set<string>, reader === ws)
          for (let i = 0; i < 5; i++) {
            const res = await reader.api.get(`${o}/initiatives/${inis[i]}/rollup`)
            const want = expected.get(i) as any
            if (!want) {
              expect(res.status).toBe(404)
              continue
            }
            expect(res.status).toBe(200)
            expect(res.body).toMatchObject({
              projects: want.projects,
              subInitiatives: want.subInitiatives,
              total: want.total,
              computedHealth: { value: want.value },
            })
            expect(res.body.completedRatio).toBeCloseTo(want.completedRatio, 9)
            expect(res.body.computedHealth.reasons.map((r: any) => r.id).sort()).toEqual(want.reasons)
          }
        }
      }),
      { numRuns: RUNS },
    )
  }, 600_000)
})
