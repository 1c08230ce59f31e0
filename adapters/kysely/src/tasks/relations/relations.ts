import type { ActorId, OrgId, RelationType, TaskId } from '@workgraph/core'
import type { TaskRelationRecord, TaskRelationRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../../keyset.ts'
import { iso } from '../../normalize.ts'
import type { Database } from '../../schema.ts'
import { visibleTask } from '../../scope.ts'
import { withLabelIds } from '../labels.ts'
import { taskSelect } from '../task-select.ts'
import { toTask } from '../tasks.ts'

export function taskRelationRepo(db: Kysely<Database>): TaskRelationRepo {
  const record = (r: Selectable<Database['taskRelations']>): TaskRelationRecord => ({
    orgId: r.orgId as OrgId,
    taskId: r.taskId as TaskId,
    relatedId: r.relatedId as TaskId,
    type: r.type as RelationType,
    createdBy: r.createdBy as ActorId,
    createdAt: iso(r.createdAt),
  })
  return {
    async add(relation, mirror) {
      const result = await db
        .insertInto('taskRelations')
        .values([relation, mirror])
        .onConflict((oc) => oc.columns(['orgId', 'taskId', 'relatedId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async get(orgId, taskId, relatedId) {
      const row = await db
        .selectFrom('taskRelations')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
        .where('relatedId', '=', relatedId)
        .executeTakeFirst()
      return row ? record(row) : null
    },
    async duplicateOf(orgId, taskId) {
      const row = await db
        .selectFrom('taskRelations')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
        .where('type', '=', 'duplicateOf')
        .executeTakeFirst()
      return row ? record(row) : null
    },
    async remove(orgId, taskId, relatedId) {
      const result = await db
        .deleteFrom('taskRelations')
        .where('orgId', '=', orgId)
        .where((eb) =>
          eb.or([
            eb.and([eb('taskId', '=', taskId), eb('relatedId', '=', relatedId)]),
            eb.and([eb('taskId', '=', relatedId), eb('relatedId', '=', taskId)]),
          ]),
        )
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async list(orgId, taskId, page, scope) {
      let q = taskSelect(db, scope)
        .innerJoin('taskRelations as r', (j) =>
          j.onRef('r.orgId', '=', 'tasks.orgId').onRef('r.relatedId', '=', 'tasks.id'),
        )
        .select(['r.type as relationType', 'r.createdBy as relationBy', 'r.createdAt as relationAt'])
        .where('r.orgId', '=', orgId)
        .where('r.taskId', '=', taskId)
      if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
      const rows = await keysetPage(q, page, { sort: 'tasks.id', id: 'tasks.id' }).execute()
      const tasks = await withLabelIds(db, orgId, rows.map(toTask))
      return rows.map((r, i) => ({
        type: r.relationType as RelationType,
        task: tasks[i]!,
        createdBy: r.relationBy as ActorId,
        createdAt: iso(r.relationAt),
      }))
    },
    async removeAllOf(orgId, taskId) {
      await db
        .deleteFrom('taskRelations')
        .where('orgId', '=', orgId)
        .where((eb) => eb.or([eb('taskId', '=', taskId), eb('relatedId', '=', taskId)]))
        .execute()
    },
  }
}
