import type { LabelId, OrgId, TaskId, TeamId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { ProblemError } from '../../kernel/problems.ts'
import type { Label } from '../../labels/schemas.ts'
import { appliesTo, requireLabel } from '../../labels/service.ts'
import { recordTaskHistory } from '../history/history.ts'
import { requireTask } from '../require-task.ts'
import type { Task } from '../schemas.ts'

/** The labels a task carries before a change; `labelIds` is empty for a task being created. */
interface LabelledTask {
  id: TaskId
  orgId: OrgId
  labelIds: readonly LabelId[]
}

/**
 * Puts a label on a task. A label of a group replaces the task's other label of that group, as in
 * Linear. Adding a label the task already carries changes nothing.
 */
export async function addTaskLabel(ctx: OperationContext, taskId: TaskId, labelId: LabelId): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  if (task.labelIds.includes(labelId)) return task
  const label = await requireUsableLabel(ctx, task.orgId, labelId, task.teamId, '/params/labelId')
  if (label.parentId) {
    for (const otherId of task.labelIds) {
      const other = await ctx.store.labels.get(task.orgId, otherId, await ctx.scope())
      if (other?.parentId === label.parentId)
        await ctx.store.labels.removeFromTask(task.orgId, task.id, other.id)
    }
  }
  await ctx.store.labels.addToTask(task.orgId, task.id, [label.id], { actorId: ctx.actor!.id, at: ctx.now })
  return labelsChanged(ctx, task)
}

/** Takes a label off a task; taking off a label it does not carry changes nothing. */
export async function removeTaskLabel(
  ctx: OperationContext,
  taskId: TaskId,
  labelId: LabelId,
): Promise<void> {
  const task = await requireTask(ctx, taskId)
  await requireLabel(ctx, labelId)
  if (await ctx.store.labels.removeFromTask(task.orgId, task.id, labelId)) await labelsChanged(ctx, task)
}

/**
 * Checks a whole label list (`labelIds` of `tasks.create`/`tasks.update`) for a task of `teamId`
 * before anything is written. Each label it does not carry yet follows the rule of a single add;
 * one it carries may stay even if archived since. Two labels of one group in the list are refused:
 * unlike a single add there is no "newer" one to keep.
 */
export async function checkTaskLabels(
  ctx: OperationContext,
  task: LabelledTask,
  labelIds: readonly LabelId[],
  teamId: TeamId,
  read?: readonly Label[],
): Promise<void> {
  const groups = new Map<LabelId, number>()
  // The whole list in one read (or the caller's, `read`: the labels of the list the caller may view);
  // each label is then judged in list order, so the first bad one is named.
  const found = read ?? (await ctx.store.labels.getMany(task.orgId, labelIds, await ctx.scope()))
  const byId = new Map(found.map((l) => [l.id, l]))
  for (const [i, labelId] of labelIds.entries()) {
    const pointer = `/body/labelIds/${i}`
    const label = byId.get(labelId)
    const allowed = task.labelIds.includes(labelId) ? keptLabel(label, teamId) : usableLabel(label, teamId)
    if (!label || !allowed) throw unusable(pointer)
    if (!label.parentId) continue
    const first = groups.get(label.parentId)
    if (first !== undefined) {
      throw new ProblemError(
        'label_group_conflict',
        `Labels ${first} and ${i} belong to the same group; a task carries at most one label of a group.`,
        { errors: [{ pointer, message: `Same group as /body/labelIds/${first}` }] },
      )
    }
    groups.set(label.parentId, i)
  }
}

/**
 * Makes the task's labels exactly `labelIds` (checked by `checkTaskLabels`): takes off the others
 * and adds the missing ones in one write. Returns whether the set changed.
 */
export async function writeTaskLabels(
  ctx: OperationContext,
  task: LabelledTask,
  labelIds: readonly LabelId[],
): Promise<boolean> {
  let changed = false
  for (const labelId of task.labelIds) {
    if (!labelIds.includes(labelId))
      changed = (await ctx.store.labels.removeFromTask(task.orgId, task.id, labelId)) || changed
  }
  const added = labelIds.filter((labelId) => !task.labelIds.includes(labelId))
  const by = { actorId: ctx.actor!.id, at: ctx.now }
  // One write: the new labels share the instant, so they read back in id order (as one at a time did).
  return (await ctx.store.labels.addToTask(task.orgId, task.id, added, by)) > 0 || changed
}

/** A label for a single add: fetched, then the one rule of `usableLabel`. */
async function requireUsableLabel(
  ctx: OperationContext,
  orgId: OrgId,
  labelId: LabelId,
  teamId: TeamId,
  pointer: string,
): Promise<Label> {
  const label = await ctx.store.labels.get(orgId, labelId, await ctx.scope())
  if (!usableLabel(label, teamId)) throw unusable(pointer)
  return label!
}

/** The one rule for putting a label on a task: active, not a group, the org's or the task's team's. */
function usableLabel(label: Label | null | undefined, teamId: TeamId): boolean {
  return !!label && !label.isGroup && !label.archivedAt && appliesTo(label, teamId)
}

/** A label the task carries may stay while it still applies to the task's (new) team. */
function keptLabel(label: Label | undefined, teamId: TeamId): boolean {
  return !!label && appliesTo(label, teamId)
}

function unusable(pointer: string): ProblemError {
  return new ProblemError(
    'reference_not_found',
    "The label is not an active label of the org or of the task's team (groups are not put on tasks).",
    { errors: [{ pointer, message: 'Not an active label usable on this task' }] },
  )
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
