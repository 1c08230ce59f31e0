import { expect } from 'vitest'
import type { TestServer } from './http.ts'
import { newWorkspace, type TestWorkspace } from './workspace.ts'

export type Ids = Record<string, string>

/** A valid body for every operation that takes one: the matrix must reach the permission check, not fail validation. */
export const BODIES: Record<string, (ids: Ids) => unknown> = {
  'orgs.update': () => ({ name: 'Renamed' }),
  'members.update': () => ({ role: 'member' }),
  'invitations.create': () => ({ email: 'matrix@example.com', role: 'member' }),
  'teamMembers.add': (ids) => ({ actorId: ids.memberId }),
  'grants.create': (ids) => ({
    subjectType: 'member',
    subjectId: ids.memberId,
    containerType: 'team',
    containerId: ids.teamId,
    capability: 'view',
  }),
  'grants.update': () => ({ capability: 'comment' }),
  'teams.create': () => ({ name: 'Matrix', key: 'MTX' }),
  'teams.update': () => ({ name: 'Renamed' }),
  'workflowStates.create': () => ({ name: 'Matrix', category: 'started' }),
  'workflowStates.update': () => ({ name: 'Renamed' }),
  'workflowStates.reorder': (ids) => ({ stateIds: [ids.stateId] }),
  'tasks.create': (ids) => ({ teamId: ids.teamId, title: 'Matrix' }),
  'tasks.update': () => ({ title: 'Renamed' }),
  'agents.create': () => ({ name: 'Matrix bot' }),
  'agents.update': () => ({ name: 'Renamed' }),
  'agentSessions.create': (ids) => ({ agentId: ids.agentId, taskId: ids.taskId }),
  'agentSessions.finish': () => ({ outcome: 'completed' }),
  'agentSessions.activities.create': () => ({ kind: 'thought', content: 'x' }),
  'agentSessions.act': (ids) => ({
    operationId: 'tasks.update',
    params: { taskId: ids.taskId },
    body: { title: 'x' },
  }),
  'approvals.reject': () => ({}),
}
/** A workspace with one record of every kind, and the ids the matrix fills paths with. */
export async function sampleWorld(server: TestServer): Promise<{ ids: Ids; ws: TestWorkspace }> {
  const ws = await newWorkspace(server)
  const base = `/v1/orgs/${ws.orgId}`
  const member = await ws.addMember('member')
  const runner = server.as(
    await server.engine.tokens.issueAccessToken({
      userId: ws.owner.user.id,
      scopes: ['work:read', 'work:write', 'agents:run'],
    }),
  )
  const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Matrix' })).body
  const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
  await ws.api.post(`${base}/grants`, {
    subjectType: 'agent',
    subjectId: agent.id,
    containerType: 'team',
    containerId: ws.teamId,
    capability: 'manage',
  })
  const session = (await runner.post(`${base}/agent-sessions`, { agentId: agent.id, taskId: task.id })).body
  const proposal = (
    await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
      operationId: 'tasks.delete',
      params: { taskId: task.id },
    })
  ).body
  const invitation = (
    await ws.api.post(`${base}/invitations`, { email: 'someone@example.com', role: 'member' })
  ).body
  const grant = (
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: member.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'view',
    })
  ).body
  const ids: Ids = {
    orgId: ws.orgId,
    teamId: ws.teamId,
    taskId: task.id,
    stateId: ws.states.Todo!.id,
    memberId: member.memberId,
    agentId: agent.id,
    sessionId: session.id,
    approvalId: proposal.approvalRequest.id,
    invitationId: invitation.id,
    grantId: grant.id,
    actorId: member.memberId,
    /** Every active state of the team, comma-separated. */
    stateIds: Object.values(ws.states)
      .map((s) => s.id)
      .join(','),
  }
  for (const [name, value] of Object.entries(ids)) expect(value, name).toMatch(/^[a-z]+_/)
  return { ids, ws }
}
