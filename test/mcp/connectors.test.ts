import { afterAll, beforeAll, expect, it } from 'vitest'
import { activeConnection } from '../support/connectors.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

// The server's stand-in GitHub (support/connectors.ts) answers every item read with "Sample issue".
describeEachDatabase('MCP link_item', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('links a URL to a task by key, read through the caller’s connection, and needs connectors:link', async () => {
    const ws = await newWorkspace(server)
    const task = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Fix' })).body
    const owner = (await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id)))!
    await activeConnection(server, ws.orgId, owner.id, ws.owner.user.id)
    const scopes = ['work:read', 'work:write', 'connectors:link']
    const client = await connect(server, await mcpToken(server, ws.owner.user.id, scopes))
    const url = 'https://github.com/acme/api/issues/9'
    const linked = await tool(client, 'link_item', { task: task.key, url })
    expect(linked).toMatchObject({ url, provider: 'github', title: 'Sample issue', state: 'open' })
    const token = await server.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes })
    const items = await server.as(token).get(`/v1/orgs/${ws.orgId}/tasks/${task.id}/linked-items`)
    expect(items.body.data.map((i: any) => i.id)).toEqual([linked.id])

    const without = await connect(server, await mcpToken(server, ws.owner.user.id))
    // A token without connectors:link gets the MCP step-up 403 (insufficient_scope) and links nothing.
    await expect(
      tool(without, 'link_item', { task: task.key, url: 'https://example.com/x' }),
    ).rejects.toThrow(/Insufficient scope/)
    expect(
      (await server.as(token).get(`/v1/orgs/${ws.orgId}/tasks/${task.id}/linked-items`)).body.data,
    ).toHaveLength(1)
  })
})
