import type {
  Agent,
  AgentActivity,
  AgentSession,
  ApprovalRequest,
  ContainerApprovalPolicy,
  SessionState,
} from '../access/schemas.ts'
import type {
  ActorId,
  AgentId,
  AgentSessionId,
  ApprovalPolicyId,
  ApprovalRequestId,
  OrgId,
  TaskId,
} from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { Container } from '../kernel/permissions.ts'
import type { ReadScope } from '../kernel/read-scope.ts'

export interface AgentRepo {
  insert(agent: Agent): Promise<void>
  get(orgId: OrgId, id: AgentId): Promise<Agent | null>
  list(orgId: OrgId, filter: { status?: Agent['status'] }, page: PageRequest<'id'>): Promise<Agent[]>
  update(
    orgId: OrgId,
    id: AgentId,
    patch: Partial<Pick<Agent, 'name' | 'description' | 'status' | 'approvalPolicy' | 'updatedAt'>>,
  ): Promise<void>
}

export interface SessionFilter {
  agentId?: AgentId
  taskId?: TaskId
  state?: SessionState
}

export interface SessionRepo {
  insert(session: AgentSession): Promise<void>
  /** With a scope, a session on a task the scope cannot view is not returned. */
  get(orgId: OrgId, id: AgentSessionId, scope: ReadScope): Promise<AgentSession | null>
  list(
    orgId: OrgId,
    filter: SessionFilter,
    page: PageRequest<'id'>,
    scope: ReadScope,
  ): Promise<AgentSession[]>
  update(
    orgId: OrgId,
    id: AgentSessionId,
    patch: Partial<
      Pick<AgentSession, 'state' | 'updatedAt' | 'endedAt' | 'title' | 'externalUrl' | 'planSummary'>
    >,
  ): Promise<void>
  /** Appends to the log with the next sequence of the session (the session row stays locked). */
  appendActivity(orgId: OrgId, activity: Omit<AgentActivity, 'seq'>): Promise<AgentActivity>
  listActivities(
    orgId: OrgId,
    sessionId: AgentSessionId,
    afterSeq: number,
    limit: number,
  ): Promise<AgentActivity[]>
}

export interface ApprovalRepo {
  insert(request: ApprovalRequest): Promise<void>
  get(orgId: OrgId, id: ApprovalRequestId): Promise<ApprovalRequest | null>
  /**
   * Only requests whose session the scope can view. `expiresAfter` keeps those expiring later than
   * it, `expiredBy` those expiring at or before it (a stored `pending` is `expired` once past).
   */
  list(
    orgId: OrgId,
    filter: {
      state?: ApprovalRequest['state']
      sessionId?: AgentSessionId
      expiresAfter?: string
      expiredBy?: string
    },
    page: PageRequest<'id'>,
    scope: ReadScope,
  ): Promise<ApprovalRequest[]>
  /**
   * Moves a pending request to its decision. Returns false, changing nothing, when it was no longer
   * pending: under concurrent decisions exactly one wins.
   */
  decide(
    orgId: OrgId,
    id: ApprovalRequestId,
    decision: Pick<ApprovalRequest, 'state' | 'decidedBy' | 'decidedAt' | 'reason' | 'result'>,
  ): Promise<boolean>
}

export interface ApprovalPolicyFilter {
  containerType?: ContainerApprovalPolicy['containerType']
  containerId?: string
}

export interface ApprovalPolicyRepo {
  insert(policy: ContainerApprovalPolicy): Promise<void>
  get(orgId: OrgId, id: ApprovalPolicyId): Promise<ContainerApprovalPolicy | null>
  list(
    orgId: OrgId,
    filter: ApprovalPolicyFilter,
    page: PageRequest<'id'>,
  ): Promise<ContainerApprovalPolicy[]>
  /** Every policy on any of these containers, oldest first: the gate reads them on each action. */
  onContainers(orgId: OrgId, containers: readonly Container[]): Promise<ContainerApprovalPolicy[]>
  update(
    orgId: OrgId,
    id: ApprovalPolicyId,
    patch: Partial<
      Pick<
        ContainerApprovalPolicy,
        'operations' | 'capabilities' | 'agentIds' | 'approverCapability' | 'version' | 'updatedAt'
      >
    >,
  ): Promise<void>
  delete(orgId: OrgId, id: ApprovalPolicyId): Promise<void>
}

declare module '../kernel/storage.ts' {
  interface Store {
    approvalPolicies: ApprovalPolicyRepo
    agents: AgentRepo
    sessions: SessionRepo
    approvals: ApprovalRepo
  }
}
