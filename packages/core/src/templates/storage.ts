import type { MemberId, OrgId, RecurrenceId, ReminderId, TaskId, TeamId, TemplateId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Occurrence, Recurrence, Reminder, Template, TemplateKind } from './schemas.ts'

export interface TemplateFilter {
  kind?: TemplateKind
  teamId?: TeamId
}

export interface TemplateRepo {
  insert(template: Template): Promise<void>
  /** The template if the scope may view its team. */
  get(orgId: OrgId, id: TemplateId, scope: ReadScope): Promise<Template | null>
  /** Templates of the teams the scope may view, by name (then id). */
  list(orgId: OrgId, filter: TemplateFilter, page: PageRequest<'name'>, scope: ReadScope): Promise<Template[]>
  update(
    orgId: OrgId,
    id: TemplateId,
    patch: Partial<Pick<Template, 'name' | 'description' | 'task' | 'project' | 'updatedAt'>>,
  ): Promise<void>
  delete(orgId: OrgId, id: TemplateId): Promise<void>
  /** How many recurrences use the template. */
  recurrenceCount(orgId: OrgId, id: TemplateId): Promise<number>
}

export interface RecurrenceFilter {
  teamId?: TeamId
  templateId?: TemplateId
  paused?: boolean
}

/** A recurrence whose next occurrence is due, as the scheduler finds it across orgs. */
export interface DueRecurrence {
  orgId: OrgId
  id: RecurrenceId
}

export interface RecurrenceRepo {
  insert(recurrence: Recurrence): Promise<void>
  get(orgId: OrgId, id: RecurrenceId, scope: ReadScope): Promise<Recurrence | null>
  /** Recurrences of the teams the scope may view, newest first (by `createdAt`, then id). */
  list(
    orgId: OrgId,
    filter: RecurrenceFilter,
    page: PageRequest<'createdAt'>,
    scope: ReadScope,
  ): Promise<Recurrence[]>
  update(
    orgId: OrgId,
    id: RecurrenceId,
    patch: Partial<
      Pick<
        Recurrence,
        'name' | 'schedule' | 'startDate' | 'nextOccurrence' | 'lastOccurrence' | 'pausedAt' | 'updatedAt'
      >
    >,
  ): Promise<void>
  /** Deletes it with its occurrence records (the tasks stay). */
  delete(orgId: OrgId, id: RecurrenceId): Promise<void>
  /** Active recurrences of unarchived orgs whose next occurrence is on or before `today`, by org and id. */
  due(today: string, after: DueRecurrence | null, limit: number): Promise<DueRecurrence[]>
  /**
   * Records the occurrence; false, writing nothing, when it is recorded already. The unique key
   * (recurrence, date) is what makes each occurrence happen once, however many schedulers run: a
   * second insert waits for the first transaction and then finds the row.
   */
  claimOccurrence(orgId: OrgId, id: RecurrenceId, date: string, createdAt: string): Promise<boolean>
  setOccurrenceTask(orgId: OrgId, id: RecurrenceId, date: string, taskId: TaskId): Promise<void>
  /** Its occurrences, newest first (by date). */
  occurrences(orgId: OrgId, id: RecurrenceId, page: PageRequest<'date'>): Promise<Occurrence[]>
}

/** A reminder due for delivery, with what its notification names. */
export interface DueReminder extends Reminder {
  orgId: OrgId
}

export interface ReminderRepo {
  insert(reminder: Reminder & { orgId: OrgId }): Promise<void>
  get(orgId: OrgId, id: ReminderId): Promise<(Reminder & { orgId: OrgId }) | null>
  /** The member's reminders on the task, soonest first (by `remindAt`, then id). */
  list(orgId: OrgId, taskId: TaskId, memberId: MemberId, page: PageRequest<'remindAt'>): Promise<Reminder[]>
  delete(orgId: OrgId, id: ReminderId): Promise<void>
  /** Undelivered reminders at or before `now`, of unarchived orgs, by org and id. */
  due(now: string, after: { orgId: string; id: string } | null, limit: number): Promise<DueReminder[]>
  /** Marks it delivered; false when it was delivered (or deleted) already, so it is sent once. */
  markDelivered(orgId: OrgId, id: ReminderId, at: string): Promise<boolean>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Task and project templates of teams. */
    templates: TemplateRepo
    /** Recurring work and the occurrences the scheduler created. */
    recurrences: RecurrenceRepo
    /** People's reminders on tasks. */
    reminders: ReminderRepo
  }
}
