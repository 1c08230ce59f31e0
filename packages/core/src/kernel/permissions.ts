import type { ContainerType, Grant } from '../access/schemas.ts'
import {
  atLeast,
  type Capability,
  capabilityRank,
  type OrgRole,
  ROLE_BASE_CAPABILITY,
} from './capabilities.ts'
import type { ActorId, OrgId, UserId } from './ids.ts'
import { notFound, ProblemError } from './problems.ts'
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

/** Where a capability is checked: the org itself, or a record inside it. */
export type CapabilityTarget =
  | { type: 'org' }
  | { type: 'team'; id: string }
  | { type: 'workflowState'; id: string }
  | { type: 'task'; id: string }
  | { type: 'cycle'; id: string }
  | { type: 'label'; id: string }
  | { type: 'comment'; id: string }

export interface Container {
  type: ContainerType
  id: string
}

/** What decides an actor's rights in one request: its role, its teams and every grant that reaches it. */
export interface AccessProfile {
  actor: Actor
  teamIds: readonly string[]
  grants: readonly Grant[]
}

export async function loadProfile(store: Store, actor: Actor): Promise<AccessProfile> {
  const teamIds = await store.access.teamsOf(actor.orgId, actor.id)
  const grants = await store.access.grantsFor(actor.orgId, actor.id, teamIds)
  return { actor, teamIds, grants }
}

/** The grants (and role) that reach the actor on any of the containers. */
export function decisive(profile: AccessProfile, containers: readonly Container[]) {
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

/**
 * How a read narrows what the actor sees, compiled into SQL by storage. `orgWide` actors see every
 * record; the others see records in `teamIds`: the teams where they, or a team they belong to, hold
 * a grant. The list comes from the grants the engine loads once per request, so the query carries it
 * as a literal the planner can estimate, and an empty list reads nothing.
 */
export interface ReadScope {
  orgWide: boolean
  actorId: ActorId
  teamIds: readonly string[]
}

/** For the engine's own look-ups (which container holds a record), never for answering a caller. */
export const UNSCOPED: ReadScope = {
  orgWide: true,
  actorId: 'mem_00000000000000000000000000' as ActorId,
  teamIds: [],
}

export function readScope(profile: AccessProfile): ReadScope {
  const orgWide = atLeast(capabilityIn(profile, [{ type: 'org', id: profile.actor.orgId }]), 'view')
  // Every grant reaches at least `view`, so any team grant that reaches the actor makes the team visible.
  const teamIds = orgWide
    ? []
    : [...new Set(profile.grants.filter((g) => g.containerType === 'team').map((g) => g.containerId))]
  return { orgWide, actorId: profile.actor.id, teamIds }
}

/** The containers holding a target, from the org down; null when the target does not exist. */
export async function containersOf(
  store: Store,
  orgId: OrgId,
  target: CapabilityTarget,
): Promise<Container[] | null> {
  const org: Container = { type: 'org', id: orgId }
  switch (target.type) {
    case 'org':
      return [org]
    case 'team':
      return (await store.teams.get(orgId, target.id as never))
        ? [org, { type: 'team', id: target.id }]
        : null
    case 'workflowState': {
      const state = await store.states.get(orgId, target.id as never)
      return state ? [org, { type: 'team', id: state.teamId }] : null
    }
    case 'task': {
      const task = await store.tasks.get(orgId, target.id as never, UNSCOPED)
      return task ? [org, { type: 'team', id: task.teamId }] : null
    }
    case 'cycle': {
      const cycle = await store.cycles.get(orgId, target.id as never)
      return cycle ? [org, { type: 'team', id: cycle.teamId }] : null
    }
    case 'label': {
      // An org label is held by the org alone; a team label by its team too.
      const label = await store.labels.get(orgId, target.id as never, UNSCOPED)
      if (!label) return null
      return label.teamId ? [org, { type: 'team', id: label.teamId }] : [org]
    }
    case 'comment': {
      const comment = await store.comments.get(orgId, target.id as never, UNSCOPED)
      if (!comment) return null
      const task = await store.tasks.get(orgId, comment.taskId, UNSCOPED)
      return task ? [org, { type: 'team', id: task.teamId }] : null
    }
  }
}

/**
 * Throws unless the actor holds `capability` on the target. A target the actor cannot even view is
 * a 404, exactly as a missing one, so rights cannot be probed; a visible one is a 403 naming the need.
 */
export async function requireCapability(
  store: Store,
  profile: AccessProfile,
  capability: Capability,
  target: CapabilityTarget,
): Promise<void> {
  const containers = await containersOf(store, profile.actor.orgId, target)
  const held = containers ? capabilityIn(profile, containers) : null
  // Every member may know their own org and its org-level records (an org label) exist; inside
  // the org's teams, what they cannot view does not exist.
  const orgLevel = containers?.every((c) => c.type === 'org')
  if (!containers || (!orgLevel && !atLeast(held, 'view'))) throw notFound(targetName(target))
  if (!atLeast(held, capability)) {
    throw new ProblemError(
      'capability_required',
      `This action needs the \`${capability}\` capability on this ${targetName(target).toLowerCase()}.`,
      {
        extensions: { capability, held },
      },
    )
  }
}

function targetName(target: CapabilityTarget): string {
  return {
    org: 'Org',
    team: 'Team',
    workflowState: 'Workflow state',
    task: 'Task',
    cycle: 'Cycle',
    label: 'Label',
    comment: 'Comment',
  }[target.type]
}
