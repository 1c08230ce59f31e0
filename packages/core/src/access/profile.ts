import { ROLE_BASE_CAPABILITY } from '../kernel/capabilities.ts'
import type { AccessProfile, Actor, KnownAccess } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import type { Grant } from './schemas.ts'

/**
 * The actor's teams and every grant that reaches it (directly or through a team): loaded once per
 * request, or taken from `known` when the request read them with its org. Grants on programs and
 * initiatives are expanded, in one more query, into what they hold (`reach`), for readers who need
 * it: the role or an org grant already shows such readers everything.
 */
export async function loadProfile(
  store: Store,
  actor: Actor,
  known?: KnownAccess<Grant>,
): Promise<AccessProfile<Grant>> {
  const teamIds = known?.teamIds ?? (await store.access.teamsOf(actor.orgId, actor.id))
  const grants = known?.grants ?? (await store.access.grantsFor(actor.orgId, actor.id, teamIds))
  const on = (type: Grant['containerType']) =>
    grants.filter((g) => g.containerType === type).map((g) => g.containerId)
  const from = { programIds: on('program'), initiativeIds: on('initiative') }
  const orgWide = (actor.role && ROLE_BASE_CAPABILITY[actor.role]) || on('org').length > 0
  if (orgWide || (from.programIds.length === 0 && from.initiativeIds.length === 0))
    return { actor, teamIds, grants }
  return { actor, teamIds, grants, reach: await store.access.reach(actor.orgId, from) }
}
