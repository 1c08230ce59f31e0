import { Type } from '@sinclair/typebox'
import { APPROVAL_STATES, ApprovalRequest } from '../access/schemas.ts'
import type { ApprovalRequestId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import {
  approve,
  cancelApproval,
  listApprovals,
  reject,
  requestChanges,
  requireApproval,
} from './approvals.ts'
import { approvalExamples, cancelApprovalExample, requestChangesExample } from './examples.ts'

const obj = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false })
const approvalsPath = '/v1/orgs/{orgId}/approval-requests'
const approvalParams = obj({
  ...paramsOf('/v1/orgs/{orgId}'),
  approvalRequestId: IdSchema('ApprovalRequestId'),
})
const aid = (params: Record<string, unknown>) => params.approvalRequestId as ApprovalRequestId
export const approvalOperations: AnyOperation[] = [
  declareOperation({
    id: 'approvalRequests.list',
    method: 'GET',
    path: approvalsPath,
    tag: 'Approvals',
    scope: 'work:read',
    summary: 'List approval requests',
    description:
      "Actions agents proposed that wait for (or had) a person's decision, oldest first, on sessions the caller can view; filter by `state` or `sessionId`. A pending request past its `expiresAt` (24 hours) reads as `expired`; since that is read from the clock, a page filtered by `pending` or `expired` may hold fewer than `limit` requests while `nextCursor` still leads on.",
    params: obj(paramsOf(approvalsPath)),
    query: obj({
      ...PageQuery,
      state: Type.Optional(StringEnum(APPROVAL_STATES)),
      sessionId: Type.Optional(IdSchema('AgentSessionId')),
    }),
    response: PageOf(ApprovalRequest, 'ApprovalRequest'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: approvalExamples.list,
    run: (ctx, { query }) => listApprovals(ctx, query),
  }),
  declareOperation({
    id: 'approvalRequests.get',
    method: 'GET',
    path: `${approvalsPath}/{approvalRequestId}`,
    tag: 'Approvals',
    scope: 'work:read',
    summary: 'Get an approval request',
    description:
      'One approval request: the operation and input the agent proposed, the capability needed to decide it, its state and, once decided, who decided, why and what the action returned. A request on a session the caller cannot view is a 404.',
    params: approvalParams,
    response: ApprovalRequest,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: approvalExamples.get,
    run: (ctx, { params }) => requireApproval(ctx, aid(params)),
  }),
  declareOperation({
    id: 'approvalRequests.approve',
    method: 'POST',
    path: `${approvalsPath}/{approvalRequestId}/approve`,
    tag: 'Approvals',
    scope: 'agents:run',
    summary: 'Approve and run a proposed action',
    requires:
      "the capability the proposed action needs on its target (and a gating policy's approver capability, if higher)",
    description:
      'Needs the capability the action needs. The action runs as the agent; if it fails, nothing changes. A rule its operation states answers 422 `rule_violated`, as that operation does. A request of an agent deactivated since it proposed answers 409 `agent_inactive` and stays pending: reactivate the agent, or reject the request.',
    params: approvalParams,
    response: ApprovalRequest,
    status: 200,
    errors: ['not_found', 'approval_closed', 'capability_required', 'rule_violated', 'agent_inactive'],
    examples: approvalExamples.approve,
    run: (ctx, { params }) => approve(ctx, aid(params)),
  }),
  declareOperation({
    id: 'approvalRequests.reject',
    method: 'POST',
    path: `${approvalsPath}/{approvalRequestId}/reject`,
    tag: 'Approvals',
    scope: 'agents:run',
    summary: 'Reject a proposed action',
    requires:
      "the capability the proposed action needs on its target (and a gating policy's approver capability, if higher)",
    description: 'Nothing of it happens; the request keeps who decided and why.',
    params: approvalParams,
    body: obj({ reason: Type.Optional(Type.String({ maxLength: 2000 })) }),
    response: ApprovalRequest,
    status: 200,
    errors: ['not_found', 'approval_closed', 'capability_required'],
    examples: approvalExamples.reject,
    run: (ctx, { params, body }) => reject(ctx, aid(params), body.reason ?? null),
  }),
  declareOperation({
    id: 'approvalRequests.requestChanges',
    method: 'POST',
    path: `${approvalsPath}/{approvalRequestId}/request-changes`,
    tag: 'Approvals',
    scope: 'agents:run',
    summary: 'Send a proposed action back with feedback',
    requires:
      "the capability the proposed action needs on its target (and a gating policy's approver capability, if higher)",
    description:
      "Who may approve may send it back instead: nothing of it happens, the feedback is written to the session's log as a `prompt`, and the session returns to active.",
    params: approvalParams,
    body: obj({ feedback: Type.String({ minLength: 1, maxLength: 2000 }) }),
    response: ApprovalRequest,
    status: 200,
    errors: ['not_found', 'approval_closed', 'capability_required'],
    examples: requestChangesExample,
    run: (ctx, { params, body }) => requestChanges(ctx, aid(params), body.feedback),
  }),
  declareOperation({
    id: 'approvalRequests.cancel',
    method: 'POST',
    path: `${approvalsPath}/{approvalRequestId}/cancel`,
    tag: 'Approvals',
    scope: 'agents:run',
    summary: 'Withdraw a pending request',
    requires: 'only the person driving the session the request belongs to',
    description: 'By the person driving its session, while the session runs and the request is pending.',
    params: approvalParams,
    body: obj({ reason: Type.Optional(Type.String({ maxLength: 2000 })) }),
    response: ApprovalRequest,
    status: 200,
    errors: ['not_found', 'approval_closed', 'session_closed', 'capability_required'],
    examples: cancelApprovalExample,
    run: (ctx, { params, body }) => cancelApproval(ctx, aid(params), body.reason ?? null),
  }),
]
