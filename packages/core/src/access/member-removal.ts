import { registerMemberRemoval } from '../orgs/member-removal.ts'

/**
 * A member who leaves or is removed loses their grants and team memberships. Orgs sits below access
 * and cannot touch its storage, so this group hands the removal in (see `orgs/member-removal.ts`).
 */
registerMemberRemoval(async (ctx, orgId, memberId) => {
  await ctx.store.access.deleteGrantsOf(orgId, memberId)
})
