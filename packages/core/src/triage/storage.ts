import type { ActorId, OrgId, TaskId } from '../kernel/ids.ts'

/** When a triage item comes back to the queue; one per task at most. */
export interface TriageSnoozeRepo {
  /** Inserts or replaces the task's snooze. */
  put(orgId: OrgId, taskId: TaskId, snoozedUntil: string, snoozedBy: ActorId): Promise<void>
  /** Removes it (the task left triage); true when there was one. */
  clear(orgId: OrgId, taskId: TaskId): Promise<boolean>
  /** The snoozes of these tasks, by task id. */
  ofTasks(orgId: OrgId, taskIds: readonly TaskId[]): Promise<Map<TaskId, string>>
}

declare module '../kernel/storage.ts' {
  interface Store {
    triageSnoozes: TriageSnoozeRepo
  }
}
