import type { OrgId, UpdateId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { StatusUpdate, UpdateHealth, UpdateRevision, UpdateSubjectType } from './schemas.ts'

export interface UpdateFilter {
  health?: UpdateHealth
  /** false: only active updates (the default); true: only archived ones; null: both. */
  archived: boolean | null
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
    /** Status updates of projects (and later programs and initiatives), with their edit history. */
    updates: UpdateRepo
  }
}
