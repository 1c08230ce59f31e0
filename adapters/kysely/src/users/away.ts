import type { AwayId, UserId } from '@workgraph/core'
import type { AwayRecord, AwayRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

const toPeriod = (r: Selectable<Database['awayPeriods']>): AwayRecord => ({
  id: r.id as AwayId,
  userId: r.userId as UserId,
  startDate: r.startDate,
  endDate: r.endDate,
  note: r.note,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
})

export function awayRepo(db: Kysely<Database>): AwayRepo {
  const mine = (userId: UserId) => db.selectFrom('awayPeriods').selectAll().where('userId', '=', userId)
  return {
    async insert(period) {
      await db.insertInto('awayPeriods').values(period).execute()
    },
    async get(userId, id) {
      const row = await mine(userId).where('id', '=', id).executeTakeFirst()
      return row ? toPeriod(row) : null
    },
    async list(userId, page) {
      const rows = await keysetPage(mine(userId), page, { sort: 'startDate', id: 'id' }).execute()
      return rows.map(toPeriod)
    },
    async overlapping(userId, from, to, except, limit = 100) {
      let q = mine(userId).where('startDate', '<=', to).where('endDate', '>=', from)
      if (except) q = q.where('id', '!=', except)
      const rows = await q.orderBy('startDate').orderBy('id').limit(limit).execute()
      return rows.map(toPeriod)
    },
    async covering(userIds, from, to) {
      if (userIds.length === 0) return []
      const rows = await db
        .selectFrom('awayPeriods')
        .selectAll()
        .where('userId', 'in', [...userIds])
        .where('startDate', '<=', to)
        .where('endDate', '>=', from)
        .orderBy('userId')
        .orderBy('startDate')
        .execute()
      return rows.map(toPeriod)
    },
    async update(userId, id, patch) {
      await db
        .updateTable('awayPeriods')
        .set(patch)
        .where('userId', '=', userId)
        .where('id', '=', id)
        .execute()
    },
    async delete(userId, id) {
      const r = await db
        .deleteFrom('awayPeriods')
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
  }
}
