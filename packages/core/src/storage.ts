import type { NewEvent, StoredEvent } from './events.ts'
import type {
  ActorId,
  AgentId,
  ApprovalId,
  CommentId,
  CycleId,
  GrantId,
  InvitationId,
  LabelId,
  MemberId,
  OrgId,
  ReactionId,
  SessionId,
  StateId,
  TaskId,
  TaskLinkId,
  TeamId,
  UserId,
} from './ids.ts'
import type { OAuthStore } from './oauth/store.ts'
import type { KeysetPosition, PageRequest } from './pagination.ts'
import type { ReadScope } from './permissions.ts'
import type {
  Agent,
  AgentActivity,
  AgentSession,
  ApprovalRequest,
  Grant,
  Invitation,
  SessionState,
  TeamMembership,
} from './schemas/access.ts'
import type { Comment, CommentRevision, Reaction, ReactionTargetType } from './schemas/comments.ts'
import type { Cycle, CycleSettings } from './schemas/cycles.ts'
import type { Label } from './schemas/labels.ts'
import type { Member, Org } from './schemas/orgs.ts'
import type {
  RelationType,
  TaskDependency,
  TaskLink,
  TaskRelation,
  TaskSubscriber,
} from './schemas/task-depth.ts'
import type { TaskHistoryEntry } from './schemas/task-history.ts'
import type { Priority, Task } from './schemas/tasks.ts'
import type { StateCategory, Team, WorkflowState } from './schemas/teams.ts'
import type { TaskSort } from './task-order.ts'

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

/**
 * What is stored of a task; `key`, `stateCategory` and `isBlocked` are read through joins,
 * `labelIds` from `task_labels`. `startDate`, `parentId` and `cycleId` default to null.
 */
export type TaskRecord = Omit<
  Task,
  'key' | 'stateCategory' | 'isBlocked' | 'startDate' | 'parentId' | 'labelIds' | 'cycleId'
> &
  Partial<Pick<Task, 'startDate' | 'parentId'>> & { cycleId?: CycleId | null }

export type { TaskSort } from './task-order.ts'

export interface TaskFilter {
  teamId?: TeamId
  stateId?: StateId
  stateCategory?: StateCategory[]
  /** A member, or null for unassigned tasks. */
  assigneeId?: MemberId | null
  priority?: Priority
  /** A cycle, or null for tasks in no cycle. */
  cycleId?: CycleId | null
  updatedSince?: string
  /** false: only active tasks (the default); true: only archived ones; null: both. */
  archived: boolean | null
  /** Subtasks of this task; null: top-level tasks only. */
  parentId?: TaskId | null
  /** Every token appears in the title or the description (lower-cased substrings). */
  search?: string[]
  /** Tasks carrying this label. */
  labelId?: LabelId
  /** true: tasks an open task blocks; false: the others. */
  blocked?: boolean
  /** Due dates (`YYYY-MM-DD`), both ends inclusive; undated tasks never match. */
  dueAfter?: string
  dueBefore?: string
  /** Creation time: at or after `createdAfter`, before `createdBefore`. */
  createdAfter?: string
  createdBefore?: string
  /** Last change before this time (with `updatedSince`, a range). */
  updatedBefore?: string
  /** Tasks that block this task. */
  blockersOf?: TaskId
  /** Tasks this task blocks. */
  blockedBy?: TaskId
}

export interface TaskRepo {
  insert(task: TaskRecord): Promise<void>
  /** Deleted tasks, and tasks the scope cannot view, are not returned. */
  get(orgId: OrgId, id: TaskId, scope: ReadScope): Promise<Task | null>
  /** Only tasks the scope can view: the predicate is part of the query, so pages are exact. */
  list(orgId: OrgId, filter: TaskFilter, page: PageRequest<TaskSort>, scope: ReadScope): Promise<Task[]>
  update(
    orgId: OrgId,
    id: TaskId,
    patch: Partial<Omit<TaskRecord, 'id' | 'orgId' | 'creatorId' | 'createdAt'>>,
  ): Promise<void>
  /** The direct subtasks (archived too, deleted ones not) of the given tasks, whoever may view them. */
  childrenOf(
    orgId: OrgId,
    parentIds: readonly TaskId[],
  ): Promise<Array<{ id: TaskId; parentId: TaskId; archived: boolean }>>
  /** Soft delete: the task stops existing for every read; its number is never reused. */
  delete(orgId: OrgId, id: TaskId, at: string): Promise<void>
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

/** What is stored of a cycle; `status` is derived from the clock when it is read. */
export type CycleRecord = Omit<Cycle, 'status'>

export interface CycleFilter {
  teamId: TeamId
  /** Status as of `now`. */
  status?: { value: Cycle['status']; now: string }
}

export interface CycleTally {
  category: StateCategory
  tasks: number
  points: number
}

export interface CycleRepo {
  insert(cycle: CycleRecord): Promise<void>
  /** With a scope, a cycle of a team the scope cannot view is not returned. */
  get(orgId: OrgId, id: CycleId, scope?: ReadScope): Promise<CycleRecord | null>
  /** Keyset by `startsAt` (then id); only cycles of teams the scope can view. */
  list(
    orgId: OrgId,
    filter: CycleFilter,
    page: PageRequest<'startsAt'>,
    scope: ReadScope,
  ): Promise<CycleRecord[]>
  update(
    orgId: OrgId,
    id: CycleId,
    patch: Partial<
      Pick<CycleRecord, 'name' | 'description' | 'startsAt' | 'endsAt' | 'completedAt' | 'updatedAt'>
    >,
  ): Promise<void>
  /** Deletes the cycle; its tasks leave it (their `cycleId` becomes null). */
  delete(orgId: OrgId, id: CycleId): Promise<void>
  /** Cycles of the team whose [startsAt, endsAt) overlaps the window, except `exceptId`. */
  overlapping(
    orgId: OrgId,
    teamId: TeamId,
    window: { startsAt: string; endsAt: string },
    exceptId?: CycleId,
  ): Promise<CycleRecord[]>
  /** The team's cycles that are not completed and end after `after`, by start. */
  openAfter(orgId: OrgId, teamId: TeamId, after: string): Promise<CycleRecord[]>
  /** The team's cycle that ends last, or null. */
  last(orgId: OrgId, teamId: TeamId): Promise<CycleRecord | null>
  /** The number the team's next cycle gets; call under the team's cycle lock. */
  nextNumber(orgId: OrgId, teamId: TeamId): Promise<number>
  /** Tasks of the cycle (not archived, not deleted) counted per state category. */
  progress(orgId: OrgId, id: CycleId): Promise<CycleTally[]>
  /** Unfinished (not completed or canceled), not deleted tasks of the cycle, by id. */
  unfinishedTasks(orgId: OrgId, id: CycleId): Promise<TaskId[]>
  /**
   * Maintenance sweep, across orgs: cycles not completed whose end is at or before `now`, oldest
   * end first. Only the engine's periodic pass uses it; nothing a caller reads spans tenants.
   */
  ended(now: string, limit: number): Promise<Array<Pick<CycleRecord, 'orgId' | 'id' | 'teamId'>>>
  /** The team's cycle settings, or null while they are the defaults. */
  getSettings(orgId: OrgId, teamId: TeamId): Promise<CycleSettings | null>
  putSettings(orgId: OrgId, settings: CycleSettings & { updatedAt: string }): Promise<void>
  /** Maintenance sweep, across orgs: teams with a cadence enabled (and not archived). */
  teamsWithCadence(): Promise<Array<{ orgId: OrgId; teamId: TeamId }>>
}

export interface LabelFilter {
  /** Labels that apply to this team's tasks: the team's own and the org's. */
  appliesToTeamId?: TeamId
  parentId?: LabelId
  /** false: only active labels (the default); true: only archived ones; null: both. */
  archived: boolean | null
}

export interface LabelRepo {
  insert(label: Label): Promise<void>
  /** With a scope, a team label of a team the scope cannot view is not returned; org labels always are. */
  get(orgId: OrgId, id: LabelId, scope: ReadScope): Promise<Label | null>
  /** Ordered by name ignoring case (the `name` sort key is the lowercased name), then id. */
  list(orgId: OrgId, filter: LabelFilter, page: PageRequest<'name'>, scope: ReadScope): Promise<Label[]>
  /** An active label of the scope (org: `teamId` null) with this name, ignoring case, other than `exceptId`. */
  findActiveByName(
    orgId: OrgId,
    teamId: TeamId | null,
    name: string,
    exceptId?: LabelId,
  ): Promise<Label | null>
  update(
    orgId: OrgId,
    id: LabelId,
    patch: Partial<Pick<Label, 'name' | 'color' | 'description' | 'parentId' | 'updatedAt' | 'archivedAt'>>,
  ): Promise<void>
  /** Deletes the label, takes it off every task and ungroups its children; returns how many tasks carried it. */
  delete(orgId: OrgId, id: LabelId): Promise<number>
  /** The label ids a task carries, in the order they were added. */
  labelIdsOf(orgId: OrgId, taskId: TaskId): Promise<LabelId[]>
  /** Returns false when the task already carries the label. */
  addToTask(
    orgId: OrgId,
    taskId: TaskId,
    labelId: LabelId,
    by: { actorId: ActorId; at: string },
  ): Promise<boolean>
  /** Returns false when the task did not carry the label. */
  removeFromTask(orgId: OrgId, taskId: TaskId, labelId: LabelId): Promise<boolean>
  /** How many tasks carry `labelId` together with another label whose group is `groupId`. */
  countTasksSharingGroup(orgId: OrgId, labelId: LabelId, groupId: LabelId): Promise<number>
}

/** What is stored of a comment: its thread's root (itself for a root) instead of `parentId`. */
export type CommentRecord = Omit<Comment, 'parentId'> & { threadId: CommentId }

export interface CommentRepo {
  insert(comment: CommentRecord): Promise<void>
  /** Comments on deleted tasks, and on tasks the scope cannot view, are not returned. */
  get(orgId: OrgId, id: CommentId, scope: ReadScope): Promise<Comment | null>
  /**
   * A task's comments, threads in order: each root followed by its replies (the sort key is the
   * thread's root id), or with `threadId` only that thread's replies.
   */
  list(
    orgId: OrgId,
    filter: { taskId: TaskId } | { threadId: CommentId; repliesOnly: true },
    page: PageRequest<'thread'>,
    scope: ReadScope,
  ): Promise<Comment[]>
  update(
    orgId: OrgId,
    id: CommentId,
    patch: Partial<
      Pick<Comment, 'body' | 'updatedAt' | 'editedAt' | 'deletedAt' | 'resolvedAt' | 'resolvedById'>
    >,
  ): Promise<void>
  insertRevision(orgId: OrgId, revision: CommentRevision): Promise<void>
  /** Oldest first. */
  listRevisions(orgId: OrgId, commentId: CommentId, page: PageRequest<'id'>): Promise<CommentRevision[]>
  /** Removes every kept body of a deleted comment. */
  deleteRevisions(orgId: OrgId, commentId: CommentId): Promise<void>
}

export interface ReactionTarget {
  type: ReactionTargetType
  id: string
}

/** Reactions to one target, grouped by emoji, the groups in the order of their first reaction. */
export interface ReactionGroupRow {
  emoji: string
  /** The id of the group's first reaction: its position in the list. */
  id: ReactionId
  reactions: Array<{ id: ReactionId; actorId: ActorId }>
}

export interface ReactionRepo {
  /** Returns false, writing nothing, when the actor already reacted to the target with the emoji. */
  insert(reaction: Reaction): Promise<boolean>
  get(orgId: OrgId, id: ReactionId): Promise<Reaction | null>
  delete(orgId: OrgId, id: ReactionId): Promise<void>
  /** One page of emoji groups (by first reaction), each with every reaction in it. */
  listGroups(orgId: OrgId, target: ReactionTarget, page: PageRequest<'id'>): Promise<ReactionGroupRow[]>
}

export type TaskHistoryRecord = TaskHistoryEntry & { orgId: OrgId }

/** The append-only change log of tasks. */
export interface TaskHistoryRepo {
  insert(entries: TaskHistoryRecord[]): Promise<void>
  /** The task's entries, oldest first (by time, then id). */
  list(orgId: OrgId, taskId: TaskId, page: PageRequest<'createdAt'>): Promise<TaskHistoryEntry[]>
}

export type TaskDependencyRecord = TaskDependency & { orgId: OrgId }

/** "blocker blocks blocked" edges between tasks of one org. */
export interface TaskDependencyRepo {
  /** Returns false, writing nothing, when the edge exists already. */
  add(dependency: TaskDependencyRecord): Promise<boolean>
  /** Returns false when there was no such edge. */
  remove(orgId: OrgId, blockerId: TaskId, blockedId: TaskId): Promise<boolean>
  get(orgId: OrgId, blockerId: TaskId, blockedId: TaskId): Promise<TaskDependency | null>
  /** The edges leaving the given blockers (what they block), for graph walks; whoever may view them. */
  blockedBy(
    orgId: OrgId,
    blockerIds: readonly TaskId[],
  ): Promise<Array<{ blockerId: TaskId; blockedId: TaskId }>>
  /** Drops every edge touching the task (it was deleted). */
  removeAllOf(orgId: OrgId, taskId: TaskId): Promise<void>
}

export interface TaskRelationRecord {
  orgId: OrgId
  taskId: TaskId
  relatedId: TaskId
  type: RelationType
  createdBy: ActorId
  createdAt: string
}

/** Relations are stored once per direction, so listing one task's relations is one index read. */
export interface TaskRelationRepo {
  /** Writes the relation and its mirror; false, writing nothing, when the two tasks are related already. */
  add(relation: TaskRelationRecord, mirror: TaskRelationRecord): Promise<boolean>
  get(orgId: OrgId, taskId: TaskId, relatedId: TaskId): Promise<TaskRelationRecord | null>
  /** The task's duplicate-of relation, if any. */
  duplicateOf(orgId: OrgId, taskId: TaskId): Promise<TaskRelationRecord | null>
  /** Removes the relation in both directions; false when there was none. */
  remove(orgId: OrgId, taskId: TaskId, relatedId: TaskId): Promise<boolean>
  /** The task's relations whose other task the scope can view, by the other task's id. */
  list(orgId: OrgId, taskId: TaskId, page: PageRequest<'id'>, scope: ReadScope): Promise<TaskRelation[]>
  removeAllOf(orgId: OrgId, taskId: TaskId): Promise<void>
}

/** Task keys: the current one is the team key and number; previous ones are kept after a move. */
export interface TaskKeyRepo {
  /** The task whose current or previous key this is (case-insensitive); deleted tasks resolve to null. */
  resolve(orgId: OrgId, key: string): Promise<TaskId | null>
  /** Remembers a key the task no longer carries. */
  addPrevious(orgId: OrgId, key: string, taskId: TaskId, at: string): Promise<void>
}

export interface TaskSubscriberRepo {
  /** Returns false, writing nothing, when the actor is subscribed already. */
  add(subscriber: TaskSubscriber & { orgId: OrgId }): Promise<boolean>
  /** Returns false when the actor was not subscribed. */
  remove(orgId: OrgId, taskId: TaskId, actorId: ActorId): Promise<boolean>
  /** By actor id. */
  list(orgId: OrgId, taskId: TaskId, page: PageRequest<'actorId'>): Promise<TaskSubscriber[]>
}

export interface TaskLinkRepo {
  insert(link: TaskLink & { orgId: OrgId }): Promise<void>
  get(orgId: OrgId, taskId: TaskId, id: TaskLinkId): Promise<TaskLink | null>
  /** Oldest first. */
  list(orgId: OrgId, taskId: TaskId, page: PageRequest<'createdAt'>): Promise<TaskLink[]>
  update(
    orgId: OrgId,
    id: TaskLinkId,
    patch: Partial<Pick<TaskLink, 'url' | 'title' | 'updatedAt'>>,
  ): Promise<void>
  delete(orgId: OrgId, id: TaskLinkId): Promise<void>
}
