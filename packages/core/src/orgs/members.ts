import type { OrgRole } from '../kernel/capabilities.ts'
import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { MemberId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { dropMemberStanding } from './member-removal.ts'
import type { Member } from './schemas.ts'

async function requireMember(ctx: OperationContext, memberId: MemberId): Promise<Member> {
  const member = await ctx.store.members.get(currentOrg(ctx).id, memberId)
  if (!member || member.status === 'removed') throw notFound('Member')
  return member
}

/** Owners alone make or unmake owners; the last active owner stays one. */
async function guardOwnership(
  ctx: OperationContext,
  member: Member,
  losesOwnership: boolean,
  becomesOwner: boolean,
) {
  const touchesOwner = member.role === 'owner' || becomesOwner
  if (touchesOwner && ctx.actor?.role !== 'owner') {
    throw new ProblemError('capability_required', 'Only an owner can change who owns the workspace.', {
      extensions: { capability: 'manage', role: 'owner' },
    })
  }
  if (member.role === 'owner' && member.status === 'active' && losesOwnership) {
    if ((await ctx.store.members.countOwners(member.orgId)) <= 1) {
      throw new ProblemError(
        'last_owner',
        'The workspace keeps at least one active owner; make someone else owner first.',
      )
    }
  }
}

async function change(
  ctx: OperationContext,
  member: Member,
  patch: Partial<Pick<Member, 'role' | 'status'>>,
  kind: string,
) {
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => member[k as keyof Member] !== v),
  )
  if (Object.keys(changed).length === 0) return member
  await ctx.store.members.update(member.orgId, member.id, { ...changed, updatedAt: ctx.now })
  const next = { ...member, ...changed, updatedAt: ctx.now }
  ctx.emit({
    kind,
    resourceType: 'member',
    resourceId: member.id,
    data: { member: next, changes: changesOf(member, changed) },
  })
  return next
}

// Every change below first takes the org's owners lock, so two demotions cannot both pass the
// last-owner check.
export async function changeRole(ctx: OperationContext, memberId: MemberId, role: OrgRole): Promise<Member> {
  await ctx.store.locks.acquire(`owners:${currentOrg(ctx).id}`)
  const member = await requireMember(ctx, memberId)
  await guardOwnership(ctx, member, role !== 'owner', role === 'owner')
  return change(ctx, member, { role }, 'member.updated')
}

export async function setMemberActive(
  ctx: OperationContext,
  memberId: MemberId,
  active: boolean,
): Promise<Member> {
  await ctx.store.locks.acquire(`owners:${currentOrg(ctx).id}`)
  const member = await requireMember(ctx, memberId)
  if (!active) await guardOwnership(ctx, member, true, false)
  else if (member.role === 'owner' && ctx.actor?.role !== 'owner')
    await guardOwnership(ctx, member, false, false)
  return change(
    ctx,
    member,
    { status: active ? 'active' : 'deactivated' },
    active ? 'member.reactivated' : 'member.deactivated',
  )
}

/** Removes someone from the workspace: their grants and team memberships go; their work stays theirs. */
export async function removeMember(ctx: OperationContext, memberId: MemberId): Promise<void> {
  await ctx.store.locks.acquire(`owners:${currentOrg(ctx).id}`)
  const member = await requireMember(ctx, memberId)
  await guardOwnership(ctx, member, true, false)
  await dropMemberStanding(ctx, member.orgId, member.id)
  await change(ctx, member, { status: 'removed' }, 'member.removed')
}

/**
 * The caller leaves the workspace, as `removeMember` would remove them: grants and team memberships
 * go, work keeps their name. The last active owner cannot leave (409 `last_owner`).
 */
export async function leaveOrg(ctx: OperationContext): Promise<void> {
  const actor = ctx.actor!
  if (actor.kind !== 'person')
    throw new ProblemError('capability_required', 'Only a person leaves a workspace; an agent is removed.', {
      extensions: { capability: 'manage' },
    })
  await ctx.store.locks.acquire(`owners:${currentOrg(ctx).id}`)
  const member = await requireMember(ctx, actor.id as MemberId)
  await guardOwnership(ctx, member, true, false)
  await dropMemberStanding(ctx, member.orgId, member.id)
  await change(ctx, member, { status: 'removed' }, 'member.removed')
}
