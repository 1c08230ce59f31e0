import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('approval policies on containers', (db) => {
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

  /** An agent that asks before nothing by itself, granted `manage` on the team; a task in a project; a session. */
  async function setup() {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const driver = await ws.addMember('member')
    const runner = await runnerOf(driver.user.id)
    const agent = (
      await ws.api.post(`${base}/agents`, {
        name: 'Bot',
        approvalPolicy: { capabilities: [], operations: [] },
      })
    ).body
    await ws.api.post(`${base}/grants`, {
      subjectType: 'agent',
      subjectId: agent.id,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'manage',
    })
    const project = (await ws.api.post(`${base}/projects`, { name: 'Launch', teamIds: [ws.teamId] })).body
    const inProject = (
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'In project', projectId: project.id })
    ).body
    const loose = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Loose' })).body
    const session = (await runner.post(`${base}/agent-sessions`, { agentId: agent.id })).body
    const act = (taskId: string, title: string) =>
      runner.post(`${base}/agent-sessions/${session.id}/actions`, {
        operationId: 'tasks.update',
        params: { taskId },
        body: { title },
      })
    return { ws, base, driver, runner, agent, project, inProject, loose, session, act }
  }

  it('creates, reads, lists, changes and deletes a policy, with an event for each write', async () => {
    const { ws, base, project, agent } = await setup()
    const created = await ws.api.post(`${base}/approval-policies`, {
      containerType: 'project',
      containerId: project.id,
      operations: ['tasks.update'],
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      containerType: 'project',
      containerId: project.id,
      operations: ['tasks.update'],
      capabilities: [],
      agentIds: [],
      approverCapability: 'manage',
      version: 1,
    })
    expect(created.headers.get('location')).toBe(`${base}/approval-policies/${created.body.id}`)
    const path = `${base}/approval-policies/${created.body.id}`
    expect((await ws.api.get(path)).body).toEqual(created.body)
    const changed = await ws.api.patch(path, { agentIds: [agent.id], approverCapability: 'assign' })
    expect(changed.body).toMatchObject({ agentIds: [agent.id], approverCapability: 'assign', version: 2 })
    const unchanged = await ws.api.patch(path, { agentIds: [agent.id] })
    expect(unchanged.body.version).toBe(2)
    const listed = await ws.api.get(
      `${base}/approval-policies?containerType=project&containerId=${project.id}`,
    )
    expect(listed.body.data.map((p: any) => p.id)).toEqual([created.body.id])
    expect((await ws.api.delete(path)).status).toBe(204)
    expect((await ws.api.get(path)).status).toBe(404)
    const events = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    expect(events.filter((e) => e.kind.startsWith('approval_policy.')).map((e) => e.kind)).toEqual([
      'approval_policy.created',
      'approval_policy.updated',
      'approval_policy.deleted',
    ])
  })

  it('gates an action on the records of its container only, and stops once it is deleted', async () => {
    const { ws, base, project, inProject, loose, act } = await setup()
    expect((await act(inProject.id, 'Before')).body.outcome).toBe('executed')
    const policy = (
      await ws.api.post(`${base}/approval-policies`, {
        containerType: 'project',
        containerId: project.id,
        operations: ['tasks.update'],
      })
    ).body
    const held = await act(inProject.id, 'Held')
    expect(held.body).toMatchObject({
      outcome: 'pending_approval',
      approvalRequest: { policyId: policy.id, policyVersion: 1, approverCapability: 'manage' },
    })
    expect((await ws.api.get(`${base}/tasks/${inProject.id}`)).body.title).toBe('Before')
    // A task the project does not hold is not gated by it.
    expect((await act(loose.id, 'Free')).body.outcome).toBe('executed')
    await ws.api.delete(`${base}/approval-policies/${policy.id}`)
    expect((await act(inProject.id, 'After')).body.outcome).toBe('executed')
  })

  it('gates by capability and by agent, and an org policy reaches every record', async () => {
    const { ws, base, loose, act, agent } = await setup()
    const other = (await ws.api.post(`${base}/agents`, { name: 'Other' })).body
    const forOther = (
      await ws.api.post(`${base}/approval-policies`, {
        containerType: 'org',
        containerId: ws.orgId,
        capabilities: ['contribute'],
        agentIds: [other.id],
      })
    ).body
    expect((await act(loose.id, 'Not gated: another agent')).body.outcome).toBe('executed')
    await ws.api.patch(`${base}/approval-policies/${forOther.id}`, { agentIds: [other.id, agent.id] })
    const held = await act(loose.id, 'Gated now')
    expect(held.body).toMatchObject({
      outcome: 'pending_approval',
      approvalRequest: { policyId: forOther.id, policyVersion: 2 },
    })
  })

  it('asks deciders for the approver capability of the version the request was created under', async () => {
    const { ws, base, inProject, act } = await setup()
    const policy = (
      await ws.api.post(`${base}/approval-policies`, {
        containerType: 'team',
        containerId: ws.teamId,
        operations: ['tasks.update'],
        approverCapability: 'manage',
      })
    ).body
    const request = (await act(inProject.id, 'Held')).body.approvalRequest
    // A member with `contribute` (the action's need) but not `manage` cannot decide it.
    const contributor = await ws.addMember('member')
    const contributorRunner = await runnerOf(contributor.user.id)
    const denied = await contributorRunner.post(`${base}/approval-requests/${request.id}/approve`)
    expect(denied.body).toMatchObject({ code: 'capability_required', capability: 'manage' })
    // Lowering the policy later does not lower what this request needs.
    await ws.api.patch(`${base}/approval-policies/${policy.id}`, { approverCapability: 'contribute' })
    expect((await contributorRunner.post(`${base}/approval-requests/${request.id}/approve`)).status).toBe(403)
    const owner = await runnerOf(ws.owner.user.id)
    const approved = await owner.post(`${base}/approval-requests/${request.id}/approve`)
    expect(approved.body).toMatchObject({ state: 'approved' })
    expect((await ws.api.get(`${base}/tasks/${inProject.id}`)).body.title).toBe('Held')
  })

  it('needs manage on the container; a non-member or another org sees nothing', async () => {
    const { ws, base, project } = await setup()
    const member = await ws.addMember('member')
    const denied = await member.api.post(`${base}/approval-policies`, {
      containerType: 'project',
      containerId: project.id,
      operations: ['tasks.delete'],
    })
    expect(denied.body).toMatchObject({ code: 'capability_required', capability: 'manage' })
    const policy = (
      await ws.api.post(`${base}/approval-policies`, {
        containerType: 'project',
        containerId: project.id,
        operations: ['tasks.delete'],
      })
    ).body
    expect((await member.api.get(`${base}/approval-policies/${policy.id}`)).status).toBe(200)
    expect(
      (await member.api.patch(`${base}/approval-policies/${policy.id}`, { operations: [] })).status,
    ).toBe(403)
    expect((await member.api.delete(`${base}/approval-policies/${policy.id}`)).status).toBe(403)
    expect((await member.api.get(`${base}/approval-policies`)).status).toBe(403)
    const outsider = await newPerson(server.engine)
    expect((await server.as(outsider.token).get(`${base}/approval-policies/${policy.id}`)).status).toBe(404)
    const elsewhere = await newWorkspace(server)
    expect(
      (await elsewhere.api.get(`/v1/orgs/${elsewhere.orgId}/approval-policies/${policy.id}`)).status,
    ).toBe(404)
    expect((await ws.api.get(`${base}/approval-policies/${policy.id}`)).body.version).toBe(1)
  })

  it('refuses a policy that gates nothing, an unknown operation or agent, or another org as container', async () => {
    const { ws, base, project } = await setup()
    const post = (body: unknown) => ws.api.post(`${base}/approval-policies`, body)
    const empty = await post({ containerType: 'project', containerId: project.id })
    expect(empty.body).toMatchObject({ status: 422, code: 'rule_violated' })
    const unknownOp = await post({
      containerType: 'project',
      containerId: project.id,
      operations: ['tasks.fly'],
    })
    expect(unknownOp.body.errors[0].pointer).toBe('/body/operations/0')
    const unknownAgent = await post({
      containerType: 'project',
      containerId: project.id,
      operations: ['tasks.delete'],
      agentIds: ['agt_01JD3Q2R4S5T6V7W8X9YZABCDE'],
    })
    expect(unknownAgent.body).toMatchObject({ status: 422, code: 'reference_not_found' })
    const wrongOrg = await post({
      containerType: 'org',
      containerId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE',
      operations: ['tasks.delete'],
    })
    expect(wrongOrg.body.code).toBe('reference_not_found')
    const missingTeam = await post({
      containerType: 'team',
      containerId: 'team_01JD3Q2R4S5T6V7W8X9YZABCDE',
      operations: ['tasks.delete'],
    })
    expect(missingTeam.body).toMatchObject({ status: 422, code: 'reference_not_found' })
    expect(missingTeam.body.errors[0].pointer).toBe('/body/containerId')
    // Another workspace's project answers as one that does not exist, at the field.
    const outsider = await newWorkspace(server)
    const hidden = await outsider.api.post(`/v1/orgs/${outsider.orgId}/approval-policies`, {
      containerType: 'project',
      containerId: project.id,
      operations: ['tasks.delete'],
    })
    expect(hidden.body).toMatchObject({ status: 422, code: 'reference_not_found' })
    expect(hidden.body.errors[0].pointer).toBe('/body/containerId')
    expect((await ws.api.get(`${base}/approval-policies`)).body.data).toEqual([])
  })

  it('pages the list in creation order', async () => {
    const { ws, base } = await setup()
    const ids: string[] = []
    for (const op of ['tasks.delete', 'tasks.update', 'tasks.create']) {
      ids.push(
        (
          await ws.api.post(`${base}/approval-policies`, {
            containerType: 'team',
            containerId: ws.teamId,
            operations: [op],
          })
        ).body.id,
      )
    }
    const first = await ws.api.get(`${base}/approval-policies?limit=2`)
    expect(first.body.data.map((p: any) => p.id)).toEqual(ids.slice(0, 2))
    const rest = await ws.api.get(`${base}/approval-policies?limit=2&cursor=${first.body.nextCursor}`)
    expect(rest.body).toMatchObject({ data: [{ id: ids[2] }], nextCursor: null })
  })
})
