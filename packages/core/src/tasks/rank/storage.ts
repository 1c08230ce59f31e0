import type { OrgId, TaskId, TeamId } from '../../kernel/ids.ts'
import type { ReadScope } from '../../kernel/read-scope.ts'

/** The hand-ordered lists a task stands in: its board column (its state), its project, its cycle. */
export const TASK_LISTS = ['board', 'project', 'cycle'] as const
export type TaskListKind = (typeof TASK_LISTS)[number]

/** One list: its kind and the state, project or cycle it is the list of. */
export interface TaskList {
  kind: TaskListKind
  id: string
}

/** A task's place in one list; ranks are fractional-indexing keys, compared byte-wise. */
export interface RankedTask {
  id: TaskId
  rank: string
}

/** Where a task stands: its lists and its rank in each (null when it is in no project or cycle). */
export interface TaskPlaces {
  id: TaskId
  stateId: string
  projectId: string | null
  cycleId: string | null
  boardRank: string
  projectRank: string | null
  cycleRank: string | null
  archived: boolean
}

/**
 * The ranks of tasks (tasks/rank/rank.ts). Every list holds the undeleted tasks of its state, project or
 * cycle, archived ones and ones hidden from the caller included, ordered by rank then id.
 */
export interface TaskRankRepo {
  /** The task's lists and ranks, whoever may view it; null when deleted or missing. */
  places(orgId: OrgId, taskId: TaskId): Promise<TaskPlaces | null>
  /** The highest rank of each list, in the order given (one read); null for an empty list. */
  lastOf(orgId: OrgId, lists: readonly TaskList[]): Promise<(string | null)[]>
  /**
   * A new task's number and the top of the lists it enters, in as few statements as the database
   * allows: allocates the team's next task number (as `teams.nextTaskNumber`: distinct under
   * concurrent calls, the counter row locked until the transaction ends), then takes `locks` in the
   * order given (as `locks.acquire`), then reads each list's highest rank (as `lastOf`). The order is
   * the one the separate calls ran in, so no lock is taken in a new order.
   */
  numberAndLastOf(
    orgId: OrgId,
    teamId: TeamId,
    lists: readonly TaskList[],
    locks: readonly string[],
  ): Promise<{ number: number; lasts: (string | null)[] }>
  /**
   * The task just before (`side: 'before'`) or after `of` in the list, skipping `exceptId`. With
   * `scope`, only unarchived tasks the scope may view count (what the caller sees of the list).
   */
  neighbour(
    orgId: OrgId,
    list: TaskList,
    of: RankedTask,
    side: 'before' | 'after',
    options: { exceptId?: TaskId; scope?: ReadScope },
  ): Promise<RankedTask | null>
  /**
   * Sets the task's rank in the list, only while it is still in that list (a concurrent change of
   * state, project or cycle wins): false when it no longer was, writing nothing.
   */
  place(orgId: OrgId, taskId: TaskId, list: TaskList, rank: string, updatedAt: string): Promise<boolean>
  /** The tasks' ranks in lists of the kind, by task id (for a page's cursor). */
  ranksOf(orgId: OrgId, kind: TaskListKind, taskIds: readonly TaskId[]): Promise<Map<TaskId, string | null>>
}

declare module '../../kernel/storage.ts' {
  interface Store {
    taskRanks: TaskRankRepo
  }
}
