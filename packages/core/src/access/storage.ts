/** Storage of who may do what and who acts: grants and team memberships, invitations, agents, sessions, approvals. */
import type {
  ActorId,
  AgentId,
  ApprovalId,
  GrantId,
  InvitationId,
  MemberId,
  OrgId,
  SessionId,
  TaskId,
  TeamId,
} from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/permissions.ts'
import type {
  Agent,
  AgentActivity,
  AgentSession,
  ApprovalRequest,
  Grant,
  Invitation,
  SessionState,
  TeamMembership,
} from './schemas.ts'

export interface GrantFilter {
  subjectType?: Grant['subjectType']
  subjectId?: string
  containerType?: Grant['containerType']
  containerId?: string
}

/** Team memberships and grants: everything the permission engine reads. */
export interface AccessRepo {
  /** The teams the actor belongs to. */
  teamsOf(orgId: OrgId, actorId: ActorId): Promise<string[]>
  /** Grants held by the actor directly or by any of the given teams. */
  grantsFor(orgId: OrgId, actorId: ActorId, teamIds: readonly string[]): Promise<Grant[]>
  listTeamMembers(orgId: OrgId, teamId: TeamId, page: PageRequest<'id'>): Promise<TeamMembership[]>
  /** Returns false when the actor is already in the team. */
  addTeamMember(membership: TeamMembership): Promise<boolean>
  /** Returns false when the actor was not in the team. */
  removeTeamMember(orgId: OrgId, teamId: TeamId, actorId: ActorId): Promise<boolean>
  getGrant(orgId: OrgId, id: GrantId): Promise<Grant | null>
  findGrant(
    orgId: OrgId,
    key: Pick<Grant, 'subjectType' | 'subjectId' | 'containerType' | 'containerId'>,
  ): Promise<Grant | null>
  listGrants(orgId: OrgId, filter: GrantFilter, page: PageRequest<'id'>): Promise<Grant[]>
  insertGrant(grant: Grant & { createdBy: ActorId | null }): Promise<void>
  updateGrant(orgId: OrgId, id: GrantId, patch: Pick<Grant, 'capability' | 'updatedAt'>): Promise<void>
  deleteGrant(orgId: OrgId, id: GrantId): Promise<void>
  /** Removes every grant to or on the subject or container (a removed member, say). */
  deleteGrantsOf(orgId: OrgId, subjectOrContainerId: string): Promise<number>
}

export type InvitationRecord = Omit<Invitation, 'state'> & { tokenHash: string }

export interface InvitationRepo {
  insert(invitation: InvitationRecord): Promise<void>
  get(orgId: OrgId, id: InvitationId): Promise<InvitationRecord | null>
  list(orgId: OrgId, filter: { pendingAt?: string }, page: PageRequest<'id'>): Promise<InvitationRecord[]>
  /**
   * Marks the pending, unexpired invitation with this token hash accepted and returns it. Under
   * concurrent calls exactly one caller receives the row; the others get null.
   */
  consume(tokenHash: string, at: string, memberId: MemberId): Promise<InvitationRecord | null>
  findByToken(tokenHash: string): Promise<InvitationRecord | null>
  revoke(orgId: OrgId, id: InvitationId, at: string): Promise<void>
}

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
  get(orgId: OrgId, id: SessionId, scope: ReadScope): Promise<AgentSession | null>
  list(
    orgId: OrgId,
    filter: SessionFilter,
    page: PageRequest<'id'>,
    scope: ReadScope,
  ): Promise<AgentSession[]>
  update(
    orgId: OrgId,
    id: SessionId,
    patch: Partial<Pick<AgentSession, 'state' | 'updatedAt' | 'endedAt'>>,
  ): Promise<void>
  /** Appends to the log with the next sequence of the session (the session row stays locked). */
  appendActivity(orgId: OrgId, activity: Omit<AgentActivity, 'seq'>): Promise<AgentActivity>
  listActivities(
    orgId: OrgId,
    sessionId: SessionId,
    afterSeq: number,
    limit: number,
  ): Promise<AgentActivity[]>
}

export interface ApprovalRepo {
  insert(request: ApprovalRequest): Promise<void>
  get(orgId: OrgId, id: ApprovalId): Promise<ApprovalRequest | null>
  /** Only requests whose session the scope can view. */
  list(
    orgId: OrgId,
    filter: { state?: ApprovalRequest['state']; sessionId?: SessionId },
    page: PageRequest<'id'>,
    scope: ReadScope,
  ): Promise<ApprovalRequest[]>
  /**
   * Moves a pending request to its decision. Returns false, changing nothing, when it was no longer
   * pending: under concurrent decisions exactly one wins.
   */
  decide(
    orgId: OrgId,
    id: ApprovalId,
    decision: Pick<ApprovalRequest, 'state' | 'decidedBy' | 'decidedAt' | 'reason' | 'result'>,
  ): Promise<boolean>
}
