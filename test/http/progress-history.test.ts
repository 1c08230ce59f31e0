import type { UserId } from '@workgraph/core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
/** A Wednesday, noon UTC: the server's clock at the end of each test. */
const START = Date.parse('2030-03-06T12:00:00.000Z')
const WEEKS = ['2030-02-18', '2030-02-25', '2030-03-04']
const week = (weekStart: string, scope: number, started: number, completed: number) => ({
  weekStart,
  scopeCount: scope,
  startedCount: started,
  completedCount: completed,
})

describeEachDatabase('progress history (burn-up)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = START
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  beforeEach(() => {
    now = START
  })
  afterAll(() => server.drop())

  /** Access tokens live 15 minutes of the server's clock: sign in again after moving it. */
  const signIn = async (userId: UserId) =>
    server.as(await server.engine.tokens.issueAccessToken({ userId, scopes: ['work:read', 'work:write'] }))

  /**
   * Two weeks ago: project P over teams ENG and OPS with tasks a, b (ENG) and hidden (OPS), and a
   * canceled one; last week a starts and hidden is completed; this week a is completed and b starts.
   */
  async function world() {
    now = START - 14 * DAY
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const ops = (await ws.api.post(`${o}/teams`, { name: 'Ops', key: 'OPS' })).body
    const opsStates = (await ws.api.get(`${o}/teams/${ops.id}/states`)).body.data
    const opsDone = opsStates.find((s: any) => s.name === 'Done').id
    const project = (await ws.api.post(`${o}/projects`, { name: 'P', teamIds: [ws.teamId, ops.id] })).body
    const opsOnly = (await ws.api.post(`${o}/projects`, { name: 'Ops only', teamIds: [ops.id] })).body
    const task = async (teamId: string, title: string, projectId = project.id) =>
      (await ws.api.post(`${o}/tasks`, { teamId, title, projectId, estimate: 2 })).body.id as string
    const a = await task(ws.teamId, 'a')
    const b = await task(ws.teamId, 'b')
    const hidden = await task(ops.id, 'hidden')
    const dropped = await task(ws.teamId, 'dropped')
    await task(ops.id, 'elsewhere', opsOnly.id)
    await ws.api.patch(`${o}/tasks/${dropped}`, { stateId: ws.states.Canceled!.id })

    now = START - 7 * DAY
    let owner = await signIn(ws.owner.user.id)
    await owner.patch(`${o}/tasks/${a}`, { stateId: ws.states['In Progress']!.id })
    await owner.patch(`${o}/tasks/${hidden}`, { stateId: opsDone })

    now = START
    owner = await signIn(ws.owner.user.id)
    await owner.patch(`${o}/tasks/${a}`, { stateId: ws.states.Done!.id })
    await owner.patch(`${o}/tasks/${b}`, { stateId: ws.states['In Progress']!.id })
    const fresh = { ...ws, api: owner }
    const guest = await teamGuest(fresh, 'view') // sees ENG only
    return { ws: fresh, o, owner, guest, project, opsOnly }
  }

  it('a project: scope, started and completed by week; the reader sees only what they may view', async () => {
    const { o, owner, guest, project } = await world()
    const path = `${o}/projects/${project.id}/progress/history?weeks=3`
    const mine = await owner.get(path)
    expect(mine.status).toBe(200)
    expect(mine.body.projectId).toBe(project.id)
    expect(mine.body.weeks).toMatchObject([
      week(WEEKS[0]!, 3, 0, 0),
      week(WEEKS[1]!, 3, 1, 1),
      week(WEEKS[2]!, 3, 1, 2),
    ])
    expect(mine.body.weeks[2]).toMatchObject({ scopePoints: 6, startedPoints: 2, completedPoints: 4 })
    // The guest sees ENG only: the completed OPS task never counts.
    const theirs = await guest.api.get(path)
    expect(theirs.body.weeks).toMatchObject([
      week(WEEKS[0]!, 2, 0, 0),
      week(WEEKS[1]!, 2, 1, 0),
      week(WEEKS[2]!, 2, 1, 1),
    ])
    expect((await owner.get(`${o}/projects/${project.id}/progress/history`)).body.weeks).toHaveLength(12)
    expect((await owner.get(`${o}/projects/${project.id}/progress/history?weeks=53`)).status).toBe(400)
  })

  it('a program and an initiative: one series per project the reader can view, and the total', async () => {
    const { ws, o, owner, guest, project, opsOnly } = await world()
    const program = (await owner.post(`${o}/programs`, { name: 'Reliability' })).body
    const initiative = (await owner.post(`${o}/initiatives`, { name: 'Grow' })).body
    for (const p of [project, opsOnly]) {
      expect((await owner.put(`${o}/programs/${program.id}/projects/${p.id}`)).status).toBeLessThan(300)
      expect((await owner.put(`${o}/initiatives/${initiative.id}/projects/${p.id}`)).status).toBeLessThan(300)
    }
    const paths = [
      `${o}/programs/${program.id}/progress/history?weeks=3`,
      `${o}/initiatives/${initiative.id}/progress/history?weeks=3`,
    ]
    for (const path of paths) {
      const mine = await owner.get(path)
      expect(mine.status, path).toBe(200)
      expect(mine.body.projects.map((p: any) => p.projectId).sort()).toEqual([project.id, opsOnly.id].sort())
      expect(mine.body.total, path).toMatchObject([
        week(WEEKS[0]!, 4, 0, 0),
        week(WEEKS[1]!, 4, 1, 1),
        week(WEEKS[2]!, 4, 1, 2),
      ])
      // The guest does not see the OPS-only project, nor P's OPS task.
      const theirs = await guest.api.get(path)
      expect(theirs.status, path).toBe(200)
      expect(
        theirs.body.projects.map((p: any) => p.projectId),
        path,
      ).toEqual([project.id])
      expect(theirs.body.total[2], path).toMatchObject(week(WEEKS[2]!, 2, 1, 1))
    }
    const stranger = await newPerson(server.engine)
    for (const path of paths) expect((await server.as(stranger.token).get(path)).status, path).toBe(404)
    void ws
  })

  it('a project the reader cannot view is a 404', async () => {
    const { ws, o, opsOnly, project } = await world()
    const outsider = await ws.addMember('guest')
    expect((await outsider.api.get(`${o}/projects/${project.id}/progress/history`)).status).toBe(404)
    const guest = await teamGuest(ws, 'view')
    expect((await guest.api.get(`${o}/projects/${opsOnly.id}/progress/history`)).status).toBe(404)
  })
})
