import type { HookReader } from '../kernel/hooks.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { linkParent } from './parents.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    link: true
  }
}

/** A link is held by whatever holds its parent: its capability is the parent's. */
export const linkTargets = {
  link: {
    name: 'Link',
    containers: async (store: Store, orgId: OrgId, id: string, hook: HookReader) => {
      const link = await store.links.get(orgId, id as never)
      return link ? linkParent(hook, link.parentType).containers(store, orgId, link.parentId, hook) : null
    },
  },
} satisfies Record<string, TargetResolver>
