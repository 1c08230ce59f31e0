import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP decide_approval', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A member drives a session whose agent asked to delete a task: one pending request. */
  async function pendingRequest() {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const driver = await ws.addMember('member')
    const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
    await ws.api.post(`${base}/grants`, {
      subjectType: 'agent',
      subjectId: agent.id,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'manage',
    })
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Investigate' })).body
    const driverClient = await connect(server, await mcpToken(server, driver.user.id))
    const runner = server.as(
      await server.engine.tokens.issueAccessToken({
        userId: driver.user.id,
        scopes: ['work:read', 'work:write', 'agents:run'],
      }),
    )
    const session = (await runner.post(`${base}/agent-sessions`, { agentId: agent.id, taskId: task.id })).body
    const request = (
      await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
        operationId: 'tasks.delete',
        params: { taskId: task.id },
      })
    ).body.approvalRequest
    return { ws, base, task, session, request, driverClient }
  }

  it('sends a request back with feedback the session reads, and the task stays', async () => {
    const { ws, base, task, session, request } = await pendingRequest()
    const owner = await connect(server, await mcpToken(server, ws.owner.user.id))
    const sent = await tool(owner, 'decide_approval', {
      approval: request.id,
      decision: 'request_changes',
      reason: 'Archive it instead.',
    })
    expect(sent).toMatchObject({ state: 'changes_requested' })
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).status).toBe(200)
    const log = (await ws.api.get(`${base}/agent-sessions/${session.id}/activities`)).body.data
    expect(log.at(-1)).toMatchObject({ kind: 'prompt', content: 'Archive it instead.' })
    // Feedback is the point of sending it back: without a reason nothing changes.
    const again = await pendingRequest()
    const owner2 = await connect(server, await mcpToken(server, again.ws.owner.user.id))
    const empty = await tool(owner2, 'decide_approval', {
      approval: again.request.id,
      decision: 'request_changes',
    })
    expect(empty.error).toMatchObject({ code: 'validation_failed' })
    expect((await again.ws.api.get(`${again.base}/approval-requests/${again.request.id}`)).body.state).toBe(
      'pending',
    )
  })

  it('lets the driver withdraw the request; someone else may not', async () => {
    const { ws, base, request, driverClient } = await pendingRequest()
    const other = await ws.addMember('member')
    const stranger = await connect(server, await mcpToken(server, other.user.id))
    const refused = await tool(stranger, 'decide_approval', { approval: request.id, decision: 'cancel' })
    expect(refused.error).toBeDefined()
    expect((await ws.api.get(`${base}/approval-requests/${request.id}`)).body.state).toBe('pending')
    const canceled = await tool(driverClient, 'decide_approval', { approval: request.id, decision: 'cancel' })
    expect(canceled).toMatchObject({ state: 'canceled' })
  })
})
