import type { OrgId, UpdateId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { StatusUpdate, UpdateHealth, UpdateRevision, UpdateSubjectType } from './schemas.ts'

export interface UpdateFilter {
  health?: UpdateHealth
  /** false: only active updates (the default); true: only archived ones; null: both. */
  archived: boolean | null
}

/** Filters of the org-wide feed; archived updates are never in it. */
export interface FeedFilter {
  /** Archived updates: left out (the default), only them, or both. */
  archived?: 'exclude' | 'only' | 'include'
  subjectType?: UpdateSubjectType
  subjectId?: string
  health?: UpdateHealth
  authorId?: string
  /** Only updates of these subjects (the hub's records I lead, own or follow); empty: none. */
  subjectIds?: readonly string[]
  /** Posted at or after. */
  since?: string
  /** Posted before. */
  until?: string
}

export interface UpdateRepo {
  insert(update: StatusUpdate): Promise<void>
  get(orgId: OrgId, id: UpdateId): Promise<StatusUpdate | null>
  /** The subject's updates, newest first (by `createdAt`, then id). */
  list(
    orgId: OrgId,
    subjectType: UpdateSubjectType,
    subjectId: string,
    filter: UpdateFilter,
    page: PageRequest<'createdAt'>,
  ): Promise<StatusUpdate[]>
  /**
   * Every unarchived update of the org whose subject the scope can view, newest first (by
   * `createdAt`, then id); the visibility of each kind of subject is part of the query.
   */
  feed(
    orgId: OrgId,
    filter: FeedFilter,
    page: PageRequest<'createdAt'>,
    scope: ReadScope,
  ): Promise<StatusUpdate[]>
  update(
    orgId: OrgId,
    id: UpdateId,
    patch: Partial<Pick<StatusUpdate, 'body' | 'health' | 'updatedAt' | 'editedAt' | 'archivedAt'>>,
  ): Promise<void>
  /** Deletes the update and its revisions. */
  delete(orgId: OrgId, id: UpdateId): Promise<void>
  insertRevision(orgId: OrgId, revision: UpdateRevision): Promise<void>
  /** The update's replaced versions, newest first (by `replacedAt`, then id). */
  revisions(orgId: OrgId, id: UpdateId, page: PageRequest<'replacedAt'>): Promise<UpdateRevision[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Status updates of projects, initiatives and programs, with their edit history. */
    updates: UpdateRepo
  }
}
