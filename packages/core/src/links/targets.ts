import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { LINK_PARENTS } from './parents.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    resource_link: true
  }
}

/** A link is held by whatever holds its container: its capability is the container's. */
export const linkTargets = {
  resource_link: {
    name: 'Link',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const link = await store.resourceLinks.get(orgId, id as never)
      return link ? LINK_PARENTS[link.parentType].containers(store, orgId, link.parentId) : null
    },
  },
} satisfies Record<string, TargetResolver>
