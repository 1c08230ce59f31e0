import type { AccessProfile, Actor } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import type { Grant } from './schemas.ts'

/** The actor's teams and every grant that reaches it (directly or through a team): loaded once per request. */
export async function loadProfile(store: Store, actor: Actor): Promise<AccessProfile<Grant>> {
  const teamIds = await store.access.teamsOf(actor.orgId, actor.id)
  const grants = await store.access.grantsFor(actor.orgId, actor.id, teamIds)
  return { actor, teamIds, grants }
}
