import type { MemberId, OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'

/** Drops what a member held in the workspace beyond the membership itself, when they leave or are removed. */
export type MemberRemoval = (ctx: OperationContext, orgId: OrgId, memberId: MemberId) => Promise<void>

// Grants and team memberships belong to access, above orgs in the groups' layering: this group may
// not touch their storage, so access hands in the removal. Until it does, there is nothing to drop.
let removal: MemberRemoval = async () => {}

/** Called once by the access group, which this group may not import. */
export function registerMemberRemoval(remove: MemberRemoval): void {
  removal = remove
}

/** Drops the member's grants and team memberships (whatever access registered). */
export function dropMemberStanding(ctx: OperationContext, orgId: OrgId, memberId: MemberId): Promise<void> {
  return removal(ctx, orgId, memberId)
}
