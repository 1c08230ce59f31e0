import type { ActorId, OrgId, TaskId, TeamId } from '@workgraph/core'
import type { NotifierRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { eventPositions } from '../kernel/event-positions.ts'
import { int } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'

export function notifierRepo(db: Kysely<Database>, dialect: Dialect): NotifierRepo {
  return {
    ...eventPositions(db, dialect, 'notifierPositions'),
    async dueTasks(through, after, limit) {
      let q = db
        .selectFrom('tasks as t')
        .innerJoin('teams as tm', (j) => j.onRef('tm.orgId', '=', 't.orgId').onRef('tm.id', '=', 't.teamId'))
        .select(['t.orgId', 't.id', 't.teamId', 't.title', 't.assigneeId', 't.dueDate', 't.number', 'tm.key'])
        .where('t.dueDate', 'is not', null)
        .where('t.dueDate', '<=', through)
        .where('t.assigneeId', 'is not', null)
        .where('t.completedAt', 'is', null)
        .where('t.canceledAt', 'is', null)
        .where('t.archivedAt', 'is', null)
        .where('t.deletedAt', 'is', null)
      if (after) q = q.where((eb) => eb(eb.refTuple('t.orgId', 't.id'), '>', eb.tuple(after.orgId, after.id)))
      const rows = await q.orderBy('t.orgId').orderBy('t.id').limit(limit).execute()
      return rows.map((r) => ({
        orgId: r.orgId as OrgId,
        id: r.id as TaskId,
        teamId: r.teamId as TeamId,
        key: `${r.key}-${r.number}`,
        title: r.title,
        assigneeId: r.assigneeId as ActorId,
        dueDate: r.dueDate!,
      }))
    },
  }
}
