import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString()

describeEachDatabase('cycles', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('creates numbered cycles with a status from the clock, and gets, updates and deletes them', async () => {
    const ws = await newWorkspace(server)
    const cycles = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`
    const past = await ws.api.post(cycles, { startsAt: at(-20), endsAt: at(-10) })
    const active = await ws.api.post(cycles, { name: 'Launch', startsAt: at(-3), endsAt: at(11) })
    const upcoming = await ws.api.post(cycles, { startsAt: at(11), endsAt: at(25) })
    expect([past.status, active.status, upcoming.status]).toEqual([201, 201, 201])
    expect(active.headers.get('location')).toBe(`/v1/orgs/${ws.orgId}/cycles/${active.body.id}`)
    expect(active.body).toMatchObject({ id: expect.stringMatching(/^cyc_/), number: 2, name: 'Launch' })
    expect([past.body.status, active.body.status, upcoming.body.status]).toEqual([
      'past',
      'active',
      'upcoming',
    ])

    const item = `/v1/orgs/${ws.orgId}/cycles/${upcoming.body.id}`
    const renamed = await ws.api.patch(item, { name: 'Polish', endsAt: at(30) })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ name: 'Polish', number: 3 })
    expect((await ws.api.get(item)).body.endsAt).toBe(renamed.body.endsAt)

    expect((await ws.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    // Numbers continue from the team's highest one.
    expect((await ws.api.post(cycles, { startsAt: at(40), endsAt: at(50) })).body.number).toBe(3)
  })

  it('refuses overlapping dates with cycle_overlap and an end before the start, changing nothing', async () => {
    const ws = await newWorkspace(server)
    const cycles = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`
    const first = await ws.api.post(cycles, { startsAt: at(0), endsAt: at(14) })
    const clash = await ws.api.post(cycles, { startsAt: at(13), endsAt: at(20) })
    expect(clash.status).toBe(409)
    expect(clash.body).toMatchObject({ code: 'cycle_overlap', conflictingCycleId: first.body.id })
    const backwards = await ws.api.post(cycles, { startsAt: at(30), endsAt: at(29) })
    expect(backwards.status).toBe(422)
    expect(backwards.body.errors[0].pointer).toBe('/body/endsAt')
    // Touching ends do not overlap: a cycle ends where the next begins.
    const next = await ws.api.post(cycles, { startsAt: first.body.endsAt, endsAt: at(28) })
    expect(next.status).toBe(201)
    const moved = await ws.api.patch(`/v1/orgs/${ws.orgId}/cycles/${next.body.id}`, { startsAt: at(10) })
    expect(moved.body.code).toBe('cycle_overlap')
    expect((await ws.api.get(cycles)).body.data).toHaveLength(2)
    // Another team's cycles never clash.
    const other = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })
    const parallel = await ws.api.post(`/v1/orgs/${ws.orgId}/teams/${other.body.id}/cycles`, {
      startsAt: at(0),
      endsAt: at(14),
    })
    expect(parallel.body.number).toBe(1)
  })

  it('lists cycles by start, filtered by status, page by page', async () => {
    const ws = await newWorkspace(server)
    const cycles = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await ws.api.post(cycles, { startsAt: at(-14 + i * 7), endsAt: at(-7 + i * 7) })).body.id)
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${cycles}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      seen.push(...page.body.data.map((c: any) => c.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(ids)
    const upcoming = await ws.api.get(`${cycles}?status=upcoming`)
    expect(upcoming.body.data.map((c: any) => c.id)).toEqual(ids.slice(3))
    const active = await ws.api.get(`${cycles}?status=active`)
    expect(active.body.data.map((c: any) => c.id)).toEqual([ids[2]])
    const pastCursor = (await ws.api.get(`${cycles}?status=past&limit=1`)).body.nextCursor
    expect((await ws.api.get(`${cycles}?status=upcoming&cursor=${pastCursor}`)).body.code).toBe(
      'invalid_cursor',
    )
  })

  it("adds and removes tasks, keeps a task's cycle within its team, and counts progress by category", async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const cycle = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt: at(0), endsAt: at(14) })
    ).body
    const mk = async (title: string, estimate: number | null, state: string) =>
      (
        await ws.api.post(`${base}/tasks`, {
          teamId: ws.teamId,
          title,
          estimate,
          stateId: ws.states[state]!.id,
        })
      ).body
    const a = await mk('A', 3, 'Done')
    const b = await mk('B', 5, 'In Progress')
    const c = await mk('C', null, 'Todo')
    const d = await mk('D', 2, 'Canceled')
    const added = await ws.api.post(`${base}/tasks/batch-update`, {
      items: [a.id, b.id, d.id].map((id) => ({ id, cycleId: cycle.id })),
    })
    expect(added.status).toBe(200)
    expect(added.body.data.map((t: any) => t.cycleId)).toEqual([cycle.id, cycle.id, cycle.id])
    // Planning through the task itself works too.
    expect((await ws.api.patch(`${base}/tasks/${c.id}`, { cycleId: cycle.id })).body.cycleId).toBe(cycle.id)

    const progress = await ws.api.get(`${base}/cycles/${cycle.id}/progress`)
    expect(progress.body).toMatchObject({
      total: { tasks: 4, points: 10 },
      byCategory: {
        completed: { tasks: 1, points: 3 },
        started: { tasks: 1, points: 5 },
        unstarted: { tasks: 1, points: 0 },
        canceled: { tasks: 1, points: 2 },
        backlog: { tasks: 0, points: 0 },
      },
    })
    expect(progress.body.completedRatio).toBeCloseTo(3 / 8)
    const inCycle = await ws.api.get(`${base}/tasks?cycleId=${cycle.id}&sort=createdAt`)
    expect(inCycle.body.data.map((t: any) => t.title)).toEqual(['A', 'B', 'C', 'D'])

    // Out of the cycle is `tasks.update` with `cycleId: null`: the task stays, in no cycle.
    const out = await ws.api.patch(`${base}/tasks/${b.id}`, { cycleId: null })
    expect(out.status).toBe(200)
    expect((await ws.api.get(`${base}/tasks/${b.id}`)).body.cycleId).toBeNull()
    const outAgain = await ws.api.patch(`${base}/tasks/${b.id}`, { cycleId: null })
    expect(outAgain.body.updatedAt).toBe(out.body.updatedAt)
    const left = await ws.api.get(`${base}/tasks?cycleId=${cycle.id}&sort=createdAt`)
    expect(left.body.data.map((t: any) => t.title)).toEqual(['A', 'C', 'D'])

    // A task of another team cannot join; the failing item is named and nothing changes.
    const design = await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })
    const foreign = (await ws.api.post(`${base}/tasks`, { teamId: design.body.id, title: 'F' })).body
    const refused = await ws.api.post(`${base}/tasks/batch-update`, {
      items: [b.id, foreign.id].map((id) => ({ id, cycleId: cycle.id })),
    })
    expect(refused.status).toBe(422)
    expect(refused.body).toMatchObject({
      code: 'reference_not_found',
      errors: [{ pointer: '/body/items/1/cycleId' }],
    })
    expect((await ws.api.get(`${base}/tasks/${b.id}`)).body.cycleId).toBeNull()
    const direct = await ws.api.post(`${base}/tasks`, {
      teamId: design.body.id,
      title: 'G',
      cycleId: cycle.id,
    })
    expect(direct.body).toMatchObject({ code: 'reference_not_found', errors: [{ pointer: '/body/cycleId' }] })

    // Deleting the cycle leaves its tasks in no cycle.
    await ws.api.delete(`${base}/cycles/${cycle.id}`)
    expect((await ws.api.get(`${base}/tasks/${a.id}`)).body.cycleId).toBeNull()
  })

  it('needs assign to plan cycles, contribute to add a task, manage to change the cadence', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const cycle = (await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt: at(0), endsAt: at(7) }))
      .body
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const guest = await ws.addMember('guest')
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'contribute',
    })
    const create = await guest.api.post(`${base}/teams/${ws.teamId}/cycles`, {
      startsAt: at(7),
      endsAt: at(14),
    })
    expect(create.body).toMatchObject({ code: 'capability_required', capability: 'assign' })
    const planned = await guest.api.post(`${base}/tasks/batch-update`, {
      items: [{ id: task.id, cycleId: cycle.id }],
    })
    expect(planned.status).toBe(200)
    const member = await ws.addMember('member')
    const settings = `${base}/teams/${ws.teamId}/cycle-settings`
    expect((await member.api.get(settings)).body).toMatchObject({ enabled: false, durationWeeks: 2 })
    expect((await member.api.patch(settings, { enabled: true })).body.code).toBe('capability_required')
  })

  it('turning the cadence on creates the upcoming cycles at once, on the start weekday', async () => {
    const ws = await newWorkspace(server)
    const settings = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycle-settings`
    const on = await ws.api.patch(settings, {
      enabled: true,
      durationWeeks: 1,
      cooldownWeeks: 1,
      startWeekday: 'wednesday',
      autoCreateCount: 2,
    })
    expect(on.status).toBe(200)
    expect(on.body).toMatchObject({ enabled: true, durationWeeks: 1, cooldownWeeks: 1, autoCreateCount: 2 })
    expect(on.headers.get('etag')).toBeTruthy()
    const list = (await ws.api.get(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`)).body.data
    const upcoming = list.filter((c: any) => c.status === 'upcoming')
    expect(upcoming).toHaveLength(2)
    for (const c of list) {
      expect(new Date(c.startsAt).getUTCDay()).toBe(3)
      expect(Date.parse(c.endsAt) - Date.parse(c.startsAt)).toBe(7 * DAY)
    }
    expect(Date.parse(list[1].startsAt) - Date.parse(list[0].endsAt)).toBe(7 * DAY)
    // The same settings again change nothing.
    await ws.api.patch(settings, { enabled: true })
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`)).body.data).toHaveLength(
      list.length,
    )
  })
})
