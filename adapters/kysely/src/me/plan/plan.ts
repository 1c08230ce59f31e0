import { type OrgId, PLAN_DAY_MAX, type PlanItemId, type TaskId, type UserId } from '@workgraph/core'
import type { PlanItemRecord, PlanItemRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { iso, isoOrNull } from '../../normalize.ts'
import type { Database } from '../../schema.ts'

const toItem = (r: Selectable<Database['planItems']>): PlanItemRecord => ({
  id: r.id as PlanItemId,
  userId: r.userId as UserId,
  date: r.date,
  position: Number(r.position),
  kind: r.kind as PlanItemRecord['kind'],
  orgId: r.orgId as OrgId | null,
  taskId: r.taskId as TaskId | null,
  text: r.text,
  timeStart: r.timeStart,
  timeEnd: r.timeEnd,
  estimateMinutes: r.estimateMinutes === null ? null : Number(r.estimateMinutes),
  source: r.source as PlanItemRecord['source'],
  carriedFrom: r.carriedFrom,
  carryCount: Number(r.carryCount),
  doneAt: isoOrNull(r.doneAt),
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
})

export function planItemRepo(db: Kysely<Database>): PlanItemRepo {
  const mine = (userId: UserId) => db.selectFrom('planItems').selectAll().where('userId', '=', userId)
  return {
    async insert(item) {
      await db.insertInto('planItems').values(item).execute()
    },
    async get(userId, id) {
      const row = await mine(userId).where('id', '=', id).executeTakeFirst()
      return row ? toItem(row) : null
    },
    async day(userId, date) {
      const rows = await mine(userId)
        .where('date', '=', date)
        .orderBy('position')
        .orderBy('id')
        .limit(PLAN_DAY_MAX + 1)
        .execute()
      return rows.map(toItem)
    },
    async range(userId, from, to) {
      const rows = await mine(userId)
        .where('date', '>=', from)
        .where('date', '<=', to)
        .orderBy('date')
        .orderBy('position')
        .orderBy('id')
        .execute()
      return rows.map(toItem)
    },
    async openBefore(userId, date, limit) {
      const rows = await mine(userId)
        .where('date', '<', date)
        .where('doneAt', 'is', null)
        .orderBy('date')
        .orderBy('position')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toItem)
    },
    async update(userId, id, patch) {
      await db.updateTable('planItems').set(patch).where('userId', '=', userId).where('id', '=', id).execute()
    },
    async delete(userId, id) {
      const r = await db
        .deleteFrom('planItems')
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
  }
}
