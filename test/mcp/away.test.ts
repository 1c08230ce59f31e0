import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP set_away', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('declares a period away, which colleagues see; an overlapping one is refused', async () => {
    const ws = await newWorkspace(server)
    const person = await ws.addMember('member')
    const client = await connect(server, await mcpToken(server, person.user.id))
    const DAY_MS = 86_400_000
    const day = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10)
    const set = await tool(client, 'set_away', { from: day(-1), to: day(5), note: 'Conference' })
    expect(set).toEqual({ id: expect.stringMatching(/^awy_/), from: day(-1), to: day(5), note: 'Conference' })
    const member = await ws.api.get(`/v1/orgs/${ws.orgId}/members/${person.memberId}`)
    expect(member.body.away).toEqual({ until: day(5) })
    const again = await tool(client, 'set_away', { from: day(5), to: day(6) })
    expect(again.error).toMatchObject({ code: 'conflict' })
    expect((await person.api.get('/v1/me/away')).body.data).toHaveLength(1)
  })
})
