import type { NullableTimestamp, Timestamp } from '../columns.ts'

/**
 * The documents tables, as queries see them. The full-text index (SQLite's `documents_fts`,
 * Postgres's `search` column) is read only through search.ts.
 */
export interface DocumentsTables {
  documents: {
    orgId: string
    id: string
    holderType: string
    holderId: string
    title: string
    content: string
    icon: string | null
    version: number
    creatorId: string
    lastEditorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
    lockedAt: NullableTimestamp
    lockedById: string | null
  }
  documentVersions: {
    orgId: string
    id: string
    documentId: string
    number: number
    content: string
    authorId: string
    restoredFromId: string | null
    createdAt: Timestamp
  }
  documentSubscribers: { orgId: string; documentId: string; actorId: string; createdAt: Timestamp }
}
