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
 * An initiative is held by the org alone until grants on initiatives exist: writing to one needs the
 * capability org-wide. (Readers without org-wide view may still see it through a project, see storage.)
 */
export const initiativeTargets = {
  initiative: {
    name: 'Initiative',
    containers: async (store: Store, orgId: OrgId, id: string): Promise<Container[] | null> => {
      const initiative = await store.initiatives.get(orgId, id as never, UNSCOPED)
      return initiative ? [{ type: 'org', id: orgId }] : null
    },
  },
} satisfies Record<string, TargetResolver>
