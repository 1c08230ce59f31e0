import {
  atLeast,
  type Capability,
  capabilityRank,
  type OrgRole,
  ROLE_BASE_CAPABILITY,
} from './capabilities.ts'
import type { HookReader } from './hooks.ts'
import type { ActorId, OrgId, UserId } from './ids.ts'
import { notFound, ProblemError } from './problems.ts'
import type { ReadScope } from './read-scope.ts'
import { referenceNotFound } from './references.ts'
import type { Store } from './storage.ts'

/** Whoever acts in an org: a person (through their membership) or an agent. */
export interface Actor {
  id: ActorId
  kind: 'person' | 'agent'
  orgId: OrgId
  /** People have a role; agents hold only grants. */
  role: OrgRole | null
  userId: UserId | null
  name: string
}

/**
 * What a grant can apply to: the whole org, one team, one project, one program or one initiative.
 * Every record lives in the org and a team; a task (or milestone) in a project is held by that
 * project too, and by every program holding the project and every initiative above either (an
 * initiative holds its sub-initiatives, the programs and projects it links, and their projects).
 */
export const CONTAINER_TYPES = ['org', 'team', 'project', 'program', 'initiative'] as const
export type ContainerType = (typeof CONTAINER_TYPES)[number]

export interface Container {
  type: ContainerType
  id: string
}

/** What the permission engine reads of a grant (the access group stores the whole record). */
export interface GrantOnContainer {
  containerType: ContainerType
  containerId: string
  capability: Capability
}

/**
 * The kinds of record a capability is checked on, besides the org itself. Each resource group adds
 * its own by declaration merging (`interface TargetKinds { task: true }`) and registers a
 * {@link TargetResolver} for it in its group module, so `target: { type: 'tsk' }` fails to compile.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the groups
export interface TargetKinds {}

/**
 * Where a capability is checked: the org itself, or a record inside it. `pointer` says where the
 * request names a record it does not address by its path (`/body/teamId`): one that is missing or
 * hidden is then a 422 `reference_not_found` there rather than a 404 (see `referenceNotFound`).
 */
export type CapabilityTarget =
  | { type: 'org' }
  | { [K in keyof TargetKinds]: { type: K; id: string; pointer?: string } }[keyof TargetKinds]

/** Finds the containers holding one kind of record, from the org down; null when it does not exist. */
export interface TargetResolver {
  /** Singular, for problem details: `Task`. */
  name: string
  /** `hook`: the engine's hooks, for a kind held by whatever holds a record of an upper group. */
  containers(store: Store, orgId: OrgId, id: string, hook: HookReader): Promise<Container[] | null>
}

/**
 * What the kernel needs to decide a capability: how an actor's grants are loaded and how each kind
 * of target is placed in its containers. The composition root assembles it from the groups.
 */
export interface PermissionModel {
  /** `known`: the actor's teams and grants, when the request already read them with its org. */
  loadProfile(store: Store, actor: Actor, known?: KnownAccess): Promise<AccessProfile>
  targets: Readonly<Record<string, TargetResolver>>
  /** The hooks of the engine's catalogue. */
  hook: HookReader
}

/**
 * What the actor's grants on programs and initiatives reach downwards, loaded with the profile: the
 * initiatives below a granted one (itself included), the programs they link or that are granted, and
 * the projects any of those hold. Reads compile the lists into SQL; writes are decided upwards, from
 * the containers holding the target.
 */
export interface ContainerReach {
  initiativeIds: readonly string[]
  programIds: readonly string[]
  projectIds: readonly string[]
}

/** What decides an actor's rights in one request: its role, its teams and every grant that reaches it. */
export interface AccessProfile<G extends GrantOnContainer = GrantOnContainer> {
  actor: Actor
  teamIds: readonly string[]
  grants: readonly G[]
  /** Absent (or empty) when no grant on a program or initiative reaches the actor. */
  reach?: ContainerReach
}

/** An actor's teams and grants as read with its org at the start of a request (see `ActorResolver`). */
export type KnownAccess<G extends GrantOnContainer = GrantOnContainer> = Pick<
  AccessProfile<G>,
  'teamIds' | 'grants'
>

/** The grants (and role) that reach the actor on any of the containers. */
export function decisive<G extends GrantOnContainer>(
  profile: AccessProfile<G>,
  containers: readonly Container[],
) {
  const grants = profile.grants.filter((g) =>
    containers.some((c) => c.type === g.containerType && c.id === g.containerId),
  )
  const role = profile.actor.role ? ROLE_BASE_CAPABILITY[profile.actor.role] : null
  return { role, grants }
}

/** The effective capability: the highest of the role's base and every grant on a container that holds the record. */
export function capabilityIn(profile: AccessProfile, containers: readonly Container[]): Capability | null {
  const { role, grants } = decisive(profile, containers)
  let best: Capability | null = role
  for (const g of grants)
    if (!best || capabilityRank(g.capability) > capabilityRank(best)) best = g.capability
  return best
}

export function readScope(profile: AccessProfile): ReadScope {
  const orgWide = atLeast(capabilityIn(profile, [{ type: 'org', id: profile.actor.orgId }]), 'view')
  // Every grant reaches at least `view`, so any team (project) grant that reaches the actor makes the
  // team (project) visible, and with it every record the container holds.
  // A program or initiative grant makes visible everything the container holds (`reach`).
  const on = (type: ContainerType, reached: readonly string[] = []) =>
    orgWide
      ? []
      : [
          ...new Set([
            ...profile.grants.filter((g) => g.containerType === type).map((g) => g.containerId),
            ...reached,
          ]),
        ]
  const reach = profile.reach
  return {
    orgWide,
    actorId: profile.actor.id,
    teamIds: on('team'),
    projectIds: on('project', reach?.projectIds),
    programIds: on('program', reach?.programIds),
    initiativeIds: on('initiative', reach?.initiativeIds),
  }
}

/** The containers holding a target, from the org down; null when the target does not exist. */
export async function containersOf(
  model: PermissionModel,
  store: Store,
  orgId: OrgId,
  target: CapabilityTarget,
): Promise<Container[] | null> {
  if (target.type === 'org') return [{ type: 'org', id: orgId }]
  return resolverOf(model, target).containers(store, orgId, target.id, model.hook)
}

/**
 * Throws unless the actor holds `capability` on the target. A target the actor cannot even view is
 * a 404, exactly as a missing one, so rights cannot be probed; a visible one is a 403 naming the need.
 * `read`: the target's containers as the caller has read them (its resolver's answer; null: missing).
 */
export async function requireCapability(
  model: PermissionModel,
  store: Store,
  profile: AccessProfile,
  capability: Capability,
  target: CapabilityTarget,
  read?: Container[] | null,
): Promise<void> {
  const containers = read !== undefined ? read : await containersOf(model, store, profile.actor.orgId, target)
  const held = containers ? capabilityIn(profile, containers) : null
  const name = target.type === 'org' ? 'Org' : resolverOf(model, target).name
  // Every member may know their own org and its org-level records (an org label) exist; inside
  // the org's teams, what they cannot view does not exist. Programs and initiatives above a record
  // do not make it team-level: an initiative (a program without teams) stays org-level, as before
  // grants on them existed.
  const orgLevel = containers?.every(
    (c) => c.type === 'org' || c.type === 'program' || c.type === 'initiative',
  )
  if (!containers || (!orgLevel && !atLeast(held, 'view'))) {
    if ('pointer' in target && target.pointer)
      throw referenceNotFound(target.pointer, `No ${name.toLowerCase()} with this id that you can view.`)
    throw notFound(name)
  }
  if (!atLeast(held, capability)) {
    throw new ProblemError(
      'capability_required',
      `This action needs the \`${capability}\` capability on this ${name.toLowerCase()}.`,
      {
        extensions: { capability, held },
      },
    )
  }
}

function resolverOf(model: PermissionModel, target: { type: string }): TargetResolver {
  const resolver = model.targets[target.type]
  if (!resolver) throw new Error(`No group resolves capability targets of type ${target.type}`)
  return resolver
}
