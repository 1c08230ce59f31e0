import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('agents, work sessions and the approval gate', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A workspace with an agent granted `capability` on the team, a task, and a member driving a session. */
  async function setup(capability = 'manage') {
    const ws = await newWorkspace(server)
    const driver = await ws.addMember('member')
    const runner = server.as(await runnerToken(ws, driver.user.id))
    const agent = await ws.api.post(`/v1/orgs/${ws.orgId}/agents`, { name: 'Triage bot' })
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'agent',
      subjectId: agent.body.id,
      containerType: 'team',
      containerId: ws.teamId,
      capability,
    })
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Investigate' })
    const session = await runner.post(`/v1/orgs/${ws.orgId}/agent-sessions`, {
      agentId: agent.body.id,
      taskId: task.body.id,
    })
    expect(session.status).toBe(201)
    return {
      ws,
      driver,
      runner,
      agent: agent.body,
      task: task.body,
      session: session.body,
      base: `/v1/orgs/${ws.orgId}`,
    }
  }

  async function runnerToken(_ws: TestWorkspace, userId: string) {
    return server.engine.tokens.issueAccessToken({
      userId: userId as never,
      scopes: ['work:read', 'work:write', 'agents:run'],
    })
  }

  it('starts a session, keeps an ordered activity log and runs ungated actions as the agent', async () => {
    const { runner, ws, task, session, agent, base } = await setup()
    expect(session).toMatchObject({ state: 'pending', agentId: agent.id, taskId: task.id })
    await runner.post(`${base}/agent-sessions/${session.id}/activities`, {
      kind: 'thought',
      content: 'Reading the task',
    })
    const done = await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
      operationId: 'tasks.update',
      params: { taskId: task.id },
      body: { priority: 'high' },
    })
    expect(done.body).toMatchObject({ outcome: 'executed', result: { priority: 'high' } })
    expect((await ws.api.get(`${base}/agent-sessions/${session.id}`)).body.state).toBe('active')
    const log = await ws.api.get(`${base}/agent-sessions/${session.id}/activities?limit=1`)
    expect(log.body.data[0]).toMatchObject({ seq: 1, kind: 'thought' })
    const rest = await ws.api.get(
      `${base}/agent-sessions/${session.id}/activities?limit=5&cursor=${log.body.nextCursor}`,
    )
    expect(rest.body.data.map((a: any) => [a.seq, a.kind])).toEqual([[2, 'action']])
    const events = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    expect(events.find((e) => e.kind === 'task.updated')?.actorId).toBe(agent.id)
  })

  it('holds a gated action until a person with the capability approves it', async () => {
    const { runner, ws, driver, task, session, base } = await setup()
    const proposed = await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
      operationId: 'tasks.delete',
      params: { taskId: task.id },
    })
    expect(proposed.body.outcome).toBe('pending_approval')
    const request = proposed.body.approvalRequest
    expect(request).toMatchObject({
      state: 'pending',
      operationId: 'tasks.delete',
      capability: 'manage',
      proposedBy: driver.memberId,
    })
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).status).toBe(200)
    expect((await ws.api.get(`${base}/agent-sessions/${session.id}`)).body.state).toBe('awaiting_approval')

    const notAllowed = await runner.post(`${base}/approval-requests/${request.id}/approve`)
    expect(notAllowed.status).toBe(403)
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).status).toBe(200)

    const owner = server.as(await runnerToken(ws, ws.owner.user.id))
    const approved = await owner.post(`${base}/approval-requests/${request.id}/approve`)
    expect(approved.body).toMatchObject({ state: 'approved', decidedBy: expect.stringMatching(/^mem_/) })
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).status).toBe(404)
    expect((await ws.api.get(`${base}/agent-sessions/${session.id}`)).body.state).toBe('active')
    expect((await owner.post(`${base}/approval-requests/${request.id}/reject`, {})).status).toBe(409)
  })

  it('leaves nothing but the record when a request is rejected or expires', async () => {
    const { runner, ws, task, session, base } = await setup()
    const owner = server.as(await runnerToken(ws, ws.owner.user.id))
    const first = (
      await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
        operationId: 'tasks.delete',
        params: { taskId: task.id },
      })
    ).body
    const rejected = await owner.post(`${base}/approval-requests/${first.approvalRequest.id}/reject`, {
      reason: 'Keep it',
    })
    expect(rejected.body).toMatchObject({ state: 'rejected', reason: 'Keep it' })
    const second = (
      await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
        operationId: 'tasks.delete',
        params: { taskId: task.id },
      })
    ).body
    await server.storage.db
      .updateTable('approvalRequests')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', second.approvalRequest.id)
      .execute()
    const late = await owner.post(`${base}/approval-requests/${second.approvalRequest.id}/approve`)
    expect(late.status).toBe(409)
    expect(late.body.code).toBe('approval_closed')
    expect((await owner.get(`${base}/approval-requests/${second.approvalRequest.id}`)).body.state).toBe(
      'expired',
    )
    expect(
      (await owner.get(`${base}/approval-requests?state=expired`)).body.data.map((r: any) => r.id),
    ).toEqual([second.approvalRequest.id])
    // The state is filtered in the query: a page of one pending request is not emptied by the expired one before it.
    const third = (
      await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
        operationId: 'tasks.delete',
        params: { taskId: task.id },
      })
    ).body
    const pending = await owner.get(`${base}/approval-requests?state=pending&limit=1`)
    expect(pending.body.data.map((r: any) => r.id)).toEqual([third.approvalRequest.id])
    expect((await ws.api.get(`${base}/tasks/${task.id}`)).body.title).toBe('Investigate')
  })

  it('never lets an agent exceed its grants, nor the person driving it exceed theirs', async () => {
    const weak = await setup('comment')
    const denied = await weak.runner.post(`${weak.base}/agent-sessions/${weak.session.id}/actions`, {
      operationId: 'tasks.update',
      params: { taskId: weak.task.id },
      body: { title: 'x' },
    })
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({ code: 'capability_required', capability: 'contribute' })
    const strong = await setup('manage')
    await strong.ws.api.patch(`/v1/orgs/${strong.ws.orgId}/agents/${strong.agent.id}`, {
      approvalPolicy: { capabilities: [], operations: [] },
    })
    const overreach = await strong.runner.post(`${strong.base}/agent-sessions/${strong.session.id}/actions`, {
      operationId: 'teams.update',
      params: { teamId: strong.ws.teamId },
      body: { name: 'Renamed by a bot' },
    })
    expect(overreach.status).toBe(403)
    expect((await strong.ws.api.get(`${strong.base}/teams/${strong.ws.teamId}`)).body.name).toBe(
      'Engineering',
    )
    const admin = await strong.runner.post(`${strong.base}/agent-sessions/${strong.session.id}/actions`, {
      operationId: 'grants.create',
      body: {},
    })
    expect(admin.status).toBe(422)
  })

  it('needs the agents:run scope, an active agent, and only the driver writes the log', async () => {
    const { ws, agent, session, base, task } = await setup()
    const plain = await ws.api.post(`${base}/agent-sessions`, { agentId: agent.id, taskId: task.id })
    expect(plain.status).toBe(403)
    expect(plain.body.code).toBe('insufficient_scope')
    const owner = server.as(await runnerToken(ws, ws.owner.user.id))
    expect(
      (
        await owner.post(`${base}/agent-sessions/${session.id}/activities`, {
          kind: 'thought',
          content: 'hijack',
        })
      ).status,
    ).toBe(403)
    await ws.api.post(`${base}/agents/${agent.id}/deactivate`)
    expect((await owner.post(`${base}/agent-sessions`, { agentId: agent.id })).body.code).toBe(
      'agent_inactive',
    )
    expect((await owner.post(`${base}/agent-sessions/${session.id}/cancel`)).body.state).toBe('canceled')
    const outsider = await newPerson(server.engine)
    expect((await server.as(outsider.token).get(`${base}/agent-sessions/${session.id}`)).status).toBe(404)
  })
})
