import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const TEAMS = 3
const RUNS = Number(process.env.PROGRAM_ROLLUP_RUNS ?? 4)
const CATEGORIES = ['backlog', 'unstarted', 'started', 'completed', 'canceled'] as const
const HEALTHS = ['onTrack', 'atRisk', 'offTrack'] as const
const SEVERITY = { onTrack: 0, atRisk: 1, offTrack: 2 } as const
const WORDS = { onTrack: 'on track', atRisk: 'at risk', offTrack: 'off track' } as const
type Health = (typeof HEALTHS)[number]

const teamSet = fc.uniqueArray(fc.integer({ min: 0, max: TEAMS - 1 }), { minLength: 1, maxLength: TEAMS })
const worldArb = fc.record({
  reader: teamSet,
  own: fc.option(fc.constantFrom(...HEALTHS), { nil: null }),
  projects: fc.array(
    fc.record({
      teams: teamSet,
      health: fc.option(fc.constantFrom(...HEALTHS), { nil: null }),
      archived: fc.boolean(),
      completed: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  tasks: fc.array(
    fc.record({
      project: fc.nat(),
      team: fc.nat(),
      category: fc.constantFrom(...CATEGORIES),
      estimate: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      archived: fc.boolean(),
    }),
    { maxLength: 8 },
  ),
})
type World = typeof worldArb extends fc.Arbitrary<infer W> ? W : never

/** The rollup as docs/programs.md defines it, computed from the model for a reader seeing `reader` teams. */
function reference(world: World, names: string[]) {
  const sees = (teams: number[]) => teams.some((t) => world.reader.includes(t))
  const visible = world.projects.map((p, i) => ({ ...p, i })).filter((p) => sees(p.teams) && !p.archived)
  const open = visible.filter((p) => !p.completed)
  const byHealth = { onTrack: 0, atRisk: 0, offTrack: 0, none: 0 }
  for (const p of open) byHealth[p.health ?? 'none'] += 1
  const tally = Object.fromEntries(CATEGORIES.map((c) => [c, { tasks: 0, points: 0 }]))
  for (const t of world.tasks) {
    const p = world.projects[t.project % world.projects.length]!
    const team = p.teams[t.team % p.teams.length]!
    if (t.archived || p.archived || !sees(p.teams) || !world.reader.includes(team)) continue
    tally[t.category]!.tasks += 1
    tally[t.category]!.points += t.estimate ?? 0
  }
  const total = Object.values(tally).reduce(
    (s, x) => ({ tasks: s.tasks + x.tasks, points: s.points + x.points }),
    {
      tasks: 0,
      points: 0,
    },
  )
  const key = total.points - tally.canceled!.points > 0 ? 'points' : 'tasks'
  const scope = total[key] - tally.canceled![key]
  const signals = [world.own, ...open.map((p) => p.health)].filter((h): h is Health => h !== null)
  const value = signals.length ? signals.reduce((w, h) => (SEVERITY[h] > SEVERITY[w] ? h : w)) : null
  const reasons: string[] = []
  for (const h of ['offTrack', 'atRisk'] as const) {
    if (world.own === h) reasons.push(`The program's latest update is ${WORDS[h]}`)
    const hit = open.filter((p) => p.health === h).map((p) => names[p.i])
    if (hit.length)
      reasons.push(
        `${hit.length} ${hit.length === 1 ? 'project' : 'projects'} ${WORDS[h]}: ${hit.join(', ')}`,
      )
  }
  return {
    computedHealth: { value, reasons },
    projects: { total: visible.length, open: open.length, byHealth },
    total,
    byCategory: { triage: { tasks: 0, points: 0 }, ...tally },
    completedRatio: scope > 0 ? tally.completed![key] / scope : 0,
  }
}

describeEachDatabase('program rollup (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('equals a reference computation for a reader who sees only some teams', {
    timeout: 240_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const ws = await newWorkspace(server)
        const base = `/v1/orgs/${ws.orgId}`
        const teams = [ws.teamId]
        for (let i = 1; i < TEAMS; i++) {
          teams.push((await ws.api.post(`${base}/teams`, { name: `T${i}`, key: `T${i}X` })).body.id)
        }
        const states: Record<string, string>[] = []
        for (const team of teams) {
          const list = (await ws.api.get(`${base}/teams/${team}/states`)).body.data
          states.push(
            Object.fromEntries(CATEGORIES.map((c) => [c, list.find((s: any) => s.category === c).id])),
          )
        }
        const statuses = (await ws.api.get(`${base}/project-statuses`)).body.data
        const completedStatus = statuses.find((s: any) => s.category === 'completed').id
        const program = (await ws.api.post(`${base}/programs`, { name: 'Prop' })).body
        // The program works in every team, so the reader (a grant on at least one team) may view it
        // whichever of its projects they see.
        for (const team of teams) await ws.api.put(`${base}/programs/${program.id}/teams/${team}`)
        const names: string[] = []
        const projectIds: string[] = []
        for (const [i, p] of world.projects.entries()) {
          names.push(`P${i}`)
          const created = (
            await ws.api.post(`${base}/projects`, { name: `P${i}`, teamIds: p.teams.map((t) => teams[t]) })
          ).body
          projectIds.push(created.id)
          await ws.api.put(`${base}/programs/${program.id}/projects/${created.id}`)
          if (p.health)
            await ws.api.post(`${base}/projects/${created.id}/updates`, { body: 'u', health: p.health })
          if (p.completed) await ws.api.patch(`${base}/projects/${created.id}`, { statusId: completedStatus })
        }
        for (const t of world.tasks) {
          const pi = t.project % world.projects.length
          const p = world.projects[pi]!
          const team = p.teams[t.team % p.teams.length]!
          const task = await ws.api.post(`${base}/tasks`, {
            teamId: teams[team],
            title: 't',
            projectId: projectIds[pi],
            stateId: states[team]![t.category],
            estimate: t.estimate,
          })
          expect(task.status).toBe(201)
          if (t.archived) await ws.api.post(`${base}/tasks/${task.body.id}/archive`)
        }
        for (const [i, p] of world.projects.entries()) {
          if (p.archived) await ws.api.post(`${base}/projects/${projectIds[i]}/archive`)
        }
        if (world.own)
          await ws.api.post(`${base}/programs/${program.id}/updates`, { body: 'o', health: world.own })

        const reader = await ws.addMember('guest')
        for (const t of world.reader)
          await grant(ws, reader.memberId, 'view', { type: 'team', id: teams[t]! })
        const rollup = (await reader.api.get(`${base}/programs/${program.id}/rollup`)).body
        const expected = reference(world, names)
        expect({ ...rollup, completedRatio: undefined }).toMatchObject({
          ...expected,
          completedRatio: undefined,
        })
        expect(rollup.completedRatio).toBeCloseTo(expected.completedRatio, 10)
      }),
      { numRuns: RUNS },
    )
  })
})
