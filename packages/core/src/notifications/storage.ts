import type { ActorId, MemberId, NotificationId, OrgId, TaskId, TeamId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type {
  NotificationCounts,
  NotificationFilter,
  NotificationKind,
  NotificationRecord,
} from './schemas.ts'

/** Which of the recipient's notifications a bulk change touches. */
export type NotificationSelection = { ids: readonly NotificationId[] } | { filter: NotificationFilter }

/**
 * One state change as storage applies it: the columns to set, on the selected notifications where
 * `onlyWhere` holds (the ones it would change), so the statement returns exactly what changed.
 */
export interface NotificationChange {
  set: Partial<Pick<NotificationRecord, 'readAt' | 'snoozedUntil' | 'archivedAt'>> & { updatedAt: string }
  onlyWhere: { field: 'readAt' | 'snoozedUntil' | 'archivedAt'; isNull: boolean } | null
  /** Only those created before this time (`batch`'s `filter.before`). */
  createdBefore?: string
}

export interface NotificationRepo {
  /** Returns false, writing nothing, when the recipient already has one with this `dedupeKey`. */
  insert(notification: NotificationRecord): Promise<boolean>
  get(orgId: OrgId, recipientId: MemberId, id: NotificationId): Promise<NotificationRecord | null>
  /** The recipient's, newest first (by `createdAt`, then id); views compare `snoozedUntil` with `now`. */
  list(
    orgId: OrgId,
    recipientId: MemberId,
    filter: NotificationFilter,
    now: string,
    page: PageRequest<'createdAt'>,
  ): Promise<NotificationRecord[]>
  /** Applies the change in one statement and returns the notifications it changed, as they are now. */
  change(
    orgId: OrgId,
    recipientId: MemberId,
    selection: NotificationSelection,
    change: NotificationChange,
    now: string,
  ): Promise<NotificationRecord[]>
  counts(orgId: OrgId, recipientId: MemberId, now: string): Promise<NotificationCounts>
}

export interface NotificationSettingRepo {
  /** The kinds the member set explicitly; the others are on. */
  list(
    orgId: OrgId,
    memberId: MemberId,
  ): Promise<Array<{ kind: NotificationKind; enabled: boolean; updatedAt: string }>>
  put(orgId: OrgId, memberId: MemberId, kind: NotificationKind, enabled: boolean, at: string): Promise<void>
}

/** A task with a due date and an assignee that is still open: what reminders are computed from. */
export interface DueTask {
  orgId: OrgId
  id: TaskId
  teamId: TeamId
  /** The task's current key, `ENG-42`. */
  key: string
  title: string
  assigneeId: ActorId
  dueDate: string
}

/** The notifier's bookkeeping: where it stands in each org's log, and what reminders read. */
export interface NotifierRepo {
  /**
   * Makes sure the org has a position row and takes the write lock on it, so two notifiers never
   * work on one org at once. Returns the position: every event up to it has been handled.
   */
  claim(orgId: OrgId): Promise<number>
  advance(orgId: OrgId, seq: number): Promise<void>
  /** Unarchived orgs whose log has grown past the notifier's position (or that have none yet). */
  behind(limit: number): Promise<OrgId[]>
  /** Open, unarchived tasks with an assignee due on or before `through` (a date), by org and id. */
  dueTasks(through: string, after: { orgId: string; id: string } | null, limit: number): Promise<DueTask[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Notifications, each readable by its recipient only. */
    notifications: NotificationRepo
    notificationSettings: NotificationSettingRepo
    notifier: NotifierRepo
  }
}
