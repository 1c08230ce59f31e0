import { FAVORITES_MAX, type FavoriteId, type OrgId, type UserId } from '@workgraph/core'
import type { FavoriteRecord, FavoriteRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../../keyset.ts'
import { iso } from '../../normalize.ts'
import type { Database } from '../../schema.ts'

const toFavorite = (r: Selectable<Database['favorites']>): FavoriteRecord => ({
  id: r.id as FavoriteId,
  userId: r.userId as UserId,
  orgId: r.orgId as OrgId,
  recordType: r.recordType as FavoriteRecord['recordType'],
  recordId: r.recordId,
  position: Number(r.position),
  createdAt: iso(r.createdAt),
})

export function favoriteRepo(db: Kysely<Database>): FavoriteRepo {
  const mine = (userId: UserId) => db.selectFrom('favorites').selectAll().where('userId', '=', userId)
  return {
    async insertOnce(favorite) {
      await db
        .insertInto('favorites')
        .values(favorite)
        .onConflict((oc) => oc.columns(['userId', 'orgId', 'recordType', 'recordId']).doNothing())
        .execute()
      const row = await mine(favorite.userId)
        .where('orgId', '=', favorite.orgId)
        .where('recordType', '=', favorite.recordType)
        .where('recordId', '=', favorite.recordId)
        .executeTakeFirstOrThrow()
      return toFavorite(row)
    },
    async get(userId, id) {
      const row = await mine(userId).where('id', '=', id).executeTakeFirst()
      return row ? toFavorite(row) : null
    },
    async list(userId, page) {
      const rows = await keysetPage(mine(userId), page, { sort: 'position', id: 'id' }).execute()
      return rows.map(toFavorite)
    },
    async all(userId) {
      const rows = await mine(userId)
        .orderBy('position')
        .orderBy('id')
        .limit(FAVORITES_MAX + 1)
        .execute()
      return rows.map(toFavorite)
    },
    async nextPosition(userId) {
      const row = await db
        .selectFrom('favorites')
        .select((eb) => eb.fn.max('position').as('top'))
        .where('userId', '=', userId)
        .executeTakeFirst()
      return row?.top === null || row?.top === undefined ? 0 : Number(row.top) + 1
    },
    async setPosition(userId, id, position) {
      await db
        .updateTable('favorites')
        .set({ position })
        .where('userId', '=', userId)
        .where('id', '=', id)
        .execute()
    },
    async delete(userId, id) {
      const r = await db
        .deleteFrom('favorites')
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
  }
}
