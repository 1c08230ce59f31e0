import { loadProfile } from '../access/profile.ts'
import type { ActiveStanding, MemberStanding } from '../access/storage.ts'
import type { OrgId, UserId } from '../kernel/ids.ts'
import { type Actor, type KnownAccess, readScope } from '../kernel/permissions.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import type { Member, Org } from '../orgs/schemas.ts'

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
  return member ? readerOfMember(store, { member, teamIds, grants }) : null
}

/**
 * The readers of many users in one workspace, their memberships, teams and grants read in one
 * statement (`standings`): a stream round reads every user it delivers to at once. Users who are not
 * active members are absent.
 */
export async function readersIn(
  store: Store,
  orgId: OrgId,
  userIds: readonly UserId[],
): Promise<Map<UserId, StreamReader>> {
  const standings = await store.access.standings(orgId, userIds)
  const readers = new Map<UserId, StreamReader>()
  await Promise.all(
    [...standings].map(async ([userId, standing]) => {
      const reader = await readerOfMember(store, standing)
      if (reader) readers.set(userId, reader)
    }),
  )
  return readers
}

/** A member's reader from its standing; null unless the membership is active. */
async function readerOfMember(store: Store, standing: MemberStanding): Promise<StreamReader | null> {
  const { member, teamIds, grants } = standing
  if (member.status !== 'active') return null
  const actor = actorOf(member)
  return {
    orgId: member.orgId,
    actor,
    scope: readScope(await loadProfile(store, actor, { teamIds, grants })),
  }
}

/** The person acting through a membership. */
function actorOf(member: Member): Actor {
  const { id, orgId, role, userId, name } = member
  return { id, kind: 'person', orgId, role, userId, name }
}

/** A reader with the workspace and the teams and grants its scope was made from (`known`). */
export type StandingReader = StreamReader & { org: Org; known: KnownAccess }

/**
 * The reader of an active membership's standing (`access.standingsOf`), keeping the org and the
 * teams and grants, so that a context in the workspace reads neither again.
 */
export async function readerOfStanding(store: Store, standing: ActiveStanding): Promise<StandingReader> {
  const { org, member, teamIds, grants } = standing
  const actor = actorOf(member)
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
