import type { DocumentId, DocumentVersionId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound } from '../kernel/problems.ts'
import type { Document, DocumentVersion } from './schemas.ts'
import { editable, requireDocument, saveChanges } from './service.ts'

/** The document's content versions, newest (the current content) first. */
export async function listDocumentVersions(
  ctx: OperationContext,
  documentId: DocumentId,
  query: { cursor?: string; limit?: number },
): Promise<Page<DocumentVersion>> {
  const document = await requireDocument(ctx, documentId)
  return readPage(ctx, {
    scope: ['documents.versions', document.orgId, document.id],
    query,
    sort: 'number',
    direction: 'desc',
    keyOf: (v: DocumentVersion) => v.number,
    fetch: (page) => ctx.store.documents.versions(document.orgId, document.id, page),
  })
}

export async function requireDocumentVersion(
  ctx: OperationContext,
  documentId: DocumentId,
  versionId: DocumentVersionId,
): Promise<DocumentVersion> {
  const document = await requireDocument(ctx, documentId)
  const version = await ctx.store.documents.version(document.orgId, document.id, versionId)
  if (!version) throw notFound('Document version')
  return version
}

/**
 * Makes an earlier content the current one by saving it as a new version, so the history keeps
 * everything. Restoring the content the document already has changes nothing.
 */
export async function restoreDocumentVersion(
  ctx: OperationContext,
  documentId: DocumentId,
  versionId: DocumentVersionId,
): Promise<Document> {
  const document = await editable(ctx, documentId)
  const version = await requireDocumentVersion(ctx, document.id, versionId)
  if (version.content === document.content) return document
  return saveChanges(ctx, document, { content: version.content }, version)
}
