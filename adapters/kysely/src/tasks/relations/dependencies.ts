import type { ActorId, TaskId } from '@workgraph/core'
import type { TaskDependencyRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso } from '../../normalize.ts'
import type { Database } from '../../schema.ts'

export function taskDependencyRepo(db: Kysely<Database>): TaskDependencyRepo {
  return {
    async add(dependency) {
      const result = await db
        .insertInto('taskDependencies')
        .values(dependency)
        .onConflict((oc) => oc.columns(['orgId', 'blockerId', 'blockedId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async remove(orgId, blockerId, blockedId) {
      const result = await db
        .deleteFrom('taskDependencies')
        .where('orgId', '=', orgId)
        .where('blockerId', '=', blockerId)
        .where('blockedId', '=', blockedId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async get(orgId, blockerId, blockedId) {
      const row = await db
        .selectFrom('taskDependencies')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('blockerId', '=', blockerId)
        .where('blockedId', '=', blockedId)
        .executeTakeFirst()
      return row
        ? {
            blockerId: row.blockerId as TaskId,
            blockedId: row.blockedId as TaskId,
            createdBy: row.createdBy as ActorId,
            createdAt: iso(row.createdAt),
          }
        : null
    },
    async blockedBy(orgId, blockerIds) {
      if (blockerIds.length === 0) return []
      const rows = await db
        .selectFrom('taskDependencies')
        .select(['blockerId', 'blockedId'])
        .where('orgId', '=', orgId)
        .where('blockerId', 'in', [...blockerIds])
        .execute()
      return rows.map((r) => ({ blockerId: r.blockerId as TaskId, blockedId: r.blockedId as TaskId }))
    },
    async removeAllOf(orgId, taskId) {
      await db
        .deleteFrom('taskDependencies')
        .where('orgId', '=', orgId)
        .where((eb) => eb.or([eb('blockerId', '=', taskId), eb('blockedId', '=', taskId)]))
        .execute()
    },
  }
}
