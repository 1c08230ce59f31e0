import type { ActorId, TaskId } from '@workgraph/core'
import type { TaskSubscriberRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function taskSubscriberRepo(db: Kysely<Database>): TaskSubscriberRepo {
  return {
    async add(subscriber) {
      const result = await db
        .insertInto('taskSubscribers')
        .values({
          orgId: subscriber.orgId,
          taskId: subscriber.taskId,
          actorId: subscriber.actorId,
          createdAt: subscriber.addedAt,
        })
        .onConflict((oc) => oc.columns(['orgId', 'taskId', 'actorId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async remove(orgId, taskId, actorId) {
      const result = await db
        .deleteFrom('taskSubscribers')
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
        .where('actorId', '=', actorId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async list(orgId, taskId, page) {
      const q = db
        .selectFrom('taskSubscribers')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
      const rows = await keysetPage(q, page, { sort: 'actorId', id: 'actorId' }).execute()
      return rows.map((r) => ({
        taskId: r.taskId as TaskId,
        actorId: r.actorId as ActorId,
        addedAt: iso(r.createdAt),
      }))
    },
  }
}
