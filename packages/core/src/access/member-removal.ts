import type { MemberRemoval } from '../orgs/member-removal.ts'

/**
 * A member who leaves or is removed loses their grants and team memberships. Orgs sits below access
 * and cannot touch its storage, so this group fills the hook `orgs.memberRemoval`.
 */
export const removeMemberAccess: MemberRemoval = async (ctx, orgId, memberId) => {
  await ctx.store.access.deleteGrantsOf(orgId, memberId)
}
