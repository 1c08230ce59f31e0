import type { FieldChange, FieldHolder } from '../../fields/values.ts'
import { changesOf } from '../../kernel/history-entry.ts'
import type { Task } from '../schemas.ts'

/** A task as the holder of its custom field values. */
export function taskHolder(task: Pick<Task, 'orgId' | 'id' | 'teamId' | 'fields'>): FieldHolder {
  return { orgId: task.orgId, kind: 'task', id: task.id, teamIds: [task.teamId], fields: task.fields }
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
