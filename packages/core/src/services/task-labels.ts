import type { LabelId, TaskId } from '../ids.ts'
import type { OperationContext } from '../operation.ts'
import { ProblemError } from '../problems.ts'
import type { Task } from '../schemas/tasks.ts'
import { appliesTo, requireLabel } from './labels.ts'
import { recordTaskHistory } from './task-history.ts'
import { requireTask } from './tasks.ts'

/**
 * Puts a label on a task. A label of a group replaces the task's other label of that group, as in
 * Linear. Adding a label the task already carries changes nothing.
 */
export async function addTaskLabel(ctx: OperationContext, taskId: TaskId, labelId: LabelId): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  if (task.labelIds.includes(labelId)) return task
  const label = await ctx.store.labels.get(task.orgId, labelId, await ctx.scope())
  if (!label || label.isGroup || label.archivedAt || !appliesTo(label, task.teamId)) {
    throw new ProblemError(
      'reference_not_found',
      "The label is not an active label of the org or of the task's team (groups are not put on tasks).",
      { errors: [{ pointer: '/body/labelId', message: 'Not an active label usable on this task' }] },
    )
  }
  if (label.parentId) {
    for (const otherId of task.labelIds) {
      const other = await ctx.store.labels.get(task.orgId, otherId, await ctx.scope())
      if (other?.parentId === label.parentId)
        await ctx.store.labels.removeFromTask(task.orgId, task.id, other.id)
    }
  }
  await ctx.store.labels.addToTask(task.orgId, task.id, label.id, { actorId: ctx.actor!.id, at: ctx.now })
  return labelsChanged(ctx, task)
}

/** Takes a label off a task; taking off a label it does not carry changes nothing. */
export async function removeTaskLabel(
  ctx: OperationContext,
  taskId: TaskId,
  labelId: LabelId,
): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  await requireLabel(ctx, labelId)
  if (!(await ctx.store.labels.removeFromTask(task.orgId, task.id, labelId))) return task
  return labelsChanged(ctx, task)
}

async function labelsChanged(ctx: OperationContext, before: Task): Promise<Task> {
  await ctx.store.tasks.update(before.orgId, before.id, { updatedAt: ctx.now })
  const task = await requireTask(ctx, before.id)
  const changes = { labelIds: { before: before.labelIds, after: task.labelIds } }
  await recordTaskHistory(ctx, task, [{ field: 'labelIds', ...changes.labelIds }])
  ctx.emit({
    kind: 'task.updated',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { task, changes },
  })
  return task
}
