import type { ApprovalRequest } from '../access/schemas.ts'
import type { ApprovalId, MemberId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import type { CapabilityTarget } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { currentOrg } from '../orgs/service.ts'
import { agentActor, requireAgent } from './service.ts'
import { requireSession } from './sessions.ts'

/** A pending request past its deadline reads as expired: it can no longer be decided. */
function present(request: ApprovalRequest, now: string): ApprovalRequest {
  return request.state === 'pending' && request.expiresAt <= now ? { ...request, state: 'expired' } : request
}

export async function requireApproval(ctx: OperationContext, id: ApprovalId): Promise<ApprovalRequest> {
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
  // Expiry is a reading of the clock, so `pending` and `expired` are both stored as pending.
  const stored = query.state === 'expired' ? 'pending' : query.state
  const filter = Object.fromEntries(
    Object.entries({ state: stored, sessionId: query.sessionId }).filter(([, v]) => v),
  )
  const scope = await ctx.scope()
  const page = await readPage(ctx, {
    scope: ['approvals.list', orgId, filter, query.state ?? null],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (r: ApprovalRequest) => r.id,
    fetch: (p) => ctx.store.approvals.list(orgId, filter, p, scope),
  })
  const data = page.data
    .map((r) => present(r, ctx.now))
    .filter((r) => !query.state || r.state === query.state)
  return { data, nextCursor: page.nextCursor }
}

/**
 * Approves and runs the proposed action as the agent, through the same pipeline, in this
 * transaction. The approver must hold the capability the action needs; so must the agent, still.
 * If the action fails, nothing changes and the request stays pending.
 */
export async function approve(ctx: OperationContext, id: ApprovalId): Promise<ApprovalRequest> {
  const request = await decidable(ctx, id)
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
  id: ApprovalId,
  reason: string | null,
): Promise<ApprovalRequest> {
  const request = await decidable(ctx, id)
  await ctx.require(request.capability ?? 'contribute', await targetOf(ctx, request))
  return decide(ctx, request, { state: 'rejected', reason, result: null })
}

async function decidable(ctx: OperationContext, id: ApprovalId): Promise<ApprovalRequest> {
  const request = await requireApproval(ctx, id)
  if (request.state !== 'pending')
    throw new ProblemError('approval_closed', `The request is ${request.state}.`, {
      extensions: { state: request.state },
    })
  return request
}

/** Where the proposed action would act: the task it names, else the org. */
async function targetOf(ctx: OperationContext, request: ApprovalRequest): Promise<CapabilityTarget> {
  const taskId = (request.input.params as Record<string, unknown>).taskId
  return typeof taskId === 'string' ? { type: 'task', id: taskId } : { type: 'org' }
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
