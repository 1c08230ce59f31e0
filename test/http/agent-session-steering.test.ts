import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('steering agent sessions: feedback, withdrawal, prompts and session details', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const runnerOf = async (userId: string) =>
    server.as(
      await server.engine.tokens.issueAccessToken({
        userId: userId as never,
        scopes: ['work:read', 'work:write', 'agents:run'],
      }),
    )

  /** A session on a task, driven by a member, with one pending request to delete the task. */
  async function setup() {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const driver = await ws.addMember('member')
    const runner = await runnerOf(driver.user.id)
    const owner = await runnerOf(ws.owner.user.id)
    const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
    await ws.api.post(`${base}/grants`, {
      subjectType: 'agent',
      subjectId: agent.id,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'manage',
    })
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Investigate' })).body
    const session = (await runner.post(`${base}/agent-sessions`, { agentId: agent.id, taskId: task.id })).body
    const request = (
      await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
        operationId: 'tasks.delete',
        params: { taskId: task.id },
      })
    ).body.approvalRequest
    const sessionPath = `${base}/agent-sessions/${session.id}`
    const requestPath = `${base}/approval-requests/${request.id}`
    return { ws, base, driver, runner, owner, agent, task, session, request, sessionPath, requestPath }
  }

  const kinds = async (orgId: string) =>
    (await server.storage.read((s) => s.events.list(orgId as never, 0, 1000))).map((e) => e.kind)

  it('sends a proposed action back with feedback: nothing happens, the session is active and reads it', async () => {
    const { ws, base, owner, task, sessionPath, requestPath } = await setup()
    const sent = await owner.post(`${requestPath}/request-changes`, { feedback: 'Archive it instead.' })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({
      state: 'changes_requested',
      reason: 'Archive it instead.',
      decidedBy: expect.stringMatching(/^mem_/),
    })
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).status).toBe(200)
    expect((await ws.api.get(sessionPath)).body.state).toBe('active')
    const log = (await ws.api.get(`${sessionPath}/activities`)).body.data
    expect(log.at(-1)).toMatchObject({
      kind: 'prompt',
      content: 'Archive it instead.',
      data: { approvalRequestId: sent.body.id },
    })
    expect(await kinds(ws.orgId)).toContain('approval_request.changes_requested')
    // Decided: no second decision of any kind.
    expect((await owner.post(`${requestPath}/approve`)).body.code).toBe('approval_closed')
    expect((await owner.post(`${requestPath}/request-changes`, { feedback: 'again' })).status).toBe(409)
  })

  it("answers 409 agent_inactive to approving a deactivated agent's request; it stays pending and runs once reactivated", async () => {
    const { ws, base, owner, agent, task, requestPath } = await setup()
    expect((await ws.api.post(`${base}/agents/${agent.id}/deactivate`)).status).toBe(200)
    const refused = await owner.post(`${requestPath}/approve`)
    expect(refused.body).toMatchObject({ status: 409, code: 'agent_inactive' })
    expect((await ws.api.get(requestPath)).body.state).toBe('pending')
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).status).toBe(200)
    expect((await ws.api.post(`${base}/agents/${agent.id}/reactivate`)).status).toBe(200)
    expect((await owner.post(`${requestPath}/approve`)).body.state).toBe('approved')
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).status).toBe(404)
  })

  it('lets only someone who may approve send it back', async () => {
    const { ws, runner, requestPath, sessionPath } = await setup()
    const denied = await runner.post(`${requestPath}/request-changes`, { feedback: 'I changed my mind' })
    expect(denied.body).toMatchObject({ code: 'capability_required', capability: 'manage' })
    expect((await ws.api.get(requestPath)).body.state).toBe('pending')
    expect((await ws.api.get(sessionPath)).body.state).toBe('awaiting_approval')
    const empty = await runner.post(`${requestPath}/request-changes`, { feedback: '' })
    expect(empty.status).toBe(400)
  })

  it('lets the driver withdraw a pending request; the session goes back to active', async () => {
    const { ws, runner, owner, requestPath, sessionPath } = await setup()
    expect((await owner.post(`${requestPath}/cancel`, {})).body).toMatchObject({
      status: 403,
      code: 'capability_required',
    })
    const canceled = await runner.post(`${requestPath}/cancel`, { reason: 'Duplicate' })
    expect(canceled.body).toMatchObject({ state: 'canceled', reason: 'Duplicate' })
    expect((await ws.api.get(sessionPath)).body.state).toBe('active')
    expect(await kinds(ws.orgId)).toContain('approval_request.canceled')
    expect((await runner.post(`${requestPath}/cancel`, {})).body).toMatchObject({
      status: 409,
      code: 'approval_closed',
      state: 'canceled',
    })
  })

  it('refuses to cancel an approved request (409) and to approve a canceled one', async () => {
    const first = await setup()
    await first.owner.post(`${first.requestPath}/approve`)
    const late = await first.runner.post(`${first.requestPath}/cancel`, {})
    expect(late.body).toMatchObject({ status: 409, code: 'approval_closed', state: 'approved' })
    const second = await setup()
    await second.runner.post(`${second.requestPath}/cancel`, {})
    expect((await second.owner.post(`${second.requestPath}/approve`)).body.code).toBe('approval_closed')
    expect((await second.ws.api.get(`${second.base}/tasks/${second.task.id}`)).status).toBe(200)
  })

  it('hides requests and sessions from outsiders and other orgs', async () => {
    const { base, requestPath, sessionPath, owner } = await setup()
    const outsider = await runnerOf((await newPerson(server.engine)).user.id)
    expect((await outsider.post(`${requestPath}/cancel`, {})).status).toBe(404)
    expect((await outsider.post(`${requestPath}/request-changes`, { feedback: 'x' })).status).toBe(404)
    expect((await outsider.post(`${sessionPath}/prompts`, { content: 'x' })).status).toBe(404)
    expect((await outsider.patch(sessionPath, { title: 'x' })).status).toBe(404)
    const elsewhere = await newWorkspace(server)
    const other = await runnerOf(elsewhere.owner.user.id)
    const foreign = `/v1/orgs/${elsewhere.orgId}${requestPath.slice(base.length)}`
    expect((await other.post(`${foreign}/cancel`, {})).status).toBe(404)
    expect((await owner.get(requestPath)).body.state).toBe('pending')
  })

  it('lets the driver set the title, external URL and plan; others cannot; an ended session is closed', async () => {
    const { ws, runner, owner, sessionPath } = await setup()
    const updated = await runner.patch(sessionPath, {
      title: 'Triage',
      externalUrl: 'https://agent.example.com/runs/1',
      planSummary: '1. Read\n2. Fix',
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({
      title: 'Triage',
      externalUrl: 'https://agent.example.com/runs/1',
      planSummary: '1. Read\n2. Fix',
    })
    expect((await ws.api.get(sessionPath)).body.externalUrl).toBe('https://agent.example.com/runs/1')
    const cleared = await runner.patch(sessionPath, { externalUrl: null })
    expect(cleared.body.externalUrl).toBeNull()
    expect((await runner.patch(sessionPath, { externalUrl: 'not a url' })).status).toBe(400)
    expect((await owner.patch(sessionPath, { title: 'Hijacked' })).status).toBe(403)
    const events = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    expect(
      events.filter((e) => e.kind === 'agent_session.updated' && (e.data as any).changes?.title),
    ).toHaveLength(1)
    await runner.post(`${sessionPath}/finish`, { outcome: 'completed' })
    expect((await runner.patch(sessionPath, { title: 'Late' })).body.code).toBe('session_closed')
  })

  it('takes a follow-up prompt from anyone with contribute; a pending session becomes active', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const driver = await runnerOf(ws.owner.user.id)
    const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Investigate' })).body
    const session = (await driver.post(`${base}/agent-sessions`, { agentId: agent.id, taskId: task.id })).body
    expect(session.state).toBe('pending')
    const colleague = await runnerOf((await ws.addMember('member')).user.id)
    const prompt = await colleague.post(`${base}/agent-sessions/${session.id}/prompts`, {
      content: 'Check the beta logs too.',
    })
    expect(prompt.status).toBe(201)
    expect(prompt.body).toMatchObject({ kind: 'prompt', seq: 1, content: 'Check the beta logs too.' })
    expect((await ws.api.get(`${base}/agent-sessions/${session.id}`)).body.state).toBe('active')
    expect(await kinds(ws.orgId)).toContain('agent_activity.created')
    const guest = await runnerOf((await ws.addMember('guest')).user.id)
    const denied = await guest.post(`${base}/agent-sessions/${session.id}/prompts`, { content: 'x' })
    expect([403, 404]).toContain(denied.status)
    // The agent cannot write a prompt itself: it is not one of its activity kinds.
    expect(
      (await driver.post(`${base}/agent-sessions/${session.id}/activities`, { kind: 'prompt', content: 'x' }))
        .status,
    ).toBe(400)
    await driver.post(`${base}/agent-sessions/${session.id}/cancel`)
    const closed = await colleague.post(`${base}/agent-sessions/${session.id}/prompts`, { content: 'x' })
    expect(closed.body.code).toBe('session_closed')
  })
})
