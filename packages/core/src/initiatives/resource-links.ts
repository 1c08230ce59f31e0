import type { InitiativeId } from '../kernel/ids.ts'
import type { AnyOperation } from '../kernel/operation.ts'
import { parentLinkOperations } from '../links/operations.ts'
import type { LinkParent } from '../links/parents.ts'
import { requireInitiative } from './service.ts'
import { initiativeTargets } from './targets.ts'

/** URL resources of initiatives: the links group's storage, item operations and events, with an initiative as the parent (the hook `links.initiative`). */
export const initiativeLinkParent: LinkParent = {
  name: 'Initiative',
  require: (ctx, id) => requireInitiative(ctx, id as InitiativeId),
  // Org-level, as the initiative's own events.
  eventTeam: async () => null,
  containers: (store, orgId, id) => initiativeTargets.initiative.containers(store, orgId, id),
}

export const initiativeResourceLinkOperations: AnyOperation[] = parentLinkOperations({
  parentType: 'initiative',
  plural: 'initiatives',
  tag: 'Initiatives',
  itemPath: '/v1/orgs/{orgId}/initiatives/{initiativeId}',
  idParam: 'initiativeId',
  idPrefix: 'ini',
})
