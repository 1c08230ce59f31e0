import { type TSchema, Type } from '@sinclair/typebox'
import {
  Agent,
  AgentActivity,
  AgentSession,
  ApprovalRequest,
  ContainerApprovalPolicy,
} from '../access/schemas.ts'
import { changedData, EventChanges, recordData, sameData } from '../kernel/event-data.ts'

/** The `data` of agent, session, activity and approval events, as service.ts, sessions.ts, approvals.ts and policies.ts emit it. */
export const AGENT_EVENT_DATA: Record<string, TSchema> = {
  'agent.created': recordData('agent', Agent),
  ...sameData(['agent.updated', 'agent.deactivated', 'agent.reactivated'], changedData('agent', Agent)),
  'agent_session.created': recordData('session', AgentSession),
  // A decision that resumes a held session (approvals.ts) names only the state change.
  'agent_session.updated': Type.Object({ session: Type.Optional(AgentSession), changes: EventChanges }),
  'agent_activity.created': recordData('activity', AgentActivity),
  ...sameData(
    [
      'approval_request.created',
      'approval_request.approved',
      'approval_request.rejected',
      'approval_request.changes_requested',
      'approval_request.canceled',
    ],
    recordData('approvalRequest', ApprovalRequest),
  ),
  ...sameData(
    ['approval_policy.created', 'approval_policy.deleted'],
    recordData('approvalPolicy', ContainerApprovalPolicy),
  ),
  'approval_policy.updated': changedData('approvalPolicy', ContainerApprovalPolicy),
}
