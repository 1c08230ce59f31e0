import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP triage tool', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('accepts, declines, marks duplicates and snoozes triage items by key', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    await ws.api.patch(`${base}/teams/${ws.teamId}/settings`, { triageEnabled: true })
    const guest = await teamGuest(ws, 'comment')
    const file = async (title: string) =>
      (await guest.api.post(`${base}/teams/${ws.teamId}/triage`, { title })).body
    const [a, b, c, d] = [await file('A'), await file('B'), await file('C'), await file('D')]
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))

    const accepted = await tool(client, 'triage', { task: a.key, action: 'accept', state: 'Todo' })
    expect(accepted).toMatchObject({ key: a.key })
    expect((await ws.api.get(`${base}/tasks/${a.id}`)).body.stateId).toBe(ws.states.Todo!.id)

    await tool(client, 'triage', { task: b.key, action: 'decline', reason: 'Out of scope' })
    expect((await ws.api.get(`${base}/tasks/${b.id}`)).body.stateCategory).toBe('canceled')

    await tool(client, 'triage', { task: c.key, action: 'duplicate', duplicateOf: a.key })
    expect((await ws.api.get(`${base}/tasks/${c.id}/relations`)).body.data[0]).toMatchObject({
      type: 'duplicateOf',
      task: { id: a.id },
    })

    const until = '2099-01-01T00:00:00.000Z'
    expect(await tool(client, 'triage', { task: d.key, action: 'snooze', until })).toEqual({
      task: d.key,
      snoozedUntil: until,
    })
    expect((await ws.api.get(`${base}/teams/${ws.teamId}/triage`)).body.data).toEqual([])

    const missing = await tool(client, 'triage', { task: d.key, action: 'decline' })
    expect(missing.error).toMatchObject({ code: 'validation_failed' })
    const done = await tool(client, 'triage', { task: a.key, action: 'accept' })
    expect(done.error).toMatchObject({ code: 'not_in_triage' })
  })
})
