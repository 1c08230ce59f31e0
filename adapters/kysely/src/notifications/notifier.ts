import type { ActorId, OrgId, TaskId, TeamId } from '@workgraph/core'
import type { NotifierRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { int } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'

export function notifierRepo(db: Kysely<Database>, dialect: Dialect): NotifierRepo {
  return {
    async claim(orgId) {
      // The write comes first: on SQLite it takes the database's write lock before the read, on
      // Postgres the row lock below serialises two notifiers of one org.
      await db
        .insertInto('notifierPositions')
        .values({ orgId, seq: 0 })
        .onConflict((oc) => oc.column('orgId').doNothing())
        .execute()
      let q = db.selectFrom('notifierPositions').select('seq').where('orgId', '=', orgId)
      if (dialect === 'postgres') q = q.forUpdate()
      const row = await q.executeTakeFirstOrThrow()
      return int(row.seq)
    },
    async advance(orgId, seq) {
      await db.updateTable('notifierPositions').set({ seq }).where('orgId', '=', orgId).execute()
    },
    async behind(limit) {
      const rows = await db
        .selectFrom('orgEventCounters as c')
        .innerJoin('orgs as o', 'o.id', 'c.orgId')
        .leftJoin('notifierPositions as p', 'p.orgId', 'c.orgId')
        .select('c.orgId')
        .where('o.archivedAt', 'is', null)
        .where((eb) => eb('c.lastSeq', '>', eb.fn.coalesce('p.seq', sql<number>`0`)))
        .orderBy('c.orgId')
        .limit(limit)
        .execute()
      return rows.map((r) => r.orgId as OrgId)
    },
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
