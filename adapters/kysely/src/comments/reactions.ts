import type { ActorId, OrgId, Reaction, ReactionId, TaskId } from '@workgraph/core'
import type { ReactionRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

function toReaction(r: { [K in keyof Database['reactions']]: unknown }): Reaction {
  return {
    id: r.id as ReactionId,
    orgId: r.orgId as OrgId,
    targetType: r.targetType as Reaction['targetType'],
    targetId: r.targetId as string,
    taskId: r.taskId as TaskId | null,
    emoji: r.emoji as string,
    actorId: r.actorId as ActorId,
    createdAt: iso(r.createdAt as string),
  }
}

export function reactionRepo(db: Kysely<Database>): ReactionRepo {
  return {
    async insert(reaction) {
      const result = await db
        .insertInto('reactions')
        .values(reaction)
        .onConflict((oc) => oc.columns(['orgId', 'targetType', 'targetId', 'emoji', 'actorId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('reactions')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toReaction(row) : null
    },
    async delete(orgId, id) {
      await db.deleteFrom('reactions').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async listGroups(orgId, target, page) {
      const ofTarget = db
        .selectFrom('reactions')
        .where('orgId', '=', orgId)
        .where('targetType', '=', target.type)
        .where('targetId', '=', target.id)
      // A group's position is its first reaction's id: one grouped read for the page of emoji,
      // then one read of the reactions in those groups.
      const first = sql<string>`min(id)`
      let groups = ofTarget.select(['emoji', first.as('firstId')]).groupBy('emoji')
      if (page.after) groups = groups.having(first, '>', page.after.id)
      const heads = await groups
        .orderBy(first)
        .limit(page.limit + 1)
        .execute()
      if (heads.length === 0) return []
      const rows = await ofTarget
        .select(['id', 'emoji', 'actorId'])
        .where(
          'emoji',
          'in',
          heads.map((h) => h.emoji),
        )
        .orderBy('id')
        .execute()
      return heads.map((h) => ({
        emoji: h.emoji,
        id: h.firstId as ReactionId,
        reactions: rows
          .filter((r) => r.emoji === h.emoji)
          .map((r) => ({ id: r.id as ReactionId, actorId: r.actorId as ActorId })),
      }))
    },
  }
}
