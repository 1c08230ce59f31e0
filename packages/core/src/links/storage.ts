import type { LinkId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { Link, LinkParentType } from './schemas.ts'

export interface LinkRepo {
  insert(link: Link): Promise<void>
  get(orgId: OrgId, id: LinkId): Promise<Link | null>
  /** The parent's links by position, then id. */
  list(
    orgId: OrgId,
    parentType: LinkParentType,
    parentId: string,
    page: PageRequest<'position'>,
  ): Promise<Link[]>
  /** Every link of the parent by position, then id (a move renumbers them). */
  all(orgId: OrgId, parentType: LinkParentType, parentId: string): Promise<Link[]>
  /** The largest position among the parent's links, or null without any. */
  lastPosition(orgId: OrgId, parentType: LinkParentType, parentId: string): Promise<number | null>
  update(
    orgId: OrgId,
    id: LinkId,
    patch: Partial<Pick<Link, 'url' | 'title' | 'position' | 'updatedAt'>>,
  ): Promise<void>
  delete(orgId: OrgId, id: LinkId): Promise<void>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** URL links of tasks, projects, programs and initiatives; deleting a container deletes them. */
    links: LinkRepo
  }
}
