import type { InitiativeId } from '../kernel/ids.ts'
import { type Followable, followerOperations } from '../projects/followers.ts'
import { requireInitiative } from './service.ts'

/** Initiatives are followed like projects: their subscribers hear of their status updates (docs/notifications.md). */
export const initiativeFollowable: Followable = {
  recordType: 'initiative',
  name: 'Initiative',
  plural: 'initiatives',
  tag: 'Initiatives',
  recordPath: '/v1/orgs/{orgId}/initiatives/{initiativeId}',
  idParam: 'initiativeId',
  target: (id) => ({ type: 'initiative', id }),
  async require(ctx, id) {
    const initiative = await requireInitiative(ctx, id as InitiativeId)
    // Org-level, as the initiative's own events.
    return { id: initiative.id, teamId: null }
  },
}

export const initiativeSubscriberOperations = followerOperations(initiativeFollowable)
