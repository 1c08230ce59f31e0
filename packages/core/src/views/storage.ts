import type { MemberId, OrgId, ViewId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
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

declare module '../kernel/storage.ts' {
  interface Store {
    views: ViewRepo
  }
}
