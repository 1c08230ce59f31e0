import type { AgentActivity, AgentSession, ApprovalRequest } from '../access/schemas.ts'
import { currentOrg } from '../kernel/context.ts'
import type { AgentId, AgentSessionId, MemberId, TaskId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import type { CapabilityTarget } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { gateFor } from './policies.ts'
import { agentActor, requireAgent } from './service.ts'

const ENDED = new Set<AgentSession['state']>(['completed', 'canceled', 'failed'])
export const APPROVAL_HOURS = 24

export async function requireSession(
  ctx: OperationContext,
  sessionId: AgentSessionId,
): Promise<AgentSession> {
  const session = await ctx.store.sessions.get(currentOrg(ctx).id, sessionId, await ctx.scope())
  if (!session) throw notFound('Agent session')
  return session
}

/** The person who started a session drives it: only they write its log and act through it. */
export async function drivenSession(ctx: OperationContext, sessionId: AgentSessionId): Promise<AgentSession> {
  const session = await requireSession(ctx, sessionId)
  if (session.startedBy !== ctx.actor?.id) {
    throw new ProblemError('capability_required', 'Only the person who started this session drives it.', {
      extensions: { capability: 'contribute' },
    })
  }
  if (ENDED.has(session.state)) throw new ProblemError('session_closed', `The session is ${session.state}.`)
  return session
}

export async function setState(
  ctx: OperationContext,
  session: AgentSession,
  state: AgentSession['state'],
): Promise<AgentSession> {
  if (session.state === state) return session
  const endedAt = ENDED.has(state) ? ctx.now : session.endedAt
  await ctx.store.sessions.update(session.orgId, session.id, { state, updatedAt: ctx.now, endedAt })
  const next = { ...session, state, updatedAt: ctx.now, endedAt }
  ctx.emit({
    kind: 'agent_session.updated',
    resourceType: 'agent_session',
    resourceId: session.id,
    data: { session: next, changes: { state: { before: session.state, after: state } } },
  })
  return next
}

export async function startSession(
  ctx: OperationContext,
  input: { agentId: AgentId; taskId?: TaskId; title?: string },
): Promise<AgentSession> {
  const agent = await requireAgent(ctx, input.agentId)
  agentActor(agent)
  await ctx.require(
    'contribute',
    input.taskId ? { type: 'task', id: input.taskId, pointer: '/body/taskId' } : { type: 'org' },
  )
  const session: AgentSession = {
    id: newId('AgentSessionId'),
    orgId: agent.orgId,
    agentId: agent.id,
    taskId: input.taskId ?? null,
    title: input.title ?? null,
    externalUrl: null,
    planSummary: null,
    state: 'pending',
    startedBy: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    endedAt: null,
  }
  await ctx.store.sessions.insert(session)
  ctx.emit({
    kind: 'agent_session.created',
    resourceType: 'agent_session',
    resourceId: session.id,
    data: { session },
  })
  return session
}

export async function listSessions(
  ctx: OperationContext,
  query: {
    cursor?: string
    limit?: number
    agentId?: AgentId
    taskId?: TaskId
    state?: AgentSession['state']
  },
): Promise<Page<AgentSession>> {
  const orgId = currentOrg(ctx).id
  const filter = Object.fromEntries(
    Object.entries({ agentId: query.agentId, taskId: query.taskId, state: query.state }).filter(([, v]) => v),
  )
  const scope = await ctx.scope()
  return readPage(ctx, {
    scope: ['agentSessions.list', orgId, filter],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (s: AgentSession) => s.id,
    fetch: (page) => ctx.store.sessions.list(orgId, filter, page, scope),
  })
}

export async function cancelSession(ctx: OperationContext, sessionId: AgentSessionId): Promise<AgentSession> {
  const session = await requireSession(ctx, sessionId)
  if (session.startedBy !== ctx.actor?.id)
    await ctx.require('manage', session.taskId ? { type: 'task', id: session.taskId } : { type: 'org' })
  if (ENDED.has(session.state)) return session
  return setState(ctx, session, 'canceled')
}

export async function finishSession(
  ctx: OperationContext,
  sessionId: AgentSessionId,
  outcome: 'completed' | 'failed',
): Promise<AgentSession> {
  return setState(ctx, await drivenSession(ctx, sessionId), outcome)
}

export async function appendActivity(
  ctx: OperationContext,
  sessionId: AgentSessionId,
  input: Pick<AgentActivity, 'kind' | 'content'> & { data?: Record<string, unknown> | null },
): Promise<AgentActivity> {
  const session = await drivenSession(ctx, sessionId)
  return log(ctx, session, input)
}

export async function log(
  ctx: OperationContext,
  session: AgentSession,
  input: Pick<AgentActivity, 'kind' | 'content'> & { data?: Record<string, unknown> | null },
) {
  const activity = await ctx.store.sessions.appendActivity(session.orgId, {
    id: newId('ActivityId'),
    sessionId: session.id,
    kind: input.kind,
    content: input.content,
    data: input.data ?? null,
    createdAt: ctx.now,
  })
  if (session.state === 'pending') await setState(ctx, session, 'active')
  ctx.emit({
    kind: 'agent_activity.created',
    resourceType: 'agent_session',
    resourceId: session.id,
    data: { activity },
  })
  return activity
}

export async function listActivities(
  ctx: OperationContext,
  sessionId: AgentSessionId,
  query: { cursor?: string; limit?: number },
): Promise<Page<AgentActivity>> {
  const session = await requireSession(ctx, sessionId)
  return readPage(ctx, {
    scope: ['agentActivities.list', session.id],
    query,
    sort: 'seq',
    direction: 'asc',
    keyOf: (a: AgentActivity & { id: string }) => a.seq,
    fetch: (page) =>
      ctx.store.sessions.listActivities(
        session.orgId,
        session.id,
        Number(page.after?.value ?? 0),
        page.limit + 1,
      ),
  })
}

export type ActionInput = {
  operationId: string
  params?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
}

/**
 * The agent acts through its session. An action its approval policy gates becomes a pending
 * approval request and changes nothing else; any other runs at once, as the agent, in this transaction.
 */
export async function act(ctx: OperationContext, sessionId: AgentSessionId, action: ActionInput) {
  const session = await drivenSession(ctx, sessionId)
  const agent = await requireAgent(ctx, session.agentId)
  const actor = agentActor(agent)
  const operation = ctx.operationOf(action.operationId)
  const input = { params: action.params ?? {}, query: action.query ?? {}, body: action.body ?? null }
  const gate = operation
    ? await gateFor(ctx, agent, operation, actionTarget(ctx, operation.id, input, session.orgId))
    : null
  if (operation && gate) {
    const request: ApprovalRequest = {
      id: newId('ApprovalRequestId'),
      orgId: session.orgId,
      agentId: agent.id,
      sessionId: session.id,
      operationId: operation.id,
      input,
      capability: operation.capability ?? null,
      policyId: gate.policy?.id ?? null,
      policyVersion: gate.policy?.version ?? null,
      approverCapability: gate.approverCapability,
      state: 'pending',
      proposedBy: ctx.actor!.id as MemberId,
      createdAt: ctx.now,
      expiresAt: new Date(Date.parse(ctx.now) + APPROVAL_HOURS * 3_600_000).toISOString(),
      decidedBy: null,
      decidedAt: null,
      reason: null,
      result: null,
    }
    await ctx.store.approvals.insert(request)
    ctx.emit({
      kind: 'approval_request.created',
      resourceType: 'approval_request',
      resourceId: request.id,
      data: { approvalRequest: request },
    })
    await log(ctx, session, {
      kind: 'action',
      content: `Proposed \`${operation.id}\`; waiting for approval.`,
      data: { approvalRequestId: request.id },
    })
    await setState(
      ctx,
      { ...session, state: session.state === 'pending' ? 'active' : session.state },
      'awaiting_approval',
    )
    return { outcome: 'pending_approval' as const, approvalRequest: request }
  }
  const result = await ctx.invoke(action.operationId, { ...input, body: action.body }, actor)
  await log(ctx, session, {
    kind: 'action',
    content: `Ran \`${action.operationId}\`.`,
    data: { operationId: action.operationId },
  })
  return { outcome: 'executed' as const, result }
}

/** Where an action acts: its operation's target for this input (the org when it names none). */
export function actionTarget(
  ctx: OperationContext,
  operationId: string,
  input: { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown },
  orgId: string,
): CapabilityTarget {
  const operation = ctx.operationOf(operationId)
  return operation?.target?.({ ...input, params: { ...input.params, orgId } } as never) ?? { type: 'org' }
}

/** The driver names the run, links the agent's own view of it and keeps its plan current. */
export async function updateSession(
  ctx: OperationContext,
  sessionId: AgentSessionId,
  patch: Partial<Pick<AgentSession, 'title' | 'externalUrl' | 'planSummary'>>,
): Promise<AgentSession> {
  const session = await drivenSession(ctx, sessionId)
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => session[k as keyof AgentSession] !== v),
  ) as typeof patch
  if (Object.keys(changed).length === 0) return session
  await ctx.store.sessions.update(session.orgId, session.id, { ...changed, updatedAt: ctx.now })
  const next = { ...session, ...changed, updatedAt: ctx.now }
  ctx.emit({
    kind: 'agent_session.updated',
    resourceType: 'agent_session',
    resourceId: session.id,
    data: {
      session: next,
      changes: Object.fromEntries(
        Object.keys(changed).map((k) => [
          k,
          { before: session[k as keyof AgentSession], after: next[k as keyof AgentSession] },
        ]),
      ),
    },
  })
  return next
}

/**
 * A person with `contribute` on the session's target sends a follow-up instruction. It is written
 * to the log as a `prompt`; a session that had not started yet becomes active. One waiting for
 * approval keeps waiting: the pending requests still decide.
 */
export async function promptSession(
  ctx: OperationContext,
  sessionId: AgentSessionId,
  content: string,
): Promise<AgentActivity> {
  const session = await requireSession(ctx, sessionId)
  await ctx.require('contribute', session.taskId ? { type: 'task', id: session.taskId } : { type: 'org' })
  if (ENDED.has(session.state)) throw new ProblemError('session_closed', `The session is ${session.state}.`)
  return log(ctx, session, { kind: 'prompt', content, data: { promptedBy: ctx.actor!.id } })
}
