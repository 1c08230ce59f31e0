import { loadProfile } from '../access/profile.ts'
import type { ActiveStanding } from '../access/storage.ts'
import type { OrgId, UserId } from '../kernel/ids.ts'
import { type Actor, type KnownAccess, readScope } from '../kernel/permissions.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import type { Org } from '../orgs/schemas.ts'

/** Who reads one workspace's log, and what they may see there: decided afresh for every read. */
export interface StreamReader {
  orgId: OrgId
  actor: Actor
  scope: ReadScope
  /** The teams and grants the scope was made from: a context in the workspace need not read them again. */
  known?: KnownAccess
  /** The workspace, when the reader was made with it: a context there need not read it again. */
  org?: Org
}

/** The reader for an actor (a person or an agent): its grants as they are now. */
export async function readerFor(store: Store, actor: Actor): Promise<StreamReader> {
  const profile = await loadProfile(store, actor)
  return {
    orgId: actor.orgId,
    actor,
    scope: readScope(profile),
    known: { teamIds: profile.teamIds, grants: profile.grants },
  }
}

/**
 * The user's reader in one workspace; null when they are not an active member. The membership, teams
 * and grants come in one statement (`standing`, as every request reads them): a stream round reads
 * this for every user it delivers to (and keeps it, so without the org and the teams and grants).
 */
export async function readerIn(store: Store, orgId: OrgId, userId: UserId): Promise<StreamReader | null> {
  const { member, teamIds, grants } = await store.access.standing(orgId, userId)
  if (member?.status !== 'active') return null
  const actor: Actor = { id: member.id, kind: 'person', orgId, role: member.role, userId, name: member.name }
  return { orgId, actor, scope: readScope(await loadProfile(store, actor, { teamIds, grants })) }
}

/** A reader with the workspace and the teams and grants its scope was made from (`known`). */
export type StandingReader = StreamReader & { org: Org; known: KnownAccess }

/**
 * The reader of an active membership's standing (`access.standingsOf`), keeping the org and the
 * teams and grants, so that a context in the workspace reads neither again.
 */
export async function readerOfStanding(store: Store, standing: ActiveStanding): Promise<StandingReader> {
  const { org, member, teamIds, grants } = standing
  const actor: Actor = {
    id: member.id,
    kind: 'person',
    orgId: org.id,
    role: member.role,
    userId: member.userId,
    name: member.name,
  }
  const known = { teamIds, grants }
  return { orgId: org.id, actor, scope: readScope(await loadProfile(store, actor, known)), org, known }
}

/** Every workspace the user is an active member of, in id order. */
export async function membershipsOf(store: Store, userId: UserId): Promise<OrgId[]> {
  const orgs: OrgId[] = []
  for (;;) {
    const last = orgs.at(-1)
    const page = await store.orgs.listForUser(userId, {
      sort: 'id',
      direction: 'asc',
      after: last ? { value: last, id: last } : null,
      limit: 200,
    })
    orgs.push(...page.slice(0, 200).map((o) => o.id))
    if (page.length <= 200) return orgs
  }
}

/** The user's readers in every workspace they belong to. */
export async function readersOf(store: Store, userId: UserId): Promise<StreamReader[]> {
  const readers = await Promise.all(
    (await membershipsOf(store, userId)).map((orgId) => readerIn(store, orgId, userId)),
  )
  return readers.filter((r): r is StreamReader => r !== null)
}
