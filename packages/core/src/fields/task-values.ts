import type { CustomFieldId, TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { changesOf } from '../orgs/service.ts'
import { recordTaskHistory } from '../tasks/history.ts'
import { requireTask } from '../tasks/require-task.ts'
import type { Task } from '../tasks/schemas.ts'
import type { CustomFieldValue } from './schemas.ts'
import {
  type FieldChange,
  type FieldHolder,
  fieldChangeEntries,
  planFieldValues,
  requireUsableField,
  writeFieldValues,
} from './values.ts'

/** A task as the holder of its custom field values. */
export function taskHolder(task: Pick<Task, 'orgId' | 'id' | 'teamId' | 'fields'>): FieldHolder {
  return { orgId: task.orgId, kind: 'task', id: task.id, teamIds: [task.teamId], fields: task.fields }
}

/** Sets (or with null clears) one field on a task: history, `updatedAt` and a `task.updated` event. */
export async function setTaskField(
  ctx: OperationContext,
  taskId: TaskId,
  fieldId: CustomFieldId,
  value: CustomFieldValue | null,
): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  const holder = taskHolder(task)
  await requireUsableField(ctx, holder, fieldId)
  const changes = await planFieldValues(ctx, holder, { [fieldId]: value }, '/body')
  if (changes.length === 0) return task
  await ctx.store.tasks.update(task.orgId, task.id, { updatedAt: ctx.now })
  await writeFieldValues(ctx, holder, changes)
  const next = await requireTask(ctx, task.id)
  await recordTaskHistory(ctx, task, fieldChangeEntries(changes))
  ctx.emit({
    kind: 'task.updated',
    resourceType: 'task',
    resourceId: task.id,
    teamId: next.teamId,
    data: { task: next, changes: fieldChanges(task, changes) },
  })
  return next
}

/** The `changes` of a `task.updated` event for field values: `fields`, before and after. */
export function fieldChanges(task: Pick<Task, 'fields'>, changes: FieldChange[]) {
  if (changes.length === 0) return {}
  const after = { ...task.fields }
  for (const c of changes) {
    if (c.after === null) delete after[c.field.id]
    else after[c.field.id] = c.after
  }
  return changesOf(task, { fields: after })
}
