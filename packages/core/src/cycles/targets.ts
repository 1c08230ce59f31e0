import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    cycle: true
  }
}

/** A cycle is held by its team. */
export const cycleTargets = {
  cycle: {
    name: 'Cycle',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const cycle = await store.cycles.get(orgId, id as never)
      return cycle
        ? [
            { type: 'org', id: orgId },
            { type: 'team', id: cycle.teamId },
          ]
        : null
    },
  },
} satisfies Record<string, TargetResolver>
