import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const RUNS = Number(process.env.TIME_SUMMARY_RUNS ?? 4)
const GROUPS = ['project', 'person', 'task', 'week'] as const

const worldArb = fc.array(
  fc.record({
    task: fc.integer({ min: 0, max: 3 }),
    byMember: fc.boolean(),
    minutes: fc.integer({ min: 1, max: 600 }),
    day: fc.integer({ min: 1, max: 28 }),
  }),
  { maxLength: 12 },
)

describeEachDatabase('time summary totals (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date('2030-03-01T12:00:00.000Z') })
  })
  afterAll(() => server.drop())

  it('every grouping sums to the minutes of the entries the reader can view', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (entries) => {
        const ws = await newWorkspace(server)
        const base = `/v1/orgs/${ws.orgId}`
        const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
        const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
        // Tasks 0 and 1 are in the reader's team (0 in the project); 2 and 3 in a team they cannot view.
        const tasks = []
        for (const [teamId, projectId] of [
          [ws.teamId, project.id],
          [ws.teamId, null],
          [design.id, null],
          [design.id, null],
        ]) {
          tasks.push((await ws.api.post(`${base}/tasks`, { teamId, title: 'T', projectId })).body)
        }
        const member = await ws.addMember('member')
        for (const e of entries) {
          const as = e.byMember ? member.api : ws.api
          const res = await as.post(`${base}/tasks/${tasks[e.task].id}/time-entries`, {
            minutes: e.minutes,
            date: `2030-02-${String(e.day).padStart(2, '0')}`,
          })
          expect(res.status).toBe(201)
        }
        const reader = await teamGuest(ws, 'view')
        const visible = entries.filter((e) => e.task < 2)
        const expected = visible.reduce((n, e) => n + e.minutes, 0)
        for (const groupBy of GROUPS) {
          const res = await reader.api.get(`${base}/time-entries/summary?groupBy=${groupBy}`)
          expect(res.status).toBe(200)
          expect(res.body.totalMinutes).toBe(expected)
          expect(res.body.entries).toBe(visible.length)
          expect(res.body.groups.reduce((n: number, g: any) => n + g.minutes, 0)).toBe(expected)
        }
        const byTask = await reader.api.get(`${base}/time-entries/summary?groupBy=task`)
        for (const [i, t] of tasks.entries()) {
          const minutes = visible.filter((e) => e.task === i).reduce((n, e) => n + e.minutes, 0)
          const group = byTask.body.groups.find((g: any) => g.key === t.id)
          expect(group?.minutes ?? 0).toBe(minutes)
        }
        // The list agrees with the summary.
        const listed = await reader.api.get(`${base}/time-entries?limit=100`)
        expect(listed.body.data.reduce((n: number, e: any) => n + e.minutes, 0)).toBe(expected)
      }),
      { numRuns: RUNS },
    )
  }, 300_000)
})
