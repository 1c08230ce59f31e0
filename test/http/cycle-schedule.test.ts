import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
/** A Monday, noon UTC: the server's clock. */
const START = Date.parse('2030-03-04T12:00:00.000Z')
const iso = (days: number) => new Date(START + days * DAY).toISOString()

describeEachDatabase('cycles: shift, start now, archive', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = START
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  beforeEach(() => {
    now = START
  })
  afterAll(() => server.drop())

  async function threeCycles() {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const cycles = `${base}/teams/${ws.teamId}/cycles`
    const past = (await ws.api.post(cycles, { startsAt: iso(-14), endsAt: iso(-1) })).body
    const active = (await ws.api.post(cycles, { startsAt: iso(-1), endsAt: iso(13) })).body
    const next = (await ws.api.post(cycles, { startsAt: iso(13), endsAt: iso(27) })).body
    const later = (await ws.api.post(cycles, { startsAt: iso(27), endsAt: iso(41) })).body
    return { ws, base, cycles, past, active, next, later }
  }

  it('shifts this and every later cycle; a started cycle keeps its start; earlier ones stay', async () => {
    const { ws, base, cycles, past, active, next, later } = await threeCycles()
    const shifted = await ws.api.post(`${base}/cycles/${active.id}/shift`, { days: 3 })
    expect(shifted.status).toBe(200)
    expect(shifted.body.data.map((c: any) => [c.id, c.startsAt, c.endsAt])).toEqual([
      [active.id, iso(-1), iso(16)],
      [next.id, iso(16), iso(30)],
      [later.id, iso(30), iso(44)],
    ])
    expect((await ws.api.get(`${base}/cycles/${past.id}`)).body.endsAt).toBe(iso(-1))
    const listed = (await ws.api.get(cycles)).body.data
    expect(listed.map((c: any) => c.endsAt)).toEqual([iso(-1), iso(16), iso(30), iso(44)])
    // Back again from the running cycle; moving only the next one back would overlap it.
    const clash = await ws.api.post(`${base}/cycles/${next.id}/shift`, { days: -3 })
    expect(clash.body).toMatchObject({ code: 'cycle_overlap', conflictingCycleId: active.id })
    const back = await ws.api.post(`${base}/cycles/${active.id}/shift`, { days: -3 })
    expect(back.body.data.map((c: any) => c.startsAt)).toEqual([iso(-1), iso(13), iso(27)])
  })

  it('refuses an overlap with an earlier cycle, a running cycle ending in the past, a completed cycle and 0', async () => {
    const { ws, base, past, active, next } = await threeCycles()
    const overlap = await ws.api.post(`${base}/cycles/${next.id}/shift`, { days: -2 })
    expect(overlap.status).toBe(409)
    expect(overlap.body).toMatchObject({ code: 'cycle_overlap', conflictingCycleId: active.id })
    const ended = await ws.api.post(`${base}/cycles/${active.id}/shift`, { days: -13 })
    expect(ended.status).toBe(422)
    expect(ended.body.errors[0].pointer).toBe('/body/days')
    const zero = await ws.api.post(`${base}/cycles/${active.id}/shift`, { days: 0 })
    expect(zero.status).toBe(422)
    await ws.api.post(`${base}/cycles/${past.id}/complete`)
    const completed = await ws.api.post(`${base}/cycles/${past.id}/shift`, { days: 1 })
    expect(completed.body.code).toBe('cycle_completed')
    // Nothing moved.
    expect((await ws.api.get(`${base}/cycles/${next.id}`)).body.startsAt).toBe(iso(13))
  })

  it('starts the next cycle now: the running one ends now and rolls its unfinished tasks over', async () => {
    const { ws, base, active, next, later } = await threeCycles()
    const todo = await ws.api.post(`${base}/tasks`, {
      teamId: ws.teamId,
      title: 'todo',
      stateId: ws.states.Todo!.id,
      cycleId: active.id,
    })
    const done = await ws.api.post(`${base}/tasks`, {
      teamId: ws.teamId,
      title: 'done',
      stateId: ws.states.Done!.id,
      cycleId: active.id,
    })
    const notNext = await ws.api.post(`${base}/cycles/${later.id}/start`)
    expect(notNext).toMatchObject({ status: 409, body: { code: 'conflict' } })

    const started = await ws.api.post(`${base}/cycles/${next.id}/start`)
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({
      cycle: { id: next.id, startsAt: iso(0), endsAt: iso(27), status: 'active' },
      completedCycleId: active.id,
      rolledOverTaskIds: [todo.body.id],
    })
    const ended = (await ws.api.get(`${base}/cycles/${active.id}`)).body
    expect(ended).toMatchObject({ status: 'completed', endsAt: iso(0), completedAt: iso(0) })
    expect((await ws.api.get(`${base}/tasks/${todo.body.id}`)).body.cycleId).toBe(next.id)
    expect((await ws.api.get(`${base}/tasks/${done.body.id}`)).body.cycleId).toBe(active.id)
    const again = await ws.api.post(`${base}/cycles/${next.id}/start`)
    expect(again).toMatchObject({ status: 409, body: { code: 'conflict' } })
  })

  it('archives only completed cycles, hides them from the list unless asked, and restores them', async () => {
    const { ws, base, cycles, past, active } = await threeCycles()
    const task = await ws.api.post(`${base}/tasks`, {
      teamId: ws.teamId,
      title: 'kept',
      stateId: ws.states.Done!.id,
      cycleId: past.id,
    })
    const open = await ws.api.post(`${base}/cycles/${active.id}/archive`)
    expect(open).toMatchObject({ status: 409, body: { code: 'conflict' } })
    await ws.api.post(`${base}/cycles/${past.id}/complete`)
    const archived = await ws.api.post(`${base}/cycles/${past.id}/archive`)
    expect(archived.status).toBe(200)
    expect(archived.body.archivedAt).toBe(iso(0))
    expect((await ws.api.get(cycles)).body.data.map((c: any) => c.id)).not.toContain(past.id)
    expect((await ws.api.get(`${cycles}?archived=only`)).body.data.map((c: any) => c.id)).toEqual([past.id])
    expect((await ws.api.get(`${cycles}?archived=include`)).body.data).toHaveLength(4)
    // Its tasks keep their cycle history.
    expect((await ws.api.get(`${base}/tasks/${task.body.id}`)).body.cycleId).toBe(past.id)
    const restored = await ws.api.post(`${base}/cycles/${past.id}/restore`)
    expect(restored.body.archivedAt).toBeNull()
    expect((await ws.api.get(cycles)).body.data).toHaveLength(4)
  })

  it('needs assign: a viewer gets 403 and an outsider 404, and nothing changes', async () => {
    const { ws, base, past, active, next } = await threeCycles()
    await ws.api.post(`${base}/cycles/${past.id}/complete`)
    const viewer = await teamGuest(ws, 'view')
    const outsider = await ws.addMember('guest')
    for (const [path, body] of [
      [`${base}/cycles/${active.id}/shift`, { days: 1 }],
      [`${base}/cycles/${next.id}/start`, undefined],
      [`${base}/cycles/${past.id}/archive`, undefined],
      [`${base}/cycles/${past.id}/restore`, undefined],
    ] as const) {
      const denied = await viewer.api.post(path, body)
      expect(denied, path).toMatchObject({ status: 403, body: { capability: 'assign' } })
      expect((await outsider.api.post(path, body)).status, path).toBe(404)
    }
    expect((await ws.api.get(`${base}/cycles/${next.id}`)).body.startsAt).toBe(iso(13))
    expect((await ws.api.get(`${base}/cycles/${past.id}`)).body.archivedAt).toBeNull()
  })
})
