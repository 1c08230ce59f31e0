import type { ActorId, DocumentId, DocumentVersion, DocumentVersionId } from '@workgraph/core'
import type { DocumentRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database, Dialect } from '../schema.ts'
import { filteredDocuments, toDocument } from './rows.ts'
import { searchDocuments } from './search.ts'

function toVersion(r: { [K in keyof Database['documentVersions']]: unknown }): DocumentVersion {
  return {
    id: r.id as DocumentVersionId,
    documentId: r.documentId as DocumentId,
    number: Number(r.number),
    content: r.content as string,
    authorId: r.authorId as ActorId,
    restoredFromId: r.restoredFromId as DocumentVersionId | null,
    createdAt: iso(r.createdAt as string),
  }
}

export function documentRepo(db: Kysely<Database>, dialect: Dialect, purge: Purge): DocumentRepo {
  return {
    async insert(document, version) {
      await db.insertInto('documents').values(document).execute()
      await db
        .insertInto('documentVersions')
        .values({ ...version, orgId: document.orgId })
        .execute()
    },
    async get(orgId, id, scope) {
      const row = await filteredDocuments(db, orgId, { archived: null }, scope)
        .where('documents.id', '=', id)
        .executeTakeFirst()
      return row ? toDocument(row) : null
    },
    async list(orgId, filter, page, scope) {
      const rows = await keysetPage(filteredDocuments(db, orgId, filter, scope), page, {
        sort: 'documents.createdAt',
        id: 'documents.id',
      }).execute()
      return rows.map(toDocument)
    },
    search: (orgId, filter, page, scope) => searchDocuments(db, dialect, orgId, filter, page, scope),
    async update(orgId, id, patch, version) {
      if (version) {
        await db
          .insertInto('documentVersions')
          .values({ ...version, orgId })
          .execute()
      }
      await db.updateTable('documents').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      await purge(orgId, 'document', [id])
    },
    async versions(orgId, id, page) {
      const q = db
        .selectFrom('documentVersions')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('documentId', '=', id)
      const rows = await keysetPage(q, page, { sort: 'number', id: 'id' }).execute()
      return rows.map(toVersion)
    },
    async version(orgId, id, versionId) {
      const row = await db
        .selectFrom('documentVersions')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('documentId', '=', id)
        .where('id', '=', versionId)
        .executeTakeFirst()
      return row ? toVersion(row) : null
    },
  }
}
