/** Storage of tasks and what hangs off them: history, dependencies, relations, keys, subscribers, links. */

import type { CustomField, CustomFieldValue } from '../fields/schemas.ts'
import type {
  ActorId,
  CycleId,
  LabelId,
  MemberId,
  MilestoneId,
  OrgId,
  ProjectId,
  StateId,
  TaskId,
  TeamId,
} from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { StateCategory } from '../teams/schemas.ts'
import type { TaskCondition } from './filter/condition.ts'
import type { TaskHistoryEntry } from './history/schemas.ts'
import type { TaskSort } from './order.ts'
import type { RelationType, TaskDependency, TaskRelation, TaskSubscriber } from './relations/schemas.ts'
import type { Priority, Task } from './schemas.ts'

/**
 * What is stored of a task; `key`, `stateCategory` and `isBlocked` are read through joins,
 * `labelIds` from `task_labels`, `fields` from `custom_field_values`. `startDate`, `parentId`, `cycleId`, `projectId` and `milestoneId` default to null.
 */
export type TaskRecord = Omit<
  Task,
  | 'key'
  | 'stateCategory'
  | 'isBlocked'
  | 'startDate'
  | 'parentId'
  | 'labelIds'
  | 'fields'
  | 'cycleId'
  | 'projectId'
  | 'milestoneId'
> &
  Partial<Pick<Task, 'startDate' | 'parentId'>> & {
    cycleId?: CycleId | null
    projectId?: ProjectId | null
    milestoneId?: MilestoneId | null
    /** The task's place in its board column, project and cycle (rank.ts); never in `Task`. */
    boardRank: string
    projectRank?: string | null
    cycleRank?: string | null
  }

export type { TaskSort } from './order.ts'

export interface TaskFilter {
  teamId?: TeamId
  stateId?: StateId
  stateCategory?: StateCategory[]
  /** A member, or null for unassigned tasks. */
  assigneeId?: MemberId | null
  priority?: Priority
  /** A cycle, or null for tasks in no cycle. */
  cycleId?: CycleId | null
  /** A project, or null for tasks in no project. */
  projectId?: ProjectId | null
  /** A milestone, or null for tasks in no milestone. */
  milestoneId?: MilestoneId | null
  updatedSince?: string
  /** false: only active tasks (the default); true: only archived ones; null: both. */
  archived: boolean | null
  /** Subtasks of this task; null: top-level tasks only. */
  parentId?: TaskId | null
  /** Every term begins a word of the title or the description (the full-text index); empty: nothing matches. */
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
  /**
   * Tasks by a custom field's value: `equals` a value (for a multi-select, holding that option),
   * null for tasks without a value, left out for tasks with any value.
   */
  customField?: { field: CustomField; equals?: string | number | null }
  /** With the `field` sort: the field whose values order the tasks (fields.ts in tasks says how). */
  sortField?: CustomField
  /** Leaves out tasks whose triage snooze (`triage.snooze`) ends after this time. */
  awakeAt?: string
  /** Tasks that block this task. */
  blockersOf?: TaskId
  /** Tasks this task blocks. */
  blockedBy?: TaskId
  /** Tasks this member or agent created (the hub's `created`). */
  creatorId?: ActorId
  /** Tasks this member or agent follows (the hub's `followed`). */
  subscriberId?: ActorId
  /** Tasks in a cycle running at this time: started, not ended, not completed (the hub's current cycle). */
  cycleRunningAt?: string
  /** Tasks with a blocker that was completed at or after this time (the hub's newly unblocked). */
  blockerCompletedSince?: string
  /** The composed filter of `tasks.query` and saved views (filter.ts), inside the same query. */
  where?: TaskCondition
  /** Only these tasks (a daily plan's tasks of one workspace, read at once); empty: none. */
  ids?: readonly TaskId[]
}

/**
 * What a create writes with the task, as the single writes would: its labels and subscribers (put
 * on by `by`), its custom field values (none cleared: the task had none) and its history entries.
 */
export interface NewTaskRows {
  labelIds: readonly LabelId[]
  fieldValues: readonly { field: CustomField; value: CustomFieldValue }[]
  history: readonly TaskHistoryRecord[]
  subscriberIds: readonly ActorId[]
  by: { actorId: ActorId; at: string }
}

export interface TaskRepo {
  insert(task: TaskRecord): Promise<void>
  /**
   * Inserts a new task with what hangs on it (`NewTaskRows`), in one statement where the database
   * allows it, and answers the task as `get` maps a row, from what the insert returns and the joined
   * values the caller checked (its team's key, its state's category); a new task has no blocker.
   */
  create(
    task: TaskRecord,
    joined: { teamKey: string; stateCategory: StateCategory },
    rows: NewTaskRows,
  ): Promise<Omit<Task, 'labelIds' | 'fields'>>
  /** Deleted tasks, and tasks the scope cannot view, are not returned. */
  get(orgId: OrgId, id: TaskId, scope: ReadScope): Promise<Task | null>
  /** Only tasks the scope can view: the predicate is part of the query, so pages are exact. */
  list(orgId: OrgId, filter: TaskFilter, page: PageRequest<TaskSort>, scope: ReadScope): Promise<Task[]>
  /**
   * What `list` answers for each filter with the same page request, in the filters' order, read
   * together (one statement for the pages, one for their labels, fields and blocked flags): the hub's
   * today sections. A task on several pages is on each.
   */
  listEach(
    orgId: OrgId,
    filters: readonly TaskFilter[],
    page: PageRequest<TaskSort>,
    scope: ReadScope,
  ): Promise<Task[][]>
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

declare module '../kernel/storage.ts' {
  interface Store {
    tasks: TaskRepo
    taskHistory: TaskHistoryRepo
    taskDependencies: TaskDependencyRepo
    taskRelations: TaskRelationRepo
    taskKeys: TaskKeyRepo
    taskSubscribers: TaskSubscriberRepo
  }
}
