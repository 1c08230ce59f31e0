import { containersAbove } from '../access/containers-above.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { Container, TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    initiative: true
  }
}

/**
 * An initiative is held by the org, by itself and by every initiative above it: writing to one needs
 * the capability org-wide or through a grant on it or an ancestor. (Readers may also see it through a
 * project it links, see storage.)
 */
export const initiativeTargets = {
  initiative: {
    name: 'Initiative',
    containers: async (store: Store, orgId: OrgId, id: string): Promise<Container[] | null> => {
      const initiative = await store.initiatives.get(orgId, id as never, UNSCOPED)
      if (!initiative) return null
      return [
        { type: 'org', id: orgId },
        ...(await containersAbove(store, orgId, { type: 'initiative', id: initiative.id })),
      ]
    },
  },
} satisfies Record<string, TargetResolver>
