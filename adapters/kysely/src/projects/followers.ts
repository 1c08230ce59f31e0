import type { ActorId } from '@workgraph/core'
import type { FollowerRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function followerRepo(db: Kysely<Database>): FollowerRepo {
  return {
    async add(follower) {
      const result = await db
        .insertInto('recordFollowers')
        .values({
          orgId: follower.orgId,
          recordType: follower.recordType,
          recordId: follower.recordId,
          actorId: follower.actorId,
          createdAt: follower.addedAt,
        })
        .onConflict((oc) => oc.columns(['orgId', 'recordType', 'recordId', 'actorId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async remove(orgId, recordType, recordId, actorId) {
      const result = await db
        .deleteFrom('recordFollowers')
        .where('orgId', '=', orgId)
        .where('recordType', '=', recordType)
        .where('recordId', '=', recordId)
        .where('actorId', '=', actorId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async list(orgId, recordType, recordId, page) {
      const q = db
        .selectFrom('recordFollowers')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('recordType', '=', recordType)
        .where('recordId', '=', recordId)
      const rows = await keysetPage(q, page, { sort: 'actorId', id: 'actorId' }).execute()
      return rows.map((r) => ({
        recordType: r.recordType,
        recordId: r.recordId,
        actorId: r.actorId as ActorId,
        addedAt: iso(r.createdAt),
      }))
    },
  }
}
