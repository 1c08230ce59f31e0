import { findActor } from '../access/actors.ts'
import { currentOrg } from '../kernel/context.ts'
import type { ActorId, DocumentId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound } from '../kernel/problems.ts'
import type { Document, DocumentSubscriber } from './schemas.ts'
import { emitDocument, requireDocument } from './service.ts'

/**
 * Subscribes an actor to a document. Oneself: the operation's `comment` suffices; someone else needs
 * `manage`. Subscribing twice changes nothing and answers the existing subscription.
 */
export async function subscribeToDocument(
  ctx: OperationContext,
  documentId: DocumentId,
  actorId: ActorId,
): Promise<DocumentSubscriber> {
  const document = await requireDocument(ctx, documentId)
  await requireOtherRights(ctx, document, actorId)
  const subscriber: DocumentSubscriber = { documentId: document.id, actorId, addedAt: ctx.now }
  if (await ctx.store.documentSubscribers.add({ ...subscriber, orgId: document.orgId })) {
    await emitDocument(ctx, 'document_subscriber.created', document, { documentId: document.id, actorId })
    return subscriber
  }
  return (await ctx.store.documentSubscribers.get(document.orgId, document.id, actorId)) ?? subscriber
}

export async function unsubscribeFromDocument(
  ctx: OperationContext,
  documentId: DocumentId,
  actorId: ActorId,
): Promise<void> {
  const document = await requireDocument(ctx, documentId)
  await requireOtherRights(ctx, document, actorId)
  if (!(await ctx.store.documentSubscribers.remove(document.orgId, document.id, actorId))) return
  await emitDocument(ctx, 'document_subscriber.deleted', document, { documentId: document.id, actorId })
}

export async function listDocumentSubscribers(
  ctx: OperationContext,
  documentId: DocumentId,
  query: { cursor?: string; limit?: number },
): Promise<Page<DocumentSubscriber>> {
  const document = await requireDocument(ctx, documentId)
  const page = await readPage(ctx, {
    scope: ['documents.subscribers', document.orgId, document.id],
    query,
    sort: 'actorId' as const,
    direction: 'asc',
    keyOf: (s: DocumentSubscriber & { id: string }) => s.id,
    fetch: async (p) =>
      (await ctx.store.documentSubscribers.list(document.orgId, document.id, p)).map((s) => ({
        ...s,
        id: s.actorId,
      })),
  })
  return { data: page.data.map(({ id: _id, ...s }) => s), nextCursor: page.nextCursor }
}

/** Someone else must be an active member or an agent of the org, and the caller needs `manage`. */
async function requireOtherRights(ctx: OperationContext, document: Document, actorId: ActorId) {
  if (actorId === ctx.actor!.id) return
  const orgId = currentOrg(ctx).id
  if (!(await findActor(ctx, orgId, actorId))) throw notFound('Actor')
  await ctx.require('manage', { type: 'document', id: document.id })
}
