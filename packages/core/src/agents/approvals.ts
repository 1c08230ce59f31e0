import type { ApprovalRequest } from '../access/schemas.ts'
import { type Capability, capabilityRank } from '../kernel/capabilities.ts'
import { currentOrg } from '../kernel/context.ts'
import type { ApprovalRequestId, MemberId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import type { CapabilityTarget } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { agentActor, requireAgent } from './service.ts'
import { actionTarget, drivenSession, log, requireSession } from './sessions.ts'

/** A pending request past its deadline reads as expired: it can no longer be decided. */
function present(request: ApprovalRequest, now: string): ApprovalRequest {
  return request.state === 'pending' && request.expiresAt <= now ? { ...request, state: 'expired' } : request
}

export async function requireApproval(
  ctx: OperationContext,
  id: ApprovalRequestId,
): Promise<ApprovalRequest> {
  const request = await ctx.store.approvals.get(currentOrg(ctx).id, id)
  // As visible as its session (and so as its task).
  if (!request) throw notFound('Approval request')
  await requireSession(ctx, request.sessionId).catch(() => {
    throw notFound('Approval request')
  })
  return present(request, ctx.now)
}

export async function listApprovals(
  ctx: OperationContext,
  query: {
    cursor?: string
    limit?: number
    state?: ApprovalRequest['state']
    sessionId?: ApprovalRequest['sessionId']
  },
): Promise<Page<ApprovalRequest>> {
  const orgId = currentOrg(ctx).id
  // Expiry is a reading of the clock, so `pending` and `expired` are both stored as pending and
  // told apart by `expiresAt` in the query itself, so that every page is full.
  const stored = query.state === 'expired' ? 'pending' : query.state
  const filter = Object.fromEntries(
    Object.entries({ state: stored, sessionId: query.sessionId }).filter(([, v]) => v),
  )
  // The clock is not part of the cursor's scope: the next page reads with its own `now`.
  const byClock =
    query.state === 'pending'
      ? { expiresAfter: ctx.now }
      : query.state === 'expired'
        ? { expiredBy: ctx.now }
        : {}
  const scope = await ctx.scope()
  const page = await readPage(ctx, {
    scope: ['approvalRequests.list', orgId, filter, query.state ?? null],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (r: ApprovalRequest) => r.id,
    fetch: (p) => ctx.store.approvals.list(orgId, { ...filter, ...byClock }, p, scope),
  })
  return { data: page.data.map((r) => present(r, ctx.now)), nextCursor: page.nextCursor }
}

/**
 * Approves and runs the proposed action as the agent, through the same pipeline, in this
 * transaction. The approver must hold the capability the action needs; so must the agent, still.
 * If the action fails, nothing changes and the request stays pending.
 */
export async function approve(ctx: OperationContext, id: ApprovalRequestId): Promise<ApprovalRequest> {
  const request = await decidable(ctx, id)
  await requireDecider(ctx, request)
  const agent = agentActor(await requireAgent(ctx, request.agentId))
  const operation = ctx.operationOf(request.operationId)
  if (!operation)
    throw new ProblemError('conflict', `The operation \`${request.operationId}\` no longer exists.`)
  const result = await ctx.invoke(
    request.operationId,
    { ...request.input, body: request.input.body ?? undefined },
    agent,
  )
  return decide(ctx, request, { state: 'approved', reason: null, result })
}

export async function reject(
  ctx: OperationContext,
  id: ApprovalRequestId,
  reason: string | null,
): Promise<ApprovalRequest> {
  const request = await decidable(ctx, id)
  await requireDecider(ctx, request)
  return decide(ctx, request, { state: 'rejected', reason, result: null })
}

/**
 * Sends the proposed action back: nothing of it happens, and the session sees the feedback as a
 * `prompt` in its log and returns to active (once no other request of it is pending).
 */
export async function requestChanges(
  ctx: OperationContext,
  id: ApprovalRequestId,
  feedback: string,
): Promise<ApprovalRequest> {
  const request = await decidable(ctx, id)
  await requireDecider(ctx, request)
  const decided = await decide(ctx, request, { state: 'changes_requested', reason: feedback, result: null })
  const session = await requireSession(ctx, request.sessionId)
  await log(ctx, session, {
    kind: 'prompt',
    content: feedback,
    data: { approvalRequestId: request.id, promptedBy: ctx.actor!.id },
  })
  return decided
}

/** The driver withdraws a request of its own session while it is pending. */
export async function cancelApproval(
  ctx: OperationContext,
  id: ApprovalRequestId,
  reason: string | null,
): Promise<ApprovalRequest> {
  const request = await requireApproval(ctx, id)
  await drivenSession(ctx, request.sessionId)
  if (request.state !== 'pending') throw closed(request)
  return decide(ctx, request, { state: 'canceled', reason, result: null })
}

/**
 * Who may decide: someone holding the capability the action needs on its target, and, when a
 * container's policy held it, the policy's approver capability too (as it was when proposed).
 */
async function requireDecider(ctx: OperationContext, request: ApprovalRequest): Promise<void> {
  const needed: Capability[] = [request.capability ?? 'contribute', request.approverCapability ?? 'view']
  const highest = needed.reduce((a, b) => (capabilityRank(b) > capabilityRank(a) ? b : a))
  await ctx.require(highest, targetOf(ctx, request))
}

function closed(request: ApprovalRequest): ProblemError {
  return new ProblemError('approval_closed', `The request is ${request.state}.`, {
    extensions: { state: request.state },
  })
}

async function decidable(ctx: OperationContext, id: ApprovalRequestId): Promise<ApprovalRequest> {
  const request = await requireApproval(ctx, id)
  if (request.state !== 'pending') throw closed(request)
  return request
}

/** Where the proposed action would act: its operation's target for the proposed input. */
function targetOf(ctx: OperationContext, request: ApprovalRequest): CapabilityTarget {
  return actionTarget(ctx, request.operationId, request.input, request.orgId)
}

async function decide(
  ctx: OperationContext,
  request: ApprovalRequest,
  decision: Pick<ApprovalRequest, 'state' | 'reason' | 'result'>,
): Promise<ApprovalRequest> {
  const full = { ...decision, decidedBy: ctx.actor!.id as MemberId, decidedAt: ctx.now }
  if (!(await ctx.store.approvals.decide(request.orgId, request.id, full))) {
    throw new ProblemError('approval_closed', 'Someone decided this request a moment ago.')
  }
  const next = { ...request, ...full }
  ctx.emit({
    kind: `approval_request.${decision.state}`,
    resourceType: 'approval_request',
    resourceId: request.id,
    data: { approvalRequest: next },
  })
  const session = await ctx.store.sessions.get(request.orgId, request.sessionId, UNSCOPED)
  const stillWaiting = await ctx.store.approvals.list(
    request.orgId,
    { state: 'pending', sessionId: request.sessionId },
    { sort: 'id', direction: 'asc', after: null, limit: 1 },
    UNSCOPED,
  )
  if (session?.state === 'awaiting_approval' && stillWaiting.length === 0) {
    await ctx.store.sessions.update(session.orgId, session.id, { state: 'active', updatedAt: ctx.now })
    ctx.emit({
      kind: 'agent_session.updated',
      resourceType: 'agent_session',
      resourceId: session.id,
      data: { changes: { state: { before: 'awaiting_approval', after: 'active' } } },
    })
  }
  return next
}
