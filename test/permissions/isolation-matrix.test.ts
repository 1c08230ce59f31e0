import { type AnyOperation, isOrgScoped, OPERATIONS } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

type Ids = Record<string, string>

/** A valid body for every operation that takes one: the matrix must reach the permission check, not fail validation. */
const BODIES: Record<string, (ids: Ids) => unknown> = {
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
  'tasks.blockers.add': (ids) => ({ taskId: ids.otherTaskId }),
  'tasks.relations.add': (ids) => ({ type: 'related', taskId: ids.otherTaskId }),
  'tasks.links.create': () => ({ url: 'https://example.com/spec', title: 'Spec' }),
  'tasks.links.update': () => ({ title: 'Renamed' }),
  'cycles.create': () => ({ startsAt: '2031-01-06T00:00:00.000Z', endsAt: '2031-01-20T00:00:00.000Z' }),
  'cycles.update': () => ({ name: 'Renamed' }),
  'cycles.addTasks': (ids) => ({ taskIds: [ids.taskId] }),
  'cycleSettings.update': () => ({ autoCreateCount: 3 }),
  'tasks.batchCreate': (ids) => ({ items: [{ teamId: ids.teamId, title: 'Matrix' }] }),
  'tasks.batchUpdate': (ids) => ({ items: [{ id: ids.taskId, title: 'Renamed' }] }),
  'labels.create': (ids) => ({ name: 'Matrix', teamId: ids.teamId }),
  'labels.update': () => ({ name: 'Renamed' }),
  'tasks.labels.add': (ids) => ({ labelId: ids.labelId }),
  'comments.create': (ids) => ({ body: 'Matrix', parentId: ids.commentId }),
  'comments.update': () => ({ body: 'Edited' }),
  'tasks.reactions.add': () => ({ emoji: '🎯' }),
  'comments.reactions.add': () => ({ emoji: '🎯' }),
  'plans.apply': (ids) => ({ steps: [{ action: 'update_task', task: ids.taskId, title: 'Renamed' }] }),
}
const QUERIES: Record<string, (ids: Ids) => Record<string, string>> = {
  'access.explain': (ids) => ({
    actorId: ids.actorId!,
    capability: 'view',
    targetType: 'task',
    targetId: ids.taskId!,
  }),
  'names.resolve': (ids) => ({ kind: 'task', name: ids.taskId! }),
}

function request(op: AnyOperation, ids: Ids) {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? `missing-${name}`)
  const query = QUERIES[op.id] ? `?${new URLSearchParams(QUERIES[op.id]!(ids))}` : ''
  return { path: `${path}${query}`, body: op.body ? BODIES[op.id]!(ids) : undefined }
}

const orgOperations = OPERATIONS.filter(isOrgScoped)

describeEachDatabase('tenant isolation over every operation', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  /** A workspace with one record of every kind, and the ids the matrix fills paths with. */
  async function world(): Promise<{ ids: Ids; ws: Awaited<ReturnType<typeof newWorkspace>> }> {
    // A team key of its own, so one world's task keys never resolve in another's org.
    const ws = await newWorkspace(server, {
      teamKey: `W${Math.random().toString(36).slice(2, 7).toUpperCase()}`,
    })
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
    const blocker = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Blocker' })).body
    const related = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Related' })).body
    const other = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Other' })).body
    await ws.api.post(`${base}/tasks/${task.id}/blockers`, { taskId: blocker.id })
    await ws.api.post(`${base}/tasks/${task.id}/relations`, { type: 'related', taskId: related.id })
    const link = (await ws.api.post(`${base}/tasks/${task.id}/links`, { url: 'https://example.com' })).body
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
    const cycle = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, {
        startsAt: '2030-01-07T00:00:00.000Z',
        endsAt: '2030-01-21T00:00:00.000Z',
      })
    ).body
    await ws.api.post(`${base}/cycles/${cycle.id}/tasks`, { taskIds: [task.id] })
    const label = (await ws.api.post(`${base}/labels`, { name: 'Matrix', teamId: ws.teamId })).body
    await ws.api.post(`${base}/tasks/${task.id}/labels`, { labelId: label.id })
    const comment = (await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: 'Matrix' })).body
    const reaction = (await ws.api.post(`${base}/tasks/${task.id}/reactions`, { emoji: '👍' })).body
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
      cycleId: cycle.id,
      blockerId: blocker.id,
      relatedTaskId: related.id,
      otherTaskId: other.id,
      linkId: link.id,
      key: task.key,
      labelId: label.id,
      commentId: comment.id,
      reactionId: reaction.id,
    }
    for (const [name, value] of Object.entries(ids)) {
      expect(value, name).toMatch(name === 'key' ? /^[A-Z0-9]+-[0-9]+$/ : /^[a-z]+_/)
    }
    return { ids, ws }
  }

  it('has a sample body for every operation that takes one', () => {
    const missing = orgOperations.filter((op) => op.body && !BODIES[op.id]).map((op) => op.id)
    expect(missing).toEqual([])
  })

  it("answers a non-member, and a member using another tenant's ids, with the same 404 as a missing record", async () => {
    const a = await world()
    const b = await world()
    const outsider = await newPerson(server.engine, { scopes: ['work:read', 'work:write', 'agents:run'] })
    const missingOrg = { ...b.ids, orgId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE' }
    const ownerOfA = await server.engine.tokens.issueAccessToken({
      userId: a.ws.owner.user.id,
      scopes: ['work:read', 'work:write', 'agents:run'],
    })
    for (const op of orgOperations) {
      const real = request(op, b.ids)
      const asOutsider = await server.request(op.method, real.path, {
        token: outsider.token,
        body: real.body,
      })
      const ghost = request(op, missingOrg)
      const asGhost = await server.request(op.method, ghost.path, { token: outsider.token, body: ghost.body })
      expect(asOutsider.status, `${op.id} as a non-member`).toBe(404)
      expect(asOutsider.body, `${op.id}: same answer as a missing org`).toEqual(asGhost.body)

      // A's owner, in A's org, naming B's records: each of B's ids must behave as missing.
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((n) => n !== 'orgId')
      const crossQuery = op.id === 'access.explain' ? ['actorId'] : []
      for (const name of [...names, ...crossQuery]) {
        const crossed = request(op, { ...a.ids, [name]: b.ids[name]! })
        const res = await server.request(op.method, crossed.path, {
          token: ownerOfA,
          body: crossed.body,
        })
        expect([404, 422], `${op.id} with B's ${name}`).toContain(res.status)
        if (res.status === 422) expect(res.body.code, `${op.id} with B's ${name}`).toBe('reference_not_found')
      }
    }
  })

  it('answers a view-only person with 403 on every mutation, and changes nothing', async () => {
    const a = await world()
    const viewer = await a.ws.addMember('guest')
    await a.ws.api.post(`/v1/orgs/${a.ids.orgId}/grants`, {
      subjectType: 'member',
      subjectId: viewer.memberId,
      containerType: 'org',
      containerId: a.ids.orgId,
      capability: 'view',
    })
    const runner = await server.engine.tokens.issueAccessToken({
      userId: viewer.user.id,
      scopes: ['work:read', 'work:write', 'agents:run'],
    })
    const before = await server.storage.read((s) => s.events.list(a.ids.orgId as never, 0, 10_000))
    for (const op of orgOperations.filter((o) => o.method !== 'GET')) {
      const r = request(op, a.ids)
      const res = await server.request(op.method, r.path, { token: runner, body: r.body })
      expect(res.status, `${op.id} as a viewer: ${JSON.stringify(res.body)}`).toBe(403)
      const readOnly = await server.request(op.method, r.path, {
        token: (await newPerson(server.engine, { scopes: ['work:read'] })).token,
        body: r.body,
      })
      expect([403, 404], `${op.id} with a read-only token`).toContain(readOnly.status)
    }
    const after = await server.storage.read((s) => s.events.list(a.ids.orgId as never, 0, 10_000))
    expect(after.length).toBe(before.length)
  })
})
