/** Storage of planning and discussion: cycles, labels, comments and reactions. */

import type { Comment, CommentRevision, Reaction, ReactionTargetType } from '../comments/schemas.ts'
import type {
  ActorId,
  CommentId,
  CycleId,
  LabelId,
  OrgId,
  ReactionId,
  TaskId,
  TeamId,
} from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/permissions.ts'
import type { Label } from '../labels/schemas.ts'
import type { StateCategory } from '../teams/schemas.ts'
import type { Cycle, CycleSettings } from './schemas.ts'

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
