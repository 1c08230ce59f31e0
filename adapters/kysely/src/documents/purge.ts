import type { GroupPurge } from '../purge-kinds.ts'

export const documentsPurge: GroupPurge = {
  group: 'documents',
  owns: ['document'],
  parts: {
    async document(db, orgId, ids) {
      await db
        .deleteFrom('documentSubscribers')
        .where('orgId', '=', orgId)
        .where('documentId', 'in', [...ids])
        .execute()
      await db
        .deleteFrom('documentVersions')
        .where('orgId', '=', orgId)
        .where('documentId', 'in', [...ids])
        .execute()
      await db
        .deleteFrom('documents')
        .where('orgId', '=', orgId)
        .where('id', 'in', [...ids])
        .execute()
    },
    /** A project's documents go with it, each purged as a `document`. */
    async project(db, orgId, ids, purge) {
      const documents = await db
        .selectFrom('documents')
        .select('id')
        .where('orgId', '=', orgId)
        .where('holderType', '=', 'project')
        .where('holderId', 'in', [...ids])
        .execute()
      await purge(
        orgId,
        'document',
        documents.map((d) => d.id),
      )
    },
  },
}
