import type { ActorId, TaskId } from '@workgraph/core'
import type { TaskSubscriberRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

/** Subscribes actors (at least one) to a task, those subscribed already left as they are: a query to run or compose. */
export function subscribersInsert(
  db: Kysely<Database>,
  orgId: string,
  taskId: string,
  actorIds: readonly string[],
  at: string,
) {
  return subscriberRowsInsert(db, subscriberRows(orgId, taskId, actorIds, at))
}

/** The rows of a task's new subscribers. */
export function subscriberRows(orgId: string, taskId: string, actorIds: readonly string[], at: string) {
  return actorIds.map((actorId) => ({ orgId, taskId, actorId, createdAt: at }))
}

/** The insert of subscriber rows (or stand-ins for them, see `rowsOnce`); one already there stays. */
export function subscriberRowsInsert(db: Kysely<Database>, rows: readonly Record<string, string>[]) {
  return db
    .insertInto('taskSubscribers')
    .values(rows as never)
    .onConflict((oc) => oc.columns(['orgId', 'taskId', 'actorId']).doNothing())
}

export function taskSubscriberRepo(db: Kysely<Database>): TaskSubscriberRepo {
  return {
    async add(subscriber) {
      const result = await subscribersInsert(
        db,
        subscriber.orgId,
        subscriber.taskId,
        [subscriber.actorId],
        subscriber.addedAt,
      ).executeTakeFirst()
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
