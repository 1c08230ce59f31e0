import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { type ActorId, type DocumentId, newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { archivedFilter } from '../teams/service.ts'
import { HOLDERS } from './holders.ts'
import type { Document, DocumentHolderType, DocumentVersion } from './schemas.ts'
import { documentSearchTerms } from './search.ts'
import type { DocumentFilter, RankedDocument } from './storage.ts'

export interface DocumentFields {
  title?: string
  content?: string
  icon?: string | null
}

export interface ListDocumentsQuery {
  cursor?: string
  limit?: number
  holderType?: DocumentHolderType
  holderId?: string
  creatorId?: string
  archived?: 'exclude' | 'only' | 'include'
  q?: string
}

/**
 * Documents the caller may view: the permission predicate, the filters and the search are one SQL
 * query, so pages are exact. With `q`, the most relevant come first; otherwise the newest.
 */
export async function listDocuments(
  ctx: OperationContext,
  query: ListDocumentsQuery,
): Promise<Page<Document>> {
  const orgId = currentOrg(ctx).id
  if (query.holderId !== undefined && query.holderType === undefined) {
    throw new ProblemError('rule_violated', '`holderId` needs `holderType`.', {
      errors: [{ pointer: '/query/holderType', message: 'Required with holderId' }],
    })
  }
  const filter: DocumentFilter = { archived: archivedFilter(query.archived) }
  if (query.holderType) filter.holderType = query.holderType
  if (query.holderId) filter.holderId = query.holderId
  if (query.creatorId) filter.creatorId = query.creatorId as ActorId
  const terms = query.q === undefined ? [] : documentSearchTerms(query.q)
  const scope = await ctx.scope()
  if (terms.length === 0) {
    return readPage(ctx, {
      scope: ['documents.list', orgId, filter],
      query,
      sort: 'createdAt',
      direction: 'desc',
      keyOf: (d: Document) => d.createdAt,
      fetch: (page) => ctx.store.documents.list(orgId, filter, page, scope),
    })
  }
  const search = { ...filter, search: terms }
  const page = await readPage(ctx, {
    scope: ['documents.search', orgId, search],
    query,
    sort: 'rank',
    direction: 'desc',
    keyOf: (d: RankedDocument) => d.rank,
    fetch: (p) => ctx.store.documents.search(orgId, search, p, scope),
  })
  return { data: page.data.map(({ rank: _rank, ...d }) => d), nextCursor: page.nextCursor }
}

/** The document, if the caller may view its holder; otherwise 404, as a missing one. */
export async function requireDocument(ctx: OperationContext, documentId: DocumentId): Promise<Document> {
  const document = await ctx.store.documents.get(currentOrg(ctx).id, documentId, await ctx.scope())
  if (!document) throw notFound('Document')
  return document
}

export async function createDocument(
  ctx: OperationContext,
  input: DocumentFields & { holderType: DocumentHolderType; holderId: string; title: string },
): Promise<Document> {
  const kind = HOLDERS[input.holderType]
  const holder = await kind.require(ctx, input.holderId)
  if (holder.archivedAt) {
    throw new ProblemError('archived', `The ${kind.name.toLowerCase()} is archived; restore it first.`)
  }
  const actorId = ctx.actor!.id
  const document: Document = {
    id: newId('DocumentId'),
    orgId: currentOrg(ctx).id,
    holderType: input.holderType,
    holderId: holder.id,
    title: input.title,
    content: input.content ?? '',
    icon: input.icon ?? null,
    version: 1,
    creatorId: actorId,
    lastEditorId: actorId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
    lockedAt: null,
    lockedById: null,
  }
  await ctx.store.documents.insert(document, versionOf(ctx, document, null))
  // The creator follows what they wrote, as a task's creator does.
  await ctx.store.documentSubscribers.add({
    orgId: document.orgId,
    documentId: document.id,
    actorId,
    addedAt: ctx.now,
  })
  await emitDocument(ctx, 'document.created', document, { document: withoutContent(document) })
  return document
}

/** Edits title, content and icon; a content change is stored as a new version. */
export async function updateDocument(
  ctx: OperationContext,
  documentId: DocumentId,
  fields: DocumentFields,
): Promise<Document> {
  const document = await editable(ctx, documentId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && document[k as keyof Document] !== v),
  ) as DocumentFields
  if (Object.keys(changed).length === 0) return document
  return saveChanges(ctx, document, changed, null)
}

export async function setDocumentArchived(
  ctx: OperationContext,
  documentId: DocumentId,
  archived: boolean,
): Promise<Document> {
  const document = await requireDocument(ctx, documentId)
  if (Boolean(document.archivedAt) === archived) return document
  const patch = { archivedAt: archived ? ctx.now : null, updatedAt: ctx.now }
  await ctx.store.documents.update(document.orgId, document.id, patch)
  const next = { ...document, ...patch }
  await emitDocument(ctx, archived ? 'document.archived' : 'document.restored', next, {
    document: withoutContent(next),
  })
  return next
}

/** Deletes the document with its versions and subscribers. */
export async function deleteDocument(ctx: OperationContext, documentId: DocumentId): Promise<void> {
  const document = await requireDocument(ctx, documentId)
  await ctx.store.documents.delete(document.orgId, document.id)
  await emitDocument(ctx, 'document.deleted', document, {
    id: document.id,
    holderType: document.holderType,
    holderId: document.holderId,
    title: document.title,
  })
}

/**
 * Stores the changed fields; a new content becomes version `version + 1` (restoredFrom names the
 * version a restore copied). The event carries the changes, the content only as version numbers.
 */
export async function saveChanges(
  ctx: OperationContext,
  document: Document,
  changed: DocumentFields,
  restoredFrom: DocumentVersion | null,
): Promise<Document> {
  const contentChanged = changed.content !== undefined
  const next: Document = {
    ...document,
    ...changed,
    version: contentChanged ? document.version + 1 : document.version,
    lastEditorId: ctx.actor!.id,
    updatedAt: ctx.now,
  }
  const { content: _content, ...rest } = changed
  const patch = { ...changed, version: next.version, lastEditorId: next.lastEditorId, updatedAt: ctx.now }
  const version = contentChanged ? versionOf(ctx, next, restoredFrom) : undefined
  await ctx.store.documents.update(document.orgId, document.id, patch, version)
  const changes = changesOf(document, rest)
  if (contentChanged) changes.version = { before: document.version, after: next.version }
  await emitDocument(ctx, restoredFrom ? 'document.version_restored' : 'document.updated', next, {
    document: withoutContent(next),
    changes,
    ...(restoredFrom ? { restoredFromId: restoredFrom.id, restoredFromNumber: restoredFrom.number } : {}),
  })
  return next
}

/** The document, if the caller may change its content: neither archived nor locked. */
export async function editable(ctx: OperationContext, documentId: DocumentId): Promise<Document> {
  const document = await requireDocument(ctx, documentId)
  if (document.archivedAt) throw new ProblemError('archived', 'The document is archived; restore it first.')
  if (document.lockedAt) {
    throw new ProblemError(
      'document_locked',
      'The document is locked; whoever locked it, or someone with `manage`, must unlock it first.',
      {
        extensions: {
          ...(document.lockedById ? { lockedById: document.lockedById } : {}),
          lockedAt: document.lockedAt,
        },
      },
    )
  }
  return document
}

function versionOf(ctx: OperationContext, document: Document, restoredFrom: DocumentVersion | null) {
  return {
    id: newId('DocumentVersionId'),
    documentId: document.id,
    number: document.version,
    content: document.content,
    authorId: ctx.actor!.id,
    restoredFromId: restoredFrom?.id ?? null,
    createdAt: ctx.now,
  } satisfies DocumentVersion
}

/** Events leave the content out: it can be large, and its versions are readable by id. */
function withoutContent({ content: _content, ...document }: Document) {
  return document
}

/** Filed under the holder's team (for a project, its first team); the resource is the document. */
export async function emitDocument(
  ctx: OperationContext,
  kind: `document.${string}` | `document_subscriber.${string}`,
  document: Document,
  data: Record<string, unknown>,
): Promise<void> {
  ctx.emit({
    kind,
    resourceType: kind.split('.')[0]!,
    resourceId: document.id,
    teamId: await HOLDERS[document.holderType].eventTeam(ctx.store, document.orgId, document.holderId),
    data,
  })
}
