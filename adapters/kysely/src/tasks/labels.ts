import type { LabelId, OrgId, Task } from '@workgraph/core'
import type { Kysely } from 'kysely'
import { valuesOf } from '../fields/values.ts'
import type { Database } from '../schema.ts'

/** Adds `labelIds` and custom field `fields` to the tasks of one read, one query each, whatever the number of rows. */
export async function withLabelIds(
  db: Kysely<Database>,
  orgId: OrgId,
  tasks: Omit<Task, 'labelIds' | 'fields'>[],
): Promise<Task[]> {
  if (tasks.length === 0) return []
  const values = await valuesOf(
    db,
    orgId,
    'task',
    tasks.map((t) => t.id),
  )
  const rows = await db
    .selectFrom('taskLabels')
    .select(['taskId', 'labelId'])
    .where('orgId', '=', orgId)
    .where(
      'taskId',
      'in',
      tasks.map((t) => t.id),
    )
    .orderBy('createdAt')
    .orderBy('labelId')
    .execute()
  const byTask = new Map<string, LabelId[]>()
  for (const r of rows) {
    const list = byTask.get(r.taskId) ?? []
    list.push(r.labelId as LabelId)
    byTask.set(r.taskId, list)
  }
  return tasks.map((t) => ({ ...t, labelIds: byTask.get(t.id) ?? [], fields: values.get(t.id) ?? {} }))
}
