import type { UserId } from '@workgraph/core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
/** A Monday, noon UTC. The server's clock reads `now`, which the test moves on. */
const START = Date.parse('2030-03-04T12:00:00.000Z')

describeEachDatabase('insights', (db) => {
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
  /** Access tokens live 15 minutes of the server's clock: after moving it, sign in again. */
  async function as(userId: UserId) {
    const token = await server.engine.tokens.issueAccessToken({ userId, scopes: ['work:read', 'work:write'] })
    return server.as(token)
  }

  it('computes burndown, throughput, cycle time, velocity and workload over what the reader can see', async () => {
    const ws: TestWorkspace = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const owner = (await ws.api.get(`${base}/members`)).body.data[0].id
    const guest = await teamGuest(ws, 'view')
    const cycle = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt: iso(0), endsAt: iso(7) })
    ).body
    const task = async (api: TestWorkspace['api'], body: Record<string, unknown>) => {
      const res = await api.post(`${base}/tasks`, { teamId: ws.teamId, ...body })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return res.body.id as string
    }
    const a = await task(ws.api, { title: 'A', estimate: 2, cycleId: cycle.id, assigneeId: owner })
    const b = await task(ws.api, { title: 'B', estimate: 3, cycleId: cycle.id })
    const c = await task(ws.api, { title: 'C', dueDate: '2030-03-05' })
    await task(ws.api, { title: 'Dropped', estimate: 8, cycleId: cycle.id, stateId: ws.states.Canceled!.id })
    // Another team the guest cannot see.
    const ops = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
    const opsCycle = (
      await ws.api.post(`${base}/teams/${ops.id}/cycles`, { startsAt: iso(0), endsAt: iso(7) })
    ).body
    const hidden = await ws.api.post(`${base}/tasks`, {
      teamId: ops.id,
      title: 'E',
      estimate: 5,
      assigneeId: owner,
    })
    expect(hidden.status).toBe(201)

    // Day 1: D joins, C moves into the cycle, A and B start.
    now = START + DAY
    let api = await as(ws.owner.user.id)
    await task(api, { title: 'D', estimate: 1, cycleId: cycle.id, assigneeId: owner })
    expect((await api.patch(`${base}/tasks/${c}`, { cycleId: cycle.id })).status).toBe(200)
    for (const id of [a, b]) await api.patch(`${base}/tasks/${id}`, { stateId: ws.states['In Progress']!.id })
    // Day 2: A and B are done.
    now = START + 2 * DAY
    api = await as(ws.owner.user.id)
    for (const id of [a, b]) await api.patch(`${base}/tasks/${id}`, { stateId: ws.states.Done!.id })

    const burndown = await api.get(`${base}/cycles/${cycle.id}/burndown`)
    expect(burndown.status).toBe(200)
    expect(burndown.body).toMatchObject({ cycleId: cycle.id, teamId: ws.teamId })
    expect(burndown.body.days).toEqual([
      {
        date: '2030-03-04',
        scopeCount: 2,
        scopePoints: 5,
        addedCount: 2,
        addedPoints: 5,
        completedCount: 0,
        completedPoints: 0,
        remainingCount: 2,
        remainingPoints: 5,
      },
      {
        date: '2030-03-05',
        scopeCount: 4,
        scopePoints: 6,
        addedCount: 2,
        addedPoints: 1,
        completedCount: 0,
        completedPoints: 0,
        remainingCount: 4,
        remainingPoints: 6,
      },
      {
        date: '2030-03-06',
        scopeCount: 4,
        scopePoints: 6,
        addedCount: 0,
        addedPoints: 0,
        completedCount: 2,
        completedPoints: 5,
        remainingCount: 2,
        remainingPoints: 1,
      },
    ])

    const throughput = await api.get(`${base}/teams/${ws.teamId}/insights/throughput?weeks=2`)
    expect(throughput.body).toEqual({
      teamId: ws.teamId,
      weeks: [
        { weekStart: '2030-02-25', createdCount: 0, completedCount: 0, completedPoints: 0 },
        { weekStart: '2030-03-04', createdCount: 5, completedCount: 2, completedPoints: 5 },
      ],
    })
    expect((await api.get(`${base}/teams/${ws.teamId}/insights/throughput`)).body.weeks).toHaveLength(12)
    const tooMany = await api.get(`${base}/teams/${ws.teamId}/insights/throughput?weeks=53`)
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'validation_failed' } })

    const cycleTime = await api.get(`${base}/teams/${ws.teamId}/insights/cycle-time?weeks=1`)
    expect(cycleTime.body.weeks).toEqual([
      {
        weekStart: '2030-03-04',
        completedCount: 2,
        averageHours: 24,
        minHours: 24,
        maxHours: 24,
        averageLeadHours: 48,
      },
    ])

    // A later cycle has not started: velocity lists only the started one, not completed yet.
    await api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt: iso(7), endsAt: iso(14) })
    const velocity = await api.get(`${base}/teams/${ws.teamId}/insights/velocity`)
    expect(velocity.body).toMatchObject({
      teamId: ws.teamId,
      cycles: [
        {
          cycleId: cycle.id,
          number: 1,
          completedAt: null,
          scopeCount: 4,
          scopePoints: 6,
          completedCount: 2,
          completedPoints: 5,
        },
      ],
      averageCompletedPoints: null,
      averageCompletedCount: null,
    })
    // Completing it rolls C and D over; the averages then count it.
    expect((await api.post(`${base}/cycles/${cycle.id}/complete`)).status).toBe(200)
    const after = (await api.get(`${base}/teams/${ws.teamId}/insights/velocity?cycles=1`)).body
    expect(after.cycles).toHaveLength(1)
    expect(after.cycles[0]).toMatchObject({ scopeCount: 2, completedCount: 2, completedPoints: 5 })
    expect(after).toMatchObject({ averageCompletedPoints: 5, averageCompletedCount: 2 })

    // Workload: the owner sees both teams; the guest only the team they were granted.
    const mine = await api.get(`${base}/insights/workload`)
    expect(mine.body.asOf).toBe(iso(2))
    expect(mine.body.assignees).toEqual([
      {
        assigneeId: owner,
        openCount: 2,
        openPoints: 6,
        startedCount: 0,
        overdueCount: 0,
        unestimatedCount: 0,
      },
      {
        assigneeId: null,
        openCount: 1,
        openPoints: 0,
        startedCount: 0,
        overdueCount: 1,
        unestimatedCount: 1,
      },
    ])
    const guestApi = await as(guest.user.id)
    const theirs = await guestApi.get(`${base}/insights/workload`)
    expect(theirs.body.assignees).toEqual([
      {
        assigneeId: owner,
        openCount: 1,
        openPoints: 1,
        startedCount: 0,
        overdueCount: 0,
        unestimatedCount: 0,
      },
      {
        assigneeId: null,
        openCount: 1,
        openPoints: 0,
        startedCount: 0,
        overdueCount: 1,
        unestimatedCount: 1,
      },
    ])
    const ofOps = await api.get(`${base}/insights/workload?teamId=${ops.id}`)
    expect(ofOps.body.assignees).toEqual([
      {
        assigneeId: owner,
        openCount: 1,
        openPoints: 5,
        startedCount: 0,
        overdueCount: 0,
        unestimatedCount: 0,
      },
    ])
    expect((await guestApi.get(`${base}/insights/workload?teamId=${ops.id}`)).status).toBe(404)
    expect((await guestApi.get(`${base}/teams/${ops.id}/insights/throughput`)).status).toBe(404)
    expect((await guestApi.get(`${base}/teams/${ops.id}/insights/cycle-time`)).status).toBe(404)
    expect((await guestApi.get(`${base}/teams/${ops.id}/insights/velocity`)).status).toBe(404)
    expect((await guestApi.get(`${base}/cycles/${opsCycle.id}/burndown`)).status).toBe(404)
    const guestBurndown = await guestApi.get(`${base}/cycles/${cycle.id}/burndown`)
    expect(guestBurndown.status).toBe(200)
    expect((await guestApi.get(`${base}/teams/${ws.teamId}/insights/throughput?weeks=1`)).body.weeks).toEqual(
      [{ weekStart: '2030-03-04', createdCount: 5, completedCount: 2, completedPoints: 5 }],
    )
  })

  it('answers an empty burndown before the cycle starts and 404 for a missing cycle', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const later = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt: iso(3), endsAt: iso(10) })
    ).body
    const res = await ws.api.get(`${base}/cycles/${later.id}/burndown`)
    expect(res.body.days).toEqual([])
    expect((await ws.api.get(`${base}/cycles/cyc_01JD3Q2R4S5T6V7W8X9YZABCDE/burndown`)).status).toBe(404)
    const empty = await ws.api.get(`${base}/insights/workload`)
    expect(empty.body.assignees).toEqual([])
  })
})
