import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

export const documentsPurge: GroupPurge = {
  group: 'documents',
  owns: ['document'],
  parts: {
    document: deleteRows(
      ['documentSubscribers', 'documentId'],
      ['documentVersions', 'documentId'],
      ['documents', 'id'],
    ),
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
