import { newId, type OrgId, type TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { requireTask } from '../require-task.ts'
import type { TaskHistoryRecord } from '../storage.ts'
import type { TaskHistoryChange, TaskHistoryEntry } from './schemas.ts'

/** What acts on the engine's behalf: a team's maintenance pass, or an automation rule's id. */
export type Automation = 'autoClose' | 'autoArchive' | `rule_${string}`

const ACTING = new WeakMap<OperationContext, Automation>()

/**
 * The context, as one whose task history names `automation` as what made the change (the actor
 * stays: null for the maintenance pass, a rule's author for a rule, whose rights apply).
 */
export function actingAs(ctx: OperationContext, automation: Automation): OperationContext {
  const acting = { ...ctx }
  ACTING.set(acting, automation)
  return acting
}

/** What the context acts as on the engine's behalf, if anything: comments it writes name it too. */
export function automationOf(ctx: OperationContext): Automation | null {
  return ACTING.get(ctx) ?? null
}

/** The field name of the entry that records a task's creation. */
export const CREATED_FIELD = 'created'

/**
 * Records changes of a task, one entry per field, by the context's actor at the context's time.
 * Every service that changes a task calls this in the same transaction, so the log never misses a
 * committed change nor keeps a rolled-back one. Values are stored as JSON (`undefined` as null);
 * `TaskHistoryChange` limits them to the fields and value types `TaskHistoryEntry` describes.
 */
export async function recordTaskHistory(
  ctx: OperationContext,
  task: { id: TaskId; orgId: OrgId },
  entries: readonly TaskHistoryChange[],
): Promise<void> {
  if (entries.length === 0) return
  await ctx.store.taskHistory.insert(taskHistoryRecords(ctx, task, entries))
}

/** The rows `recordTaskHistory` stores, for a write that stores them with its own (a task's create). */
export function taskHistoryRecords(
  ctx: OperationContext,
  task: { id: TaskId; orgId: OrgId },
  entries: readonly TaskHistoryChange[],
): TaskHistoryRecord[] {
  // No actor: the engine's own maintenance (a cycle's rollover, a team's auto-close and auto-archive).
  const actorId = ctx.actor?.id ?? null
  return entries.map((e) => ({
    id: newId('TaskHistoryId'),
    orgId: task.orgId,
    taskId: task.id,
    actorId,
    automation: ACTING.get(ctx) ?? null,
    ...e,
    createdAt: ctx.now,
  }))
}

/** A task's history, oldest first; anyone who can view the task reads it. */
export async function listTaskHistory(
  ctx: OperationContext,
  taskId: TaskId,
  query: { cursor?: string; limit?: number },
): Promise<Page<TaskHistoryEntry>> {
  const task = await requireTask(ctx, taskId)
  return readPage(ctx, {
    scope: ['tasks.history.list', task.orgId, task.id],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (e: TaskHistoryEntry) => e.createdAt,
    fetch: (page) => ctx.store.taskHistory.list(task.orgId, task.id, page),
  })
}
