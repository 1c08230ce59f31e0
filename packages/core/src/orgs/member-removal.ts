import type { MemberId, OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'

/** Drops what a member held in the workspace beyond the membership itself, when they leave or are removed. */
export type MemberRemoval = (ctx: OperationContext, orgId: OrgId, memberId: MemberId) => Promise<void>

// Grants and team memberships belong to access, above orgs in the groups' layering: this group may
// not touch their storage, so access fills this hook.
declare module '../kernel/hooks.ts' {
  interface Hooks {
    'orgs.memberRemoval': MemberRemoval
  }
}

/** Drops the member's grants and team memberships (what the access group's hook removes). */
export function dropMemberStanding(ctx: OperationContext, orgId: OrgId, memberId: MemberId): Promise<void> {
  return ctx.hook('orgs.memberRemoval')(ctx, orgId, memberId)
}
