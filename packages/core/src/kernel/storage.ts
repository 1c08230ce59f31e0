import type { AccessRepo, AgentRepo, ApprovalRepo, InvitationRepo, SessionRepo } from '../access/storage.ts'
import type { CommentRepo, CycleRepo, LabelRepo, ReactionRepo } from '../cycles/storage.ts'
import type { OAuthStore } from '../oauth/store.ts'
import type { Member, Org } from '../orgs/schemas.ts'
import type {
  TaskDependencyRepo,
  TaskHistoryRepo,
  TaskKeyRepo,
  TaskLinkRepo,
  TaskRelationRepo,
  TaskRepo,
  TaskSubscriberRepo,
} from '../tasks/storage.ts'
import type { Team, WorkflowState } from '../teams/schemas.ts'
import type { NewEvent, StoredEvent } from './events.ts'
import type { MemberId, OrgId, StateId, TeamId, UserId } from './ids.ts'
import type { KeysetPosition, PageRequest } from './pagination.ts'
import type { ReadScope } from './permissions.ts'

export type * from '../access/storage.ts'
export type * from '../cycles/storage.ts'
export type * from '../tasks/storage.ts'

/**
 * The storage interface core runs on. One implementation per database family lives in an
 * adapter; every method filters by `orgId` where the data is a tenant's.
 */
export interface Storage {
  readonly dialect: 'sqlite' | 'postgres'
  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back when it throws.
   * Concurrent transactions that touch the same org serialise on the org's event counter.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>
  /** Runs `fn` on plain autocommit reads, for operations that write nothing. */
  read<T>(fn: (store: Store) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export interface Store {
  users: UserRepo
  orgs: OrgRepo
  members: MemberRepo
  teams: TeamRepo
  states: StateRepo
  tasks: TaskRepo
  events: EventRepo
  idempotency: IdempotencyRepo
  secrets: SecretRepo
  locks: LockRepo
  /** Passwords, web sessions, OAuth clients, consents, codes and refresh tokens. */
  oauth: OAuthStore
  /** Team memberships and grants: what the permission engine reads. */
  access: AccessRepo
  invitations: InvitationRepo
  agents: AgentRepo
  sessions: SessionRepo
  approvals: ApprovalRepo
  cycles: CycleRepo
  /** Labels and which tasks carry them. */
  labels: LabelRepo
  comments: CommentRepo
  reactions: ReactionRepo
  taskHistory: TaskHistoryRepo
  taskDependencies: TaskDependencyRepo
  taskRelations: TaskRelationRepo
  taskKeys: TaskKeyRepo
  taskSubscribers: TaskSubscriberRepo
  taskLinks: TaskLinkRepo
}

/** Named locks held until the transaction ends. */
export interface LockRepo {
  /**
   * Waits until no other transaction holds `key`, then holds it until this transaction commits or
   * rolls back. Two transactions that lock the same key run their guarded parts one after the other.
   */
  acquire(key: string): Promise<void>
}

export interface User {
  id: UserId
  email: string
  name: string
  createdAt: string
}

export interface UserRepo {
  insert(user: User): Promise<void>
  get(id: UserId): Promise<User | null>
  /** Case-insensitive. */
  getByEmail(email: string): Promise<User | null>
}

export interface OrgRepo {
  /** Also creates the org's event counter, so the first event gets sequence 1. */
  insert(org: Org): Promise<void>
  get(id: OrgId): Promise<Org | null>
  slugTaken(slug: string): Promise<boolean>
  update(id: OrgId, patch: Partial<Pick<Org, 'name' | 'slug' | 'updatedAt' | 'archivedAt'>>): Promise<void>
  /** Orgs in which the user is an active member, by id. */
  listForUser(userId: UserId, page: PageRequest<'id'>): Promise<Org[]>
}

export type MemberRecord = Omit<Member, 'name' | 'email'>

export interface MemberRepo {
  insert(member: MemberRecord): Promise<void>
  get(orgId: OrgId, id: MemberId): Promise<Member | null>
  /** The user's membership in the org, whatever its status. */
  findByUser(orgId: OrgId, userId: UserId): Promise<Member | null>
  /** Without a status filter, removed members are left out. */
  list(orgId: OrgId, filter: { status?: Member['status'] }, page: PageRequest<'id'>): Promise<Member[]>
  update(
    orgId: OrgId,
    id: MemberId,
    patch: Partial<Pick<MemberRecord, 'role' | 'status' | 'updatedAt'>>,
  ): Promise<void>
  /** Active owners of the org, counted inside the transaction (the last one cannot leave). */
  countOwners(orgId: OrgId): Promise<number>
}

export type TeamRecord = Team

export interface TeamRepo {
  /** Also creates the team's task-number counter. */
  insert(team: TeamRecord): Promise<void>
  /** With a scope, a team the actor cannot view is not returned. */
  get(orgId: OrgId, id: TeamId, scope?: ReadScope): Promise<Team | null>
  keyTaken(orgId: OrgId, key: string, exceptId?: TeamId): Promise<boolean>
  list(
    orgId: OrgId,
    filter: { archived: boolean | null },
    page: PageRequest<'id'>,
    scope: ReadScope,
  ): Promise<Team[]>
  update(
    orgId: OrgId,
    id: TeamId,
    patch: Partial<Pick<Team, 'name' | 'key' | 'description' | 'updatedAt' | 'archivedAt'>>,
  ): Promise<void>
  /**
   * Allocates the next task number of the team. Under concurrent calls every caller receives a
   * distinct number; the counter row stays locked until the transaction ends.
   */
  nextTaskNumber(orgId: OrgId, id: TeamId): Promise<number>
}

export interface StateRepo {
  insert(state: WorkflowState): Promise<void>
  get(orgId: OrgId, id: StateId): Promise<WorkflowState | null>
  /** The team's states by position. */
  listForTeam(orgId: OrgId, teamId: TeamId, filter: { includeArchived: boolean }): Promise<WorkflowState[]>
  update(
    orgId: OrgId,
    id: StateId,
    patch: Partial<
      Pick<WorkflowState, 'name' | 'color' | 'description' | 'position' | 'updatedAt' | 'archivedAt'>
    >,
  ): Promise<void>
  /** Tasks (archived or not, but not deleted) that sit in the state. */
  countTasks(orgId: OrgId, id: StateId): Promise<number>
}

export interface EventRepo {
  /**
   * Appends events to the org's log, allocating each a gap-free sequence from the org's counter
   * row, which stays locked until commit: commit order equals sequence order.
   */
  append(orgId: OrgId, events: NewEvent[]): Promise<StoredEvent[]>
  /**
   * Events with `seq > afterSeq`, in order. With a scope, only what the reader may see, decided in
   * the query: org-wide readers see every event; others the events of their visible teams and the
   * events about themselves (`resourceId` = their actor id). Without one: every event (engine use).
   * With `kinds`, only events of those kinds (also in the query).
   */
  list(
    orgId: OrgId,
    afterSeq: number,
    limit: number,
    scope?: ReadScope,
    kinds?: readonly string[],
  ): Promise<StoredEvent[]>
  /**
   * The org's log bounds: `last` is the committed counter (every event up to it is committed and
   * readable), `oldest` the first retained sequence (`last + 1` when nothing is retained).
   */
  bounds(orgId: OrgId): Promise<{ oldest: number; last: number }>
  /**
   * Deletes, per org, the prefix of the log up to the newest event created before `before`: always a
   * prefix by sequence, so `oldest` tells exactly what a cursor may still resume from.
   */
  prune(before: string): Promise<number>
}

export interface IdempotencyRecord {
  /** Who sent the request: the same key from two callers is two keys. */
  principalKey: string
  key: string
  operationId: string
  requestHash: string
  status: number
  body: unknown
  etag: string | null
  createdAt: string
}

export interface IdempotencyRepo {
  get(principalKey: string, key: string, notBefore: string): Promise<IdempotencyRecord | null>
  /** Returns false, writing nothing, when the key is already stored (a concurrent twin won). */
  put(record: IdempotencyRecord): Promise<boolean>
  /** Deletes records older than `before`. */
  prune(before: string): Promise<number>
}

export interface StoredSecret {
  name: string
  value: string
  createdAt: string
}

/** Server-wide secrets and keys (cursor keys, signing keys) that every instance must share. */
export interface SecretRepo {
  list(prefix: string): Promise<StoredSecret[]>
  /** Returns false, writing nothing, when the name exists: under a race exactly one value wins. */
  insert(secret: StoredSecret): Promise<boolean>
}

export type { KeysetPosition }
