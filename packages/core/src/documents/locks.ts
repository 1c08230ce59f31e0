import type { DocumentId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Document } from './schemas.ts'
import { emitDocument, requireDocument } from './service.ts'

/**
 * Locks a document against edits (`documents.update`, `documents.versions.restore` answer 409
 * `document_locked`) until it is unlocked. Locking a locked document changes nothing: the lock
 * stays with whoever took it first.
 */
export async function lockDocument(ctx: OperationContext, documentId: DocumentId): Promise<Document> {
  const document = await requireDocument(ctx, documentId)
  if (document.lockedAt) return document
  const patch = { lockedAt: ctx.now, lockedById: ctx.actor!.id, updatedAt: ctx.now }
  await ctx.store.documents.update(document.orgId, document.id, patch)
  const next = { ...document, ...patch }
  await emitDocument(ctx, 'document.locked', next, {
    id: next.id,
    lockedAt: next.lockedAt,
    lockedById: next.lockedById,
  })
  return next
}

/** Whoever locked it unlocks it with `contribute`; anyone else needs `manage`. Unlocking an unlocked document changes nothing. */
export async function unlockDocument(ctx: OperationContext, documentId: DocumentId): Promise<Document> {
  const document = await requireDocument(ctx, documentId)
  if (!document.lockedAt) return document
  if (document.lockedById !== ctx.actor!.id) {
    await ctx.require('manage', { type: 'document', id: document.id })
  }
  const patch = { lockedAt: null, lockedById: null, updatedAt: ctx.now }
  await ctx.store.documents.update(document.orgId, document.id, patch)
  const next = { ...document, ...patch }
  await emitDocument(ctx, 'document.unlocked', next, {
    id: next.id,
    lockedById: document.lockedById,
  })
  return next
}
