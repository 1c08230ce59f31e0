import { ROLE_BASE_CAPABILITY } from '../kernel/capabilities.ts'
import type { AccessProfile, Actor } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import type { Grant } from './schemas.ts'

/**
 * The actor's teams and every grant that reaches it (directly or through a team): loaded once per
 * request. Grants on programs and initiatives are expanded, in one more query, into what they hold
 * (`reach`), for readers who need it: the role or an org grant already shows such readers everything.
 */
export async function loadProfile(store: Store, actor: Actor): Promise<AccessProfile<Grant>> {
  const teamIds = await store.access.teamsOf(actor.orgId, actor.id)
  const grants = await store.access.grantsFor(actor.orgId, actor.id, teamIds)
  const on = (type: Grant['containerType']) =>
    grants.filter((g) => g.containerType === type).map((g) => g.containerId)
  const from = { programIds: on('program'), initiativeIds: on('initiative') }
  const orgWide = (actor.role && ROLE_BASE_CAPABILITY[actor.role]) || on('org').length > 0
  if (orgWide || (from.programIds.length === 0 && from.initiativeIds.length === 0))
    return { actor, teamIds, grants }
  return { actor, teamIds, grants, reach: await store.access.reach(actor.orgId, from) }
}
