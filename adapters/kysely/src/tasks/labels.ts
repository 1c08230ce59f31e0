import type { LabelId, OrgId, Task } from '@workgraph/core'
import type { Kysely } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
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
  const query = compiledOnce(
    db,
    `tasks.labelIds:${tasks.length}`,
    [orgId, ...tasks.map((t) => t.id)],
    ([org, ...ids]) =>
      db
        .selectFrom('taskLabels')
        .select(['taskId', 'labelId'])
        .where('orgId', '=', org!)
        .where('taskId', 'in', ids)
        .orderBy('createdAt')
        .orderBy('labelId'),
  )
  const rows = await runCompiled(db, query)
  const byTask = new Map<string, LabelId[]>()
  for (const r of rows) {
    const list = byTask.get(r.taskId) ?? []
    list.push(r.labelId as LabelId)
    byTask.set(r.taskId, list)
  }
  // Completed in place: the rows are this read's own, freshly mapped (a spread per task cost more).
  for (const t of tasks as Task[]) {
    t.labelIds = byTask.get(t.id) ?? []
    t.fields = values.get(t.id) ?? {}
  }
  return tasks as Task[]
}
