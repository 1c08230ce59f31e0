import type { LabelId, OrgId, Task } from '@workgraph/core'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'

/** Adds `labelIds` to the tasks of one read with a single query, whatever the number of rows. */
export async function withLabelIds(
  db: Kysely<Database>,
  orgId: OrgId,
  tasks: Omit<Task, 'labelIds'>[],
): Promise<Task[]> {
  if (tasks.length === 0) return []
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
  return tasks.map((t) => ({ ...t, labelIds: byTask.get(t.id) ?? [] }))
}
