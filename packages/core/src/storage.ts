import type { NewEvent, StoredEvent } from './events.ts'
import type { MemberId, OrgId, StateId, TaskId, TeamId, UserId } from './ids.ts'
import type { OAuthStore } from './oauth/store.ts'
import type { KeysetPosition, PageRequest } from './pagination.ts'
import type { Member, Org } from './schemas/orgs.ts'
import type { Priority, Task } from './schemas/tasks.ts'
import type { StateCategory, Team, WorkflowState } from './schemas/teams.ts'

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
  list(orgId: OrgId, filter: { status?: Member['status'] }, page: PageRequest<'id'>): Promise<Member[]>
}

export type TeamRecord = Team

export interface TeamRepo {
  /** Also creates the team's task-number counter. */
  insert(team: TeamRecord): Promise<void>
  get(orgId: OrgId, id: TeamId): Promise<Team | null>
  keyTaken(orgId: OrgId, key: string, exceptId?: TeamId): Promise<boolean>
  list(orgId: OrgId, filter: { archived: boolean | null }, page: PageRequest<'id'>): Promise<Team[]>
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

/** What is stored of a task; `key` and `stateCategory` are read through joins. */
export type TaskRecord = Omit<Task, 'key' | 'stateCategory'>

export type TaskSort = 'createdAt' | 'updatedAt'

export interface TaskFilter {
  teamId?: TeamId
  stateId?: StateId
  stateCategory?: StateCategory[]
  /** A member, or null for unassigned tasks. */
  assigneeId?: MemberId | null
  priority?: Priority
  updatedSince?: string
  /** false: only active tasks (the default); true: only archived ones; null: both. */
  archived: boolean | null
}

export interface TaskRepo {
  insert(task: TaskRecord): Promise<void>
  /** Deleted tasks are not returned. */
  get(orgId: OrgId, id: TaskId): Promise<Task | null>
  list(orgId: OrgId, filter: TaskFilter, page: PageRequest<TaskSort>): Promise<Task[]>
  update(
    orgId: OrgId,
    id: TaskId,
    patch: Partial<Omit<TaskRecord, 'id' | 'orgId' | 'number' | 'creatorId' | 'createdAt'>>,
  ): Promise<void>
  /** Soft delete: the task stops existing for every read; its number is never reused. */
  delete(orgId: OrgId, id: TaskId, at: string): Promise<void>
}

export interface EventRepo {
  /**
   * Appends events to the org's log, allocating each a gap-free sequence from the org's counter
   * row, which stays locked until commit: commit order equals sequence order.
   */
  append(orgId: OrgId, events: NewEvent[]): Promise<StoredEvent[]>
  /** Events with `seq > afterSeq`, in order. */
  list(orgId: OrgId, afterSeq: number, limit: number): Promise<StoredEvent[]>
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
