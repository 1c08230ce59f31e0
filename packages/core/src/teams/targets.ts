import type { OrgId } from '../kernel/ids.ts'
import type { Container, TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    team: true
    workflowState: true
  }
}

const org = (orgId: OrgId): Container => ({ type: 'org', id: orgId })

/** A team is its own container; a workflow state is held by its team. */
export const teamTargets = {
  team: {
    name: 'Team',
    containers: async (store: Store, orgId: OrgId, id: string) =>
      (await store.teams.get(orgId, id as never)) ? [org(orgId), { type: 'team', id }] : null,
  },
  workflowState: {
    name: 'Workflow state',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const state = await store.states.get(orgId, id as never)
      return state ? [org(orgId), { type: 'team', id: state.teamId }] : null
    },
  },
} satisfies Record<string, TargetResolver>
