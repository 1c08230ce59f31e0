import { type ConsentId, newId, type UserId, type WebSessionId } from '@workgraph/core'
import { EXAMPLE_RANKS, ranked } from '../support/example-world.ts'
import { newPerson } from '../support/fixtures.ts'
import type { startTestServer } from '../support/http.ts'
import { mailsTo } from '../support/outbox.ts'
import { sampleWorld } from '../support/sample-world.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/** A calendar day of the owner's plan holding one item, away from the request examples' days. */
const PLAN_DAY = '2031-03-03'

/**
 * The Postman variables of one world: the sample world's ids (by name, and by prefix and rank for
 * the request examples), plus the caller's own records the sample world has no use for (a period
 * away, a favorite, a plan item and its day, a web session, a connected app), so that no path is
 * sent with a literal `{{…}}`, the owner's token, and what some requests need instead
 * (`in-world.ts`): a member's token to leave with, a task's key, an invitee and their invitation, more
 * records for the requests that settle one each.
 */
export async function fuzzWorld(server: Server): Promise<Record<string, string>> {
  const { ids, ws } = await sampleWorld(server)
  const token = await server.engine.tokens.issueAccessToken({
    userId: ws.owner.user.id,
    scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link', 'offline_access'],
  })
  const created = async (answer: Promise<{ status: number; body: any }>, what: string) => {
    const { status, body } = await answer
    if (status !== 201) throw new Error(`the fuzz world's ${what}: ${status} ${JSON.stringify(body)}`)
    return body.id as string
  }
  // A day away, the day before the end the update example gives it and after the days the create
  // example takes.
  const awayId = await created(
    ws.api.post('/v1/me/away', { startDate: '2030-02-15', endDate: '2030-02-15' }),
    'period away',
  )
  // Two favorites and two plan items: the move examples put the second (the one in the path)
  // before the first (rank 0 of the example ids).
  const favorites = [
    await created(
      ws.api.post('/v1/me/favorites', { record: { orgId: ws.orgId, type: 'project', id: ids.projectId } }),
      'favorite',
    ),
    await created(
      ws.api.post('/v1/me/favorites', { record: { orgId: ws.orgId, type: 'task', id: ids.taskId } }),
      'favorite',
    ),
  ]
  const planItems = [
    await created(
      ws.api.post(`/v1/me/daily-plan/${PLAN_DAY}/items`, { task: { orgId: ws.orgId, id: ids.taskId } }),
      'plan item',
    ),
    await created(
      ws.api.post(`/v1/me/daily-plan/${PLAN_DAY}/items`, { text: 'Sample plan item' }),
      'plan item',
    ),
  ]
  const userId = ws.owner.user.id as UserId
  const sessionId = newId('WebSessionId') as WebSessionId
  const consentId = newId('ConsentId') as ConsentId
  const now = new Date()
  await server.engine.storage.transaction(async (s) => {
    await s.oauth.insertSession({
      id: sessionId,
      userId,
      tokenHash: `fuzz-${sessionId}`,
      userAgent: 'Portman',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
    })
    await s.oauth.upsertGrant({
      id: consentId,
      userId,
      clientId: 'fuzz-app',
      clientName: 'Fuzz app',
      scopes: ['work:read'],
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
  })
  // A member of their own for what the owner cannot do (leave the org), so that the sample member
  // stays for the rest of the batch.
  const leaver = await ws.addMember('member')
  // The other task's key: the sample task is on the plan's day already.
  const taskKey = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${ids.otherTaskId}`)).body.key as string
  // The sample export completed, so it can be downloaded, and a queued import to cancel (the job
  // just run finished the sample one).
  await server.engine.transfer({ onError: (error) => console.error(error) })
  const queuedImportId = await created(
    ws.api.post(`/v1/orgs/${ws.orgId}/imports`, {
      format: 'csv',
      teamId: ws.teamId,
      content: 'title\nQueued',
    }),
    'import',
  )
  // Someone invited to the workspace, with the token their mail carries: accepting and declining
  // an invitation are the invitee's.
  const invitee = await newPerson(server.engine)
  const inviteeInvitationId = await created(
    ws.api.post(`/v1/orgs/${ws.orgId}/invitations`, { email: invitee.user.email, role: 'member' }),
    'invitation',
  )
  const invitationToken = new URL(mailsTo(invitee.user.email).at(-1)!.link).searchParams.get('token')!
  // Two more requests waiting in triage: accepting, declining and snoozing each take one.
  const [declinedTriageTaskId, snoozedTriageTaskId] = [
    await created(
      ws.api.post(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/triage`, { title: 'Declined request' }),
      'triage request',
    ),
    await created(
      ws.api.post(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/triage`, { title: 'Snoozed request' }),
      'triage request',
    ),
  ]
  // A second agent session and three more pending approval requests: finishing a session, and
  // approving, rejecting, withdrawing a request and asking for changes to one, each settle one.
  const agents = server.as(token)
  const orgPath = `/v1/orgs/${ws.orgId}`
  const finishedSessionId = await created(
    agents.post(`${orgPath}/agent-sessions`, { agentId: ids.agentId, taskId: ids.taskId }),
    'agent session',
  )
  const proposed = async (taskId: string) => {
    const { status, body } = await agents.post(`${orgPath}/agent-sessions/${ids.agentSessionId}/actions`, {
      operationId: 'tasks.delete',
      params: { taskId },
    })
    if (!body?.approvalRequest?.id)
      throw new Error(`the fuzz world's proposal: ${status} ${JSON.stringify(body)}`)
    return body.approvalRequest.id as string
  }
  const changedApprovalRequestId = await proposed(ids.blockerId!)
  const rejectedApprovalRequestId = await proposed(ids.otherTaskId!)
  const withdrawnApprovalRequestId = await proposed(ids.relatedTaskId!)
  const values: Record<string, string> = {
    ...ids,
    leaverToken: leaver.token,
    taskKey,
    queuedImportId,
    inviteeToken: invitee.token,
    inviteeInvitationId,
    invitationToken,
    declinedTriageTaskId,
    snoozedTriageTaskId,
    finishedSessionId,
    changedApprovalRequestId,
    rejectedApprovalRequestId,
    withdrawnApprovalRequestId,
    secondProgramProjectId: ids.programProjectIds!.split(',')[1]!,
    awayId,
    favoriteId: favorites[1]!,
    planItemId: planItems[1]!,
    date: PLAN_DAY,
    sessionId,
    consentId,
    baseUrl: server.url,
    bearerToken: token,
  }
  const ranks: Record<string, string[]> = {
    awy: [awayId],
    fav: favorites,
    pli: planItems,
    wsn: [sessionId],
    cns: [consentId],
  }
  for (const prefix of Object.keys(EXAMPLE_RANKS)) ranks[prefix] = ranked(prefix, ids)
  for (const [prefix, records] of Object.entries(ranks))
    records.forEach((id, rank) => {
      values[`${prefix}_${rank}`] = id
    })
  // A second workspace of the owner's: the hub's batch example names two.
  values.org_1 = await created(ws.api.post('/v1/orgs', { name: 'Second' }), 'second workspace')
  return values
}
