import { newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP tools for the hub', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('searches every workspace and reads and marks the inbox across them', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const alice = a.owner
    const memberId = newId('MemberId')
    const now = new Date().toISOString()
    await server.storage.transaction((s) =>
      s.members.insert({
        id: memberId,
        orgId: b.orgId,
        userId: alice.user.id,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    await a.api.post(`/v1/orgs/${a.orgId}/tasks`, { teamId: a.teamId, title: 'Launch plan' })
    const assigned = await b.api.post(`/v1/orgs/${b.orgId}/tasks`, {
      teamId: b.teamId,
      title: 'Launch review',
      assigneeId: memberId,
    })
    await server.engine.notify({ onError: (e) => console.error(e) })

    const client = await connect(server, await mcpToken(server, alice.user.id))
    const hints = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, hintsOf(t)]))
    expect(hints.search).toMatchObject({ readOnlyHint: true })
    expect(hints.inbox).toMatchObject({ readOnlyHint: false, destructiveHint: false })

    const found = await tool(client, 'search', { query: 'launch' })
    expect(found.partial).toEqual([])
    expect(found.results.map((r: any) => [r.workspace, r.key, r.title]).sort()).toEqual(
      [
        [a.orgId, 'ENG-1', 'Launch plan'],
        [b.orgId, 'ENG-1', 'Launch review'],
      ].sort(),
    )
    const inB = await tool(client, 'search', { query: 'launch', workspace: b.orgId, types: ['task'] })
    expect(inB.results.map((r: any) => r.id)).toEqual([assigned.body.id])

    const inbox = await tool(client, 'inbox', {})
    expect(inbox.notifications).toEqual([
      expect.objectContaining({ workspace: b.orgId, kind: 'assigned', state: 'unread' }),
    ])
    const marked = await tool(client, 'inbox', {
      markRead: [{ workspace: b.orgId, id: inbox.notifications[0].id }],
    })
    expect(marked.updated).toEqual([{ workspace: b.orgId, action: 'read', updated: 1 }])
    expect((await tool(client, 'inbox', { unreadOnly: true })).notifications).toEqual([])
  })
})
