import type { AllocationId, MemberId, OrgId, ProjectId, TaskId, TimeEntryId, UserId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Allocation, SummaryGroup, TimeEntry, TimeSummary } from './schemas.ts'

/** A stored entry: the task's project is read through the task, never copied. */
export type TimeEntryRecord = Omit<TimeEntry, 'projectId'> & {
  /** The Monday of the ISO week of `date`, the key summaries group weeks by. */
  week: string
}

export interface TimeEntryFilter {
  memberId?: MemberId
  taskId?: TaskId
  projectId?: ProjectId
  /** First day, inclusive. */
  from?: string
  /** Last day, inclusive. */
  to?: string
}

export interface TimeEntryRepo {
  insert(entry: TimeEntryRecord): Promise<void>
  /** The entry if the scope may view its task. */
  get(orgId: OrgId, id: TimeEntryId, scope: ReadScope): Promise<TimeEntry | null>
  /** Entries on tasks the scope may view, newest day first (then id); the predicate is in the query. */
  list(
    orgId: OrgId,
    filter: TimeEntryFilter,
    page: PageRequest<'date'>,
    scope: ReadScope,
  ): Promise<TimeEntry[]>
  update(
    orgId: OrgId,
    id: TimeEntryId,
    patch: Partial<Pick<TimeEntryRecord, 'minutes' | 'date' | 'week' | 'note' | 'updatedAt'>>,
  ): Promise<void>
  delete(orgId: OrgId, id: TimeEntryId): Promise<void>
  /**
   * Totals of the entries on tasks the scope may view, grouped in the database: at most `limit`
   * groups (largest first; weeks in order), totals over all of them. Week keys are Mondays.
   */
  summary(
    orgId: OrgId,
    filter: TimeEntryFilter,
    groupBy: SummaryGroup,
    limit: number,
    scope: ReadScope,
  ): Promise<Omit<TimeSummary, 'groupBy'>>
}

/** A running timer; one per person, whichever workspace it is in. */
export interface TimerRecord {
  userId: UserId
  orgId: OrgId
  memberId: MemberId
  taskId: TaskId
  note: string | null
  startedAt: string
}

export interface TimerRepo {
  get(userId: UserId): Promise<TimerRecord | null>
  /** Replaces the person's timer, if any. Callers hold the `timer:<userId>` lock. */
  put(timer: TimerRecord): Promise<void>
  /** Removes it; false when none was running (a concurrent stop won). */
  delete(userId: UserId): Promise<boolean>
}

export type AllocationRecord = Omit<Allocation, 'personTotal'>

export interface AllocationFilter {
  projectId?: ProjectId
  memberId?: MemberId
  /** Allocations that end on or after this day. */
  from?: string
  /** Allocations that start on or before this day. */
  to?: string
}

export interface AllocationRepo {
  insert(allocation: AllocationRecord): Promise<void>
  /** The allocation if the scope may view its project. */
  get(orgId: OrgId, id: AllocationId, scope: ReadScope): Promise<AllocationRecord | null>
  /** Allocations on projects the scope may view, by start date (then id). */
  list(
    orgId: OrgId,
    filter: AllocationFilter,
    page: PageRequest<'startDate'>,
    scope: ReadScope,
  ): Promise<AllocationRecord[]>
  update(
    orgId: OrgId,
    id: AllocationId,
    patch: Partial<
      Pick<AllocationRecord, 'startDate' | 'endDate' | 'unit' | 'amount' | 'note' | 'updatedAt'>
    >,
  ): Promise<void>
  delete(orgId: OrgId, id: AllocationId): Promise<void>
  /**
   * Every allocation of these people overlapping [from, to], on any project: totals count
   * allocations the caller cannot view, without naming them.
   */
  overlapping(
    orgId: OrgId,
    memberIds: readonly MemberId[],
    from: string,
    to: string,
  ): Promise<AllocationRecord[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    timeEntries: TimeEntryRepo
    timers: TimerRepo
    allocations: AllocationRepo
  }
}
