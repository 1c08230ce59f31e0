import type { ActorId, Document, DocumentHolderType, DocumentId, OrgId, ReadScope } from '@workgraph/core'
import type { DocumentFilter } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { visibleDocument } from './visibility.ts'

/** Every column a document answers with (not SQLite's `seq` nor Postgres's `search`). */
export const DOCUMENT_COLUMNS = [
  'documents.orgId',
  'documents.id',
  'documents.holderType',
  'documents.holderId',
  'documents.title',
  'documents.content',
  'documents.icon',
  'documents.version',
  'documents.creatorId',
  'documents.lastEditorId',
  'documents.createdAt',
  'documents.updatedAt',
  'documents.archivedAt',
  'documents.lockedAt',
  'documents.lockedById',
] as const

type Row = { [K in keyof Database['documents']]: unknown }

export function toDocument(r: Row): Document {
  return {
    id: r.id as DocumentId,
    orgId: r.orgId as OrgId,
    holderType: r.holderType as DocumentHolderType,
    holderId: r.holderId as string,
    title: r.title as string,
    content: r.content as string,
    icon: r.icon as string | null,
    version: Number(r.version),
    creatorId: r.creatorId as ActorId,
    lastEditorId: r.lastEditorId as ActorId,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    archivedAt: isoOrNull(r.archivedAt as string | null),
    lockedAt: isoOrNull(r.lockedAt as string | null),
    lockedById: r.lockedById as ActorId | null,
  }
}

/** The org's documents the scope may view, narrowed by the filter (all but the search). */
export function filteredDocuments(
  db: Kysely<Database>,
  orgId: OrgId,
  filter: DocumentFilter,
  scope: ReadScope,
) {
  let q = db.selectFrom('documents').select(DOCUMENT_COLUMNS).where('documents.orgId', '=', orgId)
  if (!scope.orgWide) q = q.where((eb) => visibleDocument(eb, scope))
  if (filter.holderType) q = q.where('documents.holderType', '=', filter.holderType)
  if (filter.holderId) q = q.where('documents.holderId', '=', filter.holderId)
  if (filter.creatorId) q = q.where('documents.creatorId', '=', filter.creatorId)
  if (filter.archived === true) q = q.where('documents.archivedAt', 'is not', null)
  else if (filter.archived === false) q = q.where('documents.archivedAt', 'is', null)
  return q
}
