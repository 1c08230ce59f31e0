import type { OrgId, ResourceLinkId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { LinkParentType, ResourceLink } from './schemas.ts'

export interface ResourceLinkRepo {
  insert(link: ResourceLink): Promise<void>
  get(orgId: OrgId, id: ResourceLinkId): Promise<ResourceLink | null>
  /** The container's links by position, then id. */
  list(
    orgId: OrgId,
    parentType: LinkParentType,
    parentId: string,
    page: PageRequest<'position'>,
  ): Promise<ResourceLink[]>
  /** The largest position among the container's links, or null without any. */
  lastPosition(orgId: OrgId, parentType: LinkParentType, parentId: string): Promise<number | null>
  update(
    orgId: OrgId,
    id: ResourceLinkId,
    patch: Partial<Pick<ResourceLink, 'url' | 'title' | 'position' | 'updatedAt'>>,
  ): Promise<void>
  delete(orgId: OrgId, id: ResourceLinkId): Promise<void>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** URL resources of projects, programs and initiatives; deleting the container deletes them. */
    resourceLinks: ResourceLinkRepo
  }
}
