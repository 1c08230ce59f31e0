import type { ActorId, DocumentId, DocumentSubscriber } from '@workgraph/core'
import type { DocumentSubscriberRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

const toSubscriber = (r: {
  documentId: string
  actorId: string
  createdAt: Date | string
}): DocumentSubscriber => ({
  documentId: r.documentId as DocumentId,
  actorId: r.actorId as ActorId,
  addedAt: iso(r.createdAt),
})

export function documentSubscriberRepo(db: Kysely<Database>): DocumentSubscriberRepo {
  const of = (orgId: string, documentId: string) =>
    db
      .selectFrom('documentSubscribers')
      .select(['documentId', 'actorId', 'createdAt'])
      .where('orgId', '=', orgId)
      .where('documentId', '=', documentId)
  return {
    async add(subscriber) {
      const result = await db
        .insertInto('documentSubscribers')
        .values({
          orgId: subscriber.orgId,
          documentId: subscriber.documentId,
          actorId: subscriber.actorId,
          createdAt: subscriber.addedAt,
        })
        .onConflict((oc) => oc.columns(['orgId', 'documentId', 'actorId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async remove(orgId, documentId, actorId) {
      const result = await db
        .deleteFrom('documentSubscribers')
        .where('orgId', '=', orgId)
        .where('documentId', '=', documentId)
        .where('actorId', '=', actorId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async get(orgId, documentId, actorId) {
      const row = await of(orgId, documentId).where('actorId', '=', actorId).executeTakeFirst()
      return row ? toSubscriber(row) : null
    },
    async list(orgId, documentId, page) {
      const rows = await keysetPage(of(orgId, documentId), page, { sort: 'actorId', id: 'actorId' }).execute()
      return rows.map(toSubscriber)
    },
  }
}
