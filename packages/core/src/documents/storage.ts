import type { ActorId, DocumentId, DocumentVersionId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Document, DocumentHolderType, DocumentSubscriber, DocumentVersion } from './schemas.ts'

export interface DocumentFilter {
  holderType?: DocumentHolderType
  holderId?: string
  creatorId?: ActorId
  /** false: only active documents (the default); true: only archived ones; null: both. */
  archived: boolean | null
  /** Full-text terms (see search.ts); every one must match the title or the content. */
  search?: string[]
}

/** A document of a search, with its relevance: higher is better, comparable within one query. */
export type RankedDocument = Document & { rank: number }

export interface DocumentRepo {
  /** Inserts the document and its first version. */
  insert(document: Document, version: DocumentVersion): Promise<void>
  /** The document if the scope may view its holder. */
  get(orgId: OrgId, id: DocumentId, scope: ReadScope): Promise<Document | null>
  /** Documents the scope may view, newest first (by `createdAt`, then id). */
  list(
    orgId: OrgId,
    filter: DocumentFilter,
    page: PageRequest<'createdAt'>,
    scope: ReadScope,
  ): Promise<Document[]>
  /** Documents matching `filter.search`, most relevant first (by rank, then id), with their rank. */
  search(
    orgId: OrgId,
    filter: DocumentFilter & { search: string[] },
    page: PageRequest<'rank'>,
    scope: ReadScope,
  ): Promise<RankedDocument[]>
  /** Changes the document; with `version`, also stores that new content version. */
  update(
    orgId: OrgId,
    id: DocumentId,
    patch: Partial<
      Pick<
        Document,
        | 'title'
        | 'content'
        | 'icon'
        | 'version'
        | 'lastEditorId'
        | 'updatedAt'
        | 'archivedAt'
        | 'lockedAt'
        | 'lockedById'
      >
    >,
    version?: DocumentVersion,
  ): Promise<void>
  /** Deletes the document, its versions and its subscribers. */
  delete(orgId: OrgId, id: DocumentId): Promise<void>
  /** The document's versions, newest first (by `number`). */
  versions(orgId: OrgId, id: DocumentId, page: PageRequest<'number'>): Promise<DocumentVersion[]>
  version(orgId: OrgId, id: DocumentId, versionId: DocumentVersionId): Promise<DocumentVersion | null>
}

export interface DocumentSubscriberRepo {
  /** Returns false, writing nothing, when the actor is subscribed already. */
  add(subscriber: DocumentSubscriber & { orgId: OrgId }): Promise<boolean>
  /** Returns false when the actor was not subscribed. */
  remove(orgId: OrgId, documentId: DocumentId, actorId: ActorId): Promise<boolean>
  get(orgId: OrgId, documentId: DocumentId, actorId: ActorId): Promise<DocumentSubscriber | null>
  list(orgId: OrgId, documentId: DocumentId, page: PageRequest<'actorId'>): Promise<DocumentSubscriber[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Markdown documents of teams and projects, with their content versions. */
    documents: DocumentRepo
    documentSubscribers: DocumentSubscriberRepo
  }
}
