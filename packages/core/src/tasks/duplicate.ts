import type { TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { createTask } from './create.ts'
import { requireTask } from './require-task.ts'
import type { Task } from './schemas.ts'

/** The most tasks one duplication creates, the copy and its subtasks together. */
export const MAX_DUPLICATED = 100

export interface DuplicateOptions {
  title?: string
  /** Copy the labels (default true). */
  labels?: boolean
  /** Copy the open (unarchived) subtasks, their subtasks too (default false). */
  subtasks?: boolean
}

/**
 * Copies a task into a new task of the same team and state; `title` replaces the copied title.
 * Reusing `createTask` brings its rules: the next key, `archived`, `reference_not_found`, the
 * `assign` check when an assignee is copied, and a `task.created` event per new task.
 */
export async function duplicateTask(
  ctx: OperationContext,
  taskId: TaskId,
  options: DuplicateOptions,
): Promise<Task> {
  const source = await requireTask(ctx, taskId)
  const budget = { left: MAX_DUPLICATED }
  return copy(ctx, source, null, options, options.title ?? source.title, budget)
}

async function copy(
  ctx: OperationContext,
  source: Task,
  parentId: TaskId | null,
  options: DuplicateOptions,
  title: string,
  budget: { left: number },
): Promise<Task> {
  if (budget.left-- <= 0) {
    throw new ProblemError(
      'conflict',
      `Duplicating would create more than ${MAX_DUPLICATED} tasks; duplicate without subtasks.`,
    )
  }
  const created = await createTask(ctx, {
    teamId: source.teamId,
    title,
    description: source.description,
    stateId: source.stateId,
    assigneeId: source.assigneeId,
    priority: source.priority,
    estimate: source.estimate,
    dueDate: source.dueDate,
    startDate: source.startDate,
    parentId: parentId ?? source.parentId,
    ...(options.labels !== false ? { labelIds: source.labelIds } : {}),
  })
  if (options.subtasks) {
    const children = await ctx.store.tasks.childrenOf(source.orgId, [source.id as TaskId])
    for (const child of children.filter((c) => !c.archived).sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const task = await ctx.store.tasks.get(source.orgId, child.id, await ctx.scope())
      if (task) await copy(ctx, task, created.id as TaskId, options, task.title, budget)
    }
  }
  return created
}
