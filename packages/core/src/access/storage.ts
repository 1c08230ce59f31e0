import type { LiveCheck } from '../kernel/auth/principal.ts'
import type { OrgRole } from '../kernel/capabilities.ts'
import type {
  ActorId,
  AgentId,
  AgentSessionId,
  ApprovalRequestId,
  GrantId,
  InvitationId,
  MemberId,
  OrgId,
  TaskId,
  TeamId,
  UserId,
} from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { Container, ContainerReach } from '../kernel/permissions.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { IdempotencyLookup, IdempotencyRecord } from '../kernel/storage.ts'
import type { Member, Org } from '../orgs/schemas.ts'
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

/**
 * What every request in an org starts from, read in one statement: the org, the user's membership
 * in it (whatever its status), and that member's teams and the grants held by the member or those
 * teams (as `teamsOf` and `grantsFor` give them). Read afresh per request, so a removed membership or
 * grant counts from the next request on. With an Idempotency-Key, the key's stored answer comes in
 * the same read (`replay`, as `idempotency.get` answers it); with a deferred token check, whether the
 * token is live (`tokenLive`, as `oauth.accessTokenIsLive` answers it).
 */
export interface OrgStanding {
  org: Org | null
  member: Member | null
  teamIds: string[]
  grants: Grant[]
  replay?: IdempotencyRecord | null
  tokenLive?: boolean
}

/** A standing with an active membership: its org and member are there. */
export type ActiveStanding = OrgStanding & { org: Org; member: Member }
/** One user's membership in an org (whatever its status), its teams and grants, as `standing` reads them. */
export interface MemberStanding {
  member: Member
  teamIds: string[]
  grants: Grant[]
}

/** Team memberships and grants: everything the permission engine reads. */
export interface AccessRepo {
  /**
   * The org, the user's membership, its teams and grants; empty lists without a membership. With
   * `replay`, also the key's stored answer (null when there is none); with `token`, whether that
   * access token is live (its consent exists, its `jti` is not revoked).
   */
  standing(orgId: OrgId, userId: UserId, replay?: IdempotencyLookup, token?: LiveCheck): Promise<OrgStanding>
  /**
   * `standing` in every org where the user is an active member (org and member always set), by org
   * id: what a hub read across the user's workspaces starts from, in one read.
   */
  standingsOf(userId: UserId): Promise<ActiveStanding[]>
  /**
   * `standing` for many users of one org at once, without the org (a stream round reads every reader
   * it delivers to): each user with a membership maps to it, its teams and grants; others are absent.
   */
  standings(orgId: OrgId, userIds: readonly UserId[]): Promise<Map<UserId, MemberStanding>>
  /** The teams the actor belongs to. */
  teamsOf(orgId: OrgId, actorId: ActorId): Promise<string[]>
  /** Grants held by the actor directly or by any of the given teams. */
  grantsFor(orgId: OrgId, actorId: ActorId, teamIds: readonly string[]): Promise<Grant[]>
  /**
   * What grants on these programs and initiatives reach: the initiatives below the granted ones
   * (themselves included), the programs those link plus the granted programs, and every project any
   * of them holds. Only existing records of the org are returned.
   */
  reach(
    orgId: OrgId,
    from: { programIds: readonly string[]; initiativeIds: readonly string[] },
  ): Promise<ContainerReach>
  /**
   * The programs and initiatives holding a project, a program or an initiative (the program or
   * initiative itself included), initiatives with all their ancestors.
   */
  containersAbove(
    orgId: OrgId,
    holder: { type: 'project' | 'program' | 'initiative'; id: string },
  ): Promise<{ programIds: string[]; initiativeIds: string[] }>
  listTeamMembers(orgId: OrgId, teamId: TeamId, page: PageRequest<'id'>): Promise<TeamMembership[]>
  /**
   * Actors holding at least a rank on a record, by id: active members whose role is one of
   * `roles`, and members and agents a grant of that rank on one of `containers` reaches (directly
   * or through a team). Removed members are left out.
   */
  holderIds(
    orgId: OrgId,
    query: { roles: readonly OrgRole[]; containers: readonly Container[]; minRank: number },
    page: PageRequest<'id'>,
  ): Promise<ActorId[]>
  /** Returns false when the actor is already in the team. */
  addTeamMember(membership: TeamMembership): Promise<boolean>
  getTeamMember(orgId: OrgId, teamId: TeamId, actorId: ActorId): Promise<TeamMembership | null>
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
  /**
   * Replaces the token (the old link stops working) and the deadline of an invitation neither
   * accepted nor revoked. Returns false, changing nothing, otherwise.
   */
  reissue(orgId: OrgId, id: InvitationId, tokenHash: string, expiresAt: string): Promise<boolean>
  revoke(orgId: OrgId, id: InvitationId, at: string): Promise<void>
  /**
   * Pending invitations to an address in every workspace, unexpired at `now`, by id. The invited
   * person's own list: the one read of invitations that is not confined to one workspace.
   */
  listForEmail(email: string, now: string, page: PageRequest<'id'>): Promise<InvitationRecord[]>
  /** The invitation with this id if it was sent to `email`, in whichever workspace. */
  findForEmail(email: string, id: InvitationId): Promise<InvitationRecord | null>
  /** Marks a pending, unexpired invitation declined; false, changing nothing, otherwise. */
  decline(orgId: OrgId, id: InvitationId, at: string): Promise<boolean>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Team memberships and grants: what the permission engine reads. */
    access: AccessRepo
    invitations: InvitationRepo
  }
}
