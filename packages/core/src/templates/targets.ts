import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { teamTargets } from '../teams/targets.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    template: true
    recurrence: true
  }
}

/** Templates and recurring work are held by their team. */
export const templateTargets = {
  template: {
    name: 'Template',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const template = await store.templates.get(orgId, id as never, UNSCOPED)
      return template ? teamTargets.team.containers(store, orgId, template.teamId) : null
    },
  },
  recurrence: {
    name: 'Recurrence',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const recurrence = await store.recurrences.get(orgId, id as never, UNSCOPED)
      return recurrence ? teamTargets.team.containers(store, orgId, recurrence.teamId) : null
    },
  },
} satisfies Record<string, TargetResolver>
