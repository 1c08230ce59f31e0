import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
/** A Monday, noon UTC. The server's clock reads `now`, which each test moves on. */
const START = Date.parse('2030-03-04T12:00:00.000Z')

describeEachDatabase('cycle completion and rollover', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = START
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  beforeEach(() => {
    now = START
  })
  afterAll(() => server.drop())

  const iso = (days: number) => new Date(START + days * DAY).toISOString()

  /** Access tokens live 15 minutes of the server's clock: a test that moves it signs in again. */
  async function signIn(ws: Awaited<ReturnType<typeof newWorkspace>>) {
    const token = await server.engine.tokens.issueAccessToken({
      userId: ws.owner.user.id,
      scopes: ['work:read', 'work:write'],
    })
    return server.as(token)
  }

  async function plannedWork(ws: Awaited<ReturnType<typeof newWorkspace>>, cycleId: string) {
    const base = `/v1/orgs/${ws.orgId}`
    const ids: Record<string, string> = {}
    for (const [title, state] of [
      ['done', 'Done'],
      ['doing', 'In Progress'],
      ['todo', 'Todo'],
      ['dropped', 'Canceled'],
    ] as const) {
      const task = await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title,
        stateId: ws.states[state]!.id,
        cycleId,
      })
      expect(task.status).toBe(201)
      ids[title] = task.body.id
    }
    return ids
  }

  const eventsOf = (orgId: string) => server.storage.read((s) => s.events.list(orgId as never, 0, 10_000))

  it('completing a cycle moves its unfinished tasks to the next one, with history and events', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const cycles = `${base}/teams/${ws.teamId}/cycles`
    const first = (await ws.api.post(cycles, { startsAt: iso(-1), endsAt: iso(13) })).body
    const second = (await ws.api.post(cycles, { startsAt: iso(13), endsAt: iso(27) })).body
    const ids = await plannedWork(ws, first.id)
    const before = (await eventsOf(ws.orgId)).length

    const done = await ws.api.post(`${base}/cycles/${first.id}/complete`)
    expect(done.status).toBe(200)
    expect(done.body.cycle).toMatchObject({ id: first.id, status: 'completed', completedAt: iso(0) })
    expect(done.body.nextCycleId).toBe(second.id)
    expect([...done.body.rolledOverTaskIds].sort()).toEqual([ids.doing, ids.todo].sort())
    for (const [title, cycleId] of [
      ['done', first.id],
      ['dropped', first.id],
      ['doing', second.id],
      ['todo', second.id],
    ]) {
      expect((await ws.api.get(`${base}/tasks/${ids[title]}`)).body.cycleId, title).toBe(cycleId)
    }
    const history = (await ws.api.get(`${base}/tasks/${ids.doing}/history`)).body.data
    expect(history[0]).toMatchObject({ field: 'cycleId', before: first.id, after: second.id })
    expect(history[0].actorId).toMatch(/^mem_/)
    const events = (await eventsOf(ws.orgId)).slice(before)
    expect(events.map((e) => e.kind).sort()).toEqual(['cycle.completed', 'task.updated', 'task.updated'])
    expect(events.find((e) => e.kind === 'task.updated')!.data.changes).toMatchObject({
      cycleId: { before: first.id, after: second.id },
    })

    const again = await ws.api.post(`${base}/cycles/${first.id}/complete`)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('cycle_completed')
    const late = await ws.api.patch(`${base}/tasks/${ids.doing}`, { cycleId: first.id })
    expect(late.body).toMatchObject({ code: 'cycle_completed', errors: [{ pointer: '/body/cycleId' }] })
  })

  it('without a next cycle or a cadence, unfinished tasks stay in the completed cycle', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const cycle = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt: iso(-1), endsAt: iso(6) })
    ).body
    const ids = await plannedWork(ws, cycle.id)
    const done = await ws.api.post(`${base}/cycles/${cycle.id}/complete`)
    expect(done.body).toMatchObject({ nextCycleId: null, rolledOverTaskIds: [] })
    expect((await ws.api.get(`${base}/tasks/${ids.todo}`)).body.cycleId).toBe(cycle.id)
  })

  it('when the clock passes the end, the engine completes the cycle and rolls over into a cadence cycle', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const settings = await ws.api.patch(`${base}/teams/${ws.teamId}/cycle-settings`, {
      enabled: true,
      durationWeeks: 2,
      startWeekday: 'monday',
      autoCreateCount: 1,
    })
    expect(settings.status).toBe(200)
    const created = (await ws.api.get(`${base}/teams/${ws.teamId}/cycles`)).body.data
    // Today is a Monday: the first cycle starts at its midnight and is active; one more is upcoming.
    expect(created.map((c: any) => [c.number, c.status, c.startsAt])).toEqual([
      [1, 'active', '2030-03-04T00:00:00.000Z'],
      [2, 'upcoming', '2030-03-18T00:00:00.000Z'],
    ])
    const ids = await plannedWork(ws, created[0].id)
    const before = (await eventsOf(ws.orgId)).length

    now = START + 15 * DAY
    const pass = await server.engine.advanceCycles()
    expect(pass.failed).toBe(0)
    const api = await signIn(ws)
    const cycles = (await api.get(`${base}/teams/${ws.teamId}/cycles`)).body.data
    expect(cycles.map((c: any) => [c.number, c.status])).toEqual([
      [1, 'completed'],
      [2, 'active'],
      [3, 'upcoming'],
    ])
    expect((await api.get(`${base}/tasks/${ids.todo}`)).body.cycleId).toBe(cycles[1].id)
    expect((await api.get(`${base}/tasks/${ids.done}`)).body.cycleId).toBe(cycles[0].id)
    const history = (await api.get(`${base}/tasks/${ids.todo}/history`)).body.data[0]
    expect(history).toMatchObject({
      field: 'cycleId',
      before: cycles[0].id,
      after: cycles[1].id,
      actorId: null,
    })
    const events = (await eventsOf(ws.orgId)).slice(before)
    expect(events.map((e) => e.kind).sort()).toEqual([
      'cycle.completed',
      'cycle.created',
      'task.updated',
      'task.updated',
    ])
    expect(events.every((e) => e.actorId === null)).toBe(true)

    // A second pass at the same time finds nothing to do.
    const idle = await server.engine.advanceCycles()
    expect((await eventsOf(ws.orgId)).length).toBe(before + events.length)
    expect(idle.failed).toBe(0)
  })

  it('after a long pause the cadence restarts from today, not in the past', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const old = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt: iso(-1), endsAt: iso(6) })
    ).body
    const ids = await plannedWork(ws, old.id)
    await ws.api.patch(`${base}/teams/${ws.teamId}/cycle-settings`, {
      enabled: true,
      durationWeeks: 1,
      startWeekday: 'friday',
      autoCreateCount: 0,
    })
    now = START + 61 * DAY // a Saturday
    await server.engine.advanceCycles()
    const api = await signIn(ws)
    const cycles = (await api.get(`${base}/teams/${ws.teamId}/cycles`)).body.data
    expect(cycles.map((c: any) => c.status)).toEqual(['completed', 'upcoming'])
    expect(cycles[1].startsAt).toBe('2030-05-10T00:00:00.000Z')
    expect((await api.get(`${base}/tasks/${ids.doing}`)).body.cycleId).toBe(cycles[1].id)
  })
})
