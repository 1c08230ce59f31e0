import { newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP tools portfolio, agenda and whats_new', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('reads what I lead across workspaces, its dates, and what changed', async () => {
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
    const since = new Date(Date.now() - 1000).toISOString()
    const target = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
    const project = (
      await b.api.post(`/v1/orgs/${b.orgId}/projects`, {
        name: 'Launch',
        teamIds: [b.teamId],
        leadId: memberId,
        targetDate: target,
      })
    ).body
    await b.api.post(`/v1/orgs/${b.orgId}/projects/${project.id}/updates`, { body: 'Late', health: 'atRisk' })

    const client = await connect(server, await mcpToken(server, alice.user.id))
    const portfolio = await tool(client, 'portfolio', {})
    expect(portfolio.data).toEqual([
      expect.objectContaining({
        orgId: b.orgId,
        id: project.id,
        health: 'atRisk',
        relations: ['lead', 'member', 'follower'],
      }),
    ])
    const today = new Date().toISOString().slice(0, 10)
    const agenda = await tool(client, 'agenda', { from: today, to: target })
    expect(agenda.data).toEqual([expect.objectContaining({ kind: 'projectTarget', id: project.id })])
    const news = await tool(client, 'whats_new', { since })
    expect(news.data.map((r: any) => [r.id, r.updates.length])).toEqual([[project.id, 1]])
  })
})
