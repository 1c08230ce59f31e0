import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

const DAY = 86_400_000

describeEachDatabase('MCP cycle_insights', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it("tells a cycle's progress in words and numbers, over what the caller sees", async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const startsAt = new Date(Date.now() - DAY).toISOString()
    const endsAt = new Date(Date.now() + 6 * DAY).toISOString()
    const cycle = (await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt, endsAt })).body
    for (const [title, state, estimate] of [
      ['Done', 'Done', 3],
      ['Open', 'Todo', 2],
    ] as const) {
      const res = await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title,
        estimate,
        cycleId: cycle.id,
        stateId: ws.states[state]!.id,
      })
      expect(res.status).toBe(201)
    }
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const hints = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, hintsOf(t)]))
    expect(hints.cycle_insights).toMatchObject({ readOnlyHint: true })

    const result = await tool(client, 'cycle_insights', { team: 'ENG' })
    expect(result.summary).toMatch(
      /^Cycle 1 \(active\): 1 of 2 tasks done \(50%\); 1 task and 2 points remain on /,
    )
    expect(result.cycle).toMatchObject({ number: 1, status: 'active' })
    expect(result.days.at(-1)).toMatchObject({ scope: 2, done: 1, remaining: 1, remainingPoints: 2 })
    expect(result.velocity).toEqual({
      averageCompletedPoints: null,
      recent: [{ number: 1, completedPoints: 3 }],
    })

    // A guest without the team cannot name it.
    const other = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
    const guest = await teamGuest(ws, 'view', other.id)
    const guestClient = await connect(server, await mcpToken(server, guest.user.id))
    expect((await tool(guestClient, 'cycle_insights', { team: 'ENG' })).error).toBeDefined()
  })
})
