import type { CustomFieldValues } from '../fields/schemas.ts'
import type { FieldChange } from '../fields/values.ts'
import type { LabelId } from '../kernel/ids.ts'
import type { StateCategory } from '../teams/schemas.ts'
import type { Task } from './schemas.ts'
import type { TaskRecord } from './storage.ts'

/**
 * The task a create just wrote, as `tasks.get` reads it, without reading it back: every value is
 * the record's or the team's and state's the create checked. A new task has no dependencies, so it
 * is not blocked; its labels all carry the create's instant, so they read in id order (storage
 * orders by `(created_at, label_id)`); its field values read in field id order. Keys are in the
 * order storage maps a row to (the ETag hashes the body as serialized).
 */
export function newTask(
  record: TaskRecord,
  teamKey: string,
  stateCategory: StateCategory,
  labelIds: readonly LabelId[],
  fieldPlan: readonly FieldChange[],
): Task {
  const fields: CustomFieldValues = {}
  const set = fieldPlan.filter((c) => c.after !== null).sort((a, b) => (a.field.id < b.field.id ? -1 : 1))
  for (const c of set) fields[c.field.id] = c.after!
  return {
    id: record.id,
    orgId: record.orgId,
    teamId: record.teamId,
    key: `${teamKey}-${record.number}`,
    number: record.number,
    title: record.title,
    description: record.description,
    stateId: record.stateId,
    stateCategory,
    assigneeId: record.assigneeId,
    creatorId: record.creatorId,
    priority: record.priority,
    estimate: record.estimate,
    dueDate: record.dueDate,
    startDate: record.startDate ?? null,
    parentId: record.parentId ?? null,
    isBlocked: false,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    startedAt: record.startedAt,
    completedAt: record.completedAt,
    canceledAt: record.canceledAt,
    archivedAt: record.archivedAt,
    cycleId: record.cycleId ?? null,
    projectId: record.projectId ?? null,
    milestoneId: record.milestoneId ?? null,
    labelIds: [...labelIds].sort(),
    fields,
  }
}
