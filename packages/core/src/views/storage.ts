import type { MemberId, OrgId, ViewId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { ViewDisplayOverrides } from './preference-schemas.ts'
import type { View } from './schemas.ts'

export interface ViewRepo {
  insert(view: View): Promise<void>
  /** A personal view of another member, or a team view of a team the scope cannot view, is null. */
  get(orgId: OrgId, id: ViewId, viewer: { memberId: MemberId; scope: ReadScope }): Promise<View | null>
  /** By id (creation order): the viewer's personal views and the team views the scope reaches. */
  list(
    orgId: OrgId,
    viewer: { memberId: MemberId; scope: ReadScope },
    page: PageRequest<'id'>,
  ): Promise<View[]>
  update(
    orgId: OrgId,
    id: ViewId,
    patch: Partial<Omit<View, 'id' | 'orgId' | 'ownerId' | 'createdAt'>>,
  ): Promise<void>
  delete(orgId: OrgId, id: ViewId): Promise<void>
}

/** Display overrides of a view: its default (member null) and each member's own. */
export interface ViewPreferenceRepo {
  get(
    orgId: OrgId,
    viewId: ViewId,
    memberId: MemberId | null,
  ): Promise<{ preferences: ViewDisplayOverrides; updatedAt: string } | null>
  /** Inserts or replaces the level's overrides. */
  put(
    orgId: OrgId,
    viewId: ViewId,
    memberId: MemberId | null,
    preferences: ViewDisplayOverrides,
    at: string,
  ): Promise<void>
  /** Returns false when there was nothing to delete. */
  delete(orgId: OrgId, viewId: ViewId, memberId: MemberId | null): Promise<boolean>
}

declare module '../kernel/storage.ts' {
  interface Store {
    views: ViewRepo
    viewPreferences: ViewPreferenceRepo
  }
}
