import type { OrgId } from '../kernel/ids.ts'
import type { Container, TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    label: true
  }
}

/** An org label is held by the org alone; a team label by its team too. */
export const labelTargets = {
  label: {
    name: 'Label',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const label = await store.labels.get(orgId, id as never, UNSCOPED)
      if (!label) return null
      const org: Container = { type: 'org', id: orgId }
      return label.teamId ? [org, { type: 'team', id: label.teamId }] : [org]
    },
  },
} satisfies Record<string, TargetResolver>
