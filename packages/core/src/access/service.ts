import type { Capability } from '../kernel/capabilities.ts'
import { atLeast, capabilityRank, ORG_ROLES, ROLE_BASE_CAPABILITY } from '../kernel/capabilities.ts'
import { currentOrg } from '../kernel/context.ts'
import type { ActorId, GrantId, TeamId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { type Actor, type CapabilityTarget, capabilityIn, decisive } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { inBody, referenceNotFound } from '../kernel/references.ts'
import { requireTeam } from '../teams/service.ts'
import { findActor } from './actors.ts'
import { loadProfile } from './profile.ts'
import type { Grant, TeamMember, TeamMembership } from './schemas.ts'
import type { GrantFilter } from './storage.ts'

/** An active member or agent of the current org, as an Actor; anything else is a 422 on `pointer`. */
export async function actorById(ctx: OperationContext, actorId: string, pointer: string): Promise<Actor> {
  const orgId = currentOrg(ctx).id
  const found = await findActor(ctx, orgId, actorId)
  if (found?.kind === 'person' && found.member.status !== 'removed') {
    const m = found.member
    return { id: m.id, kind: 'person', orgId, role: m.role, userId: m.userId, name: m.name }
  }
  if (found?.kind === 'agent') {
    const a = found.agent
    return { id: a.id, kind: 'agent', orgId, role: null, userId: null, name: a.name }
  }
  throw referenceNotFound(pointer, 'No member or agent of this workspace has that id.', 'Unknown actor')
}

const teamMember = (m: TeamMembership): TeamMember => ({
  teamId: m.teamId,
  actorId: m.actorId,
  addedAt: m.createdAt,
})

/** A team's members and agents, by actor id. */
export async function listTeamMembers(
  ctx: OperationContext,
  teamId: TeamId,
  query: { cursor?: string; limit?: number },
): Promise<Page<TeamMember>> {
  const team = await requireTeam(ctx, teamId)
  return readPage(ctx, {
    scope: ['teams.members', team.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (m: TeamMember & { id: string }) => m.id,
    fetch: async (page) =>
      (await ctx.store.access.listTeamMembers(team.orgId, team.id, page)).map((m) => ({
        ...teamMember(m),
        id: m.actorId,
      })),
  }).then((p) => ({ data: p.data.map(({ id: _id, ...m }) => m), nextCursor: p.nextCursor }))
}

/** Idempotent: an actor already in the team answers the membership as it is (same `addedAt`), emitting nothing. */
export async function addTeamMember(
  ctx: OperationContext,
  teamId: TeamId,
  actorId: string,
): Promise<TeamMember> {
  const team = await requireTeam(ctx, teamId)
  const actor = await actorById(ctx, actorId, '/params/actorId')
  const membership: TeamMembership = {
    orgId: team.orgId,
    teamId: team.id,
    actorId: actor.id,
    createdAt: ctx.now,
  }
  if (await ctx.store.access.addTeamMember(membership)) {
    const member = teamMember(membership)
    ctx.emit({
      kind: 'team.member_added',
      resourceType: 'team',
      resourceId: team.id,
      teamId: team.id,
      data: { membership: member },
    })
    return member
  }
  const existing = await ctx.store.access.getTeamMember(team.orgId, team.id, actor.id as ActorId)
  return teamMember(existing ?? membership)
}

/** Idempotent: an actor not in the team changes nothing and emits nothing. */
export async function removeTeamMember(
  ctx: OperationContext,
  teamId: TeamId,
  actorId: ActorId,
): Promise<void> {
  const team = await requireTeam(ctx, teamId)
  if (!(await ctx.store.access.removeTeamMember(team.orgId, team.id, actorId))) return
  ctx.emit({
    kind: 'team.member_removed',
    resourceType: 'team',
    resourceId: team.id,
    teamId: team.id,
    data: { teamId, actorId },
  })
}

/**
 * Grants are managed by whoever may `manage` the container they apply to. A project the caller
 * cannot view is as missing there (the project's holders decide, as for any project read).
 */
function containerTarget(grant: Pick<Grant, 'containerType' | 'containerId'>): CapabilityTarget {
  if (grant.containerType === 'org') return { type: 'org' }
  return { type: grant.containerType, id: grant.containerId }
}

export async function listGrants(
  ctx: OperationContext,
  query: GrantFilter & { cursor?: string; limit?: number },
): Promise<Page<Grant>> {
  const orgId = currentOrg(ctx).id
  const filter: GrantFilter = {}
  for (const key of ['subjectType', 'subjectId', 'containerType', 'containerId'] as const)
    if (query[key]) filter[key] = query[key] as never
  const onContainer = filter.containerType && filter.containerType !== 'org' && filter.containerId
  await ctx.require('manage', onContainer ? containerTarget(filter as Grant) : { type: 'org' })
  return readPage(ctx, {
    scope: ['grants.list', orgId, filter],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (g: Grant) => g.id,
    fetch: (page) => ctx.store.access.listGrants(orgId, filter, page),
  })
}

export async function getGrant(ctx: OperationContext, grantId: GrantId): Promise<Grant> {
  const grant = await ctx.store.access.getGrant(currentOrg(ctx).id, grantId)
  if (!grant) throw notFound('Grant')
  await ctx.require('manage', containerTarget(grant))
  return grant
}

export async function addGrant(
  ctx: OperationContext,
  input: Pick<Grant, 'subjectType' | 'subjectId' | 'containerType' | 'containerId' | 'capability'>,
): Promise<Grant> {
  const orgId = currentOrg(ctx).id
  if (input.containerType === 'org' && input.containerId !== orgId) {
    throw referenceNotFound(
      '/body/containerId',
      'An org grant applies to this workspace: use its id.',
      'Not this workspace',
    )
  }
  // Both records are named by the body: missing or hidden, each is a 422 at its field (as alike as
  // the 404 of the path would be), a visible container without `manage` a 403.
  if (input.containerType === 'team')
    await inBody('/body/containerId', 'No team with this id that you can view.', () =>
      requireTeam(ctx, input.containerId as TeamId),
    )
  const container = containerTarget(input)
  await ctx.require(
    'manage',
    container.type === 'org' ? container : { ...container, pointer: '/body/containerId' },
  )
  if (input.subjectType === 'team')
    await inBody('/body/subjectId', 'No team with this id that you can view.', () =>
      requireTeam(ctx, input.subjectId as TeamId),
    )
  else await actorById(ctx, input.subjectId, '/body/subjectId')
  const existing = await ctx.store.access.findGrant(orgId, input)
  if (existing) {
    throw new ProblemError(
      'already_exists',
      'That subject already has a grant on that container; change it instead.',
      { extensions: { grantId: existing.id } },
    )
  }
  const grant: Grant = { id: newId('GrantId'), orgId, ...input, createdAt: ctx.now, updatedAt: ctx.now }
  await ctx.store.access.insertGrant({ ...grant, createdBy: ctx.actor?.id ?? null })
  ctx.emit({ kind: 'grant.created', resourceType: 'grant', resourceId: grant.id, data: { grant } })
  return grant
}

export async function changeGrant(
  ctx: OperationContext,
  grantId: GrantId,
  capability: Capability,
): Promise<Grant> {
  const grant = await getGrant(ctx, grantId)
  if (grant.capability === capability) return grant
  await ctx.store.access.updateGrant(grant.orgId, grant.id, { capability, updatedAt: ctx.now })
  const next = { ...grant, capability, updatedAt: ctx.now }
  ctx.emit({
    kind: 'grant.updated',
    resourceType: 'grant',
    resourceId: grant.id,
    data: { grant: next, changes: { capability: { before: grant.capability, after: capability } } },
  })
  return next
}

export async function removeGrant(ctx: OperationContext, grantId: GrantId): Promise<void> {
  const grant = await getGrant(ctx, grantId)
  await ctx.store.access.deleteGrant(grant.orgId, grant.id)
  ctx.emit({ kind: 'grant.deleted', resourceType: 'grant', resourceId: grant.id, data: { grant } })
}

/**
 * "Why can X do Y on Z": the actor's effective capability on the target and what decided it (its
 * role's base and the grants on every container holding the target). Managers ask about anyone;
 * anyone may ask about themselves.
 */
export async function explainAccess(
  ctx: OperationContext,
  query: { actorId: string; capability: Capability; targetType: CapabilityTarget['type']; targetId?: string },
) {
  if (query.actorId !== ctx.actor?.id) await ctx.require('manage', { type: 'org' })
  const actor = await actorById(ctx, query.actorId, '/query/actorId')
  const target = (
    query.targetType === 'org' ? { type: 'org' } : { type: query.targetType, id: query.targetId ?? '' }
  ) as CapabilityTarget
  const containers = await ctx.containersOf(target)
  if (!containers) throw notFound('Target')
  const profile = await loadProfile(ctx.store, actor)
  const effective = capabilityIn(profile, containers)
  const { role, grants } = decisive(profile, containers)
  // The role decides unless a grant gives more; among grants, the first holding the effective rung.
  const decidingGrant =
    effective && (!role || capabilityRank(effective) > capabilityRank(role))
      ? (grants.find((g) => g.capability === effective) ?? null)
      : null
  return {
    actorId: actor.id,
    capability: query.capability,
    allowed: atLeast(effective, query.capability),
    effective,
    visible: target.type === 'org' || atLeast(effective, 'view'),
    role: actor.role ? { role: actor.role, capability: role } : null,
    grants,
    decidingGrant,
  }
}

/**
 * Who holds at least `capability` on a record and through what: the role's base and the grants on
 * containers holding the record that reach them (a grant to a team names the team). Paged by actor
 * id; the holders are found in one query, then each is explained as `access.explain` would.
 */
export async function listHolders(
  ctx: OperationContext,
  query: {
    capability?: Capability
    targetType: CapabilityTarget['type']
    targetId?: string
    cursor?: string
    limit?: number
  },
) {
  const orgId = currentOrg(ctx).id
  const capability = query.capability ?? 'view'
  const target = (
    query.targetType === 'org' ? { type: 'org' } : { type: query.targetType, id: query.targetId ?? '' }
  ) as CapabilityTarget
  const containers = (await ctx.containersOf(target))!
  const roles = ORG_ROLES.filter((r) => atLeast(ROLE_BASE_CAPABILITY[r], capability))
  const page = await readPage(ctx, {
    scope: ['access.holders', orgId, query.targetType, query.targetId ?? null, capability],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (row: { id: string }) => row.id,
    fetch: async (p) =>
      (
        await ctx.store.access.holderIds(orgId, { roles, containers, minRank: capabilityRank(capability) }, p)
      ).map((id) => ({ id })),
  })
  const data = []
  for (const { id: actorId } of page.data) {
    const actor = await actorById(ctx, actorId, '/query/targetId')
    const profile = await loadProfile(ctx.store, actor)
    const { role, grants } = decisive(profile, containers)
    data.push({
      actorId: actor.id,
      kind: actor.kind,
      name: actor.name,
      capability: capabilityIn(profile, containers)!,
      role: actor.role ? { role: actor.role, capability: role } : null,
      grants,
    })
  }
  return { data, nextCursor: page.nextCursor }
}
