import { toInvitation } from '../../access/invitations/invitations.ts'
import type { InvitationRecord } from '../../access/storage.ts'
import type { InvitationId, MemberId, OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { callerId } from '../profile/profile.ts'

export interface MyInvitation {
  id: InvitationId
  orgId: OrgId
  orgName: string
  role: InvitationRecord['role']
  state: 'pending' | 'declined'
  invitedBy: { memberId: MemberId; name: string | null }
  createdAt: string
  expiresAt: string
  declinedAt: string | null
}

/** The address invitations are sent to: the one the person signs in with, lower-cased as stored. */
async function myEmail(ctx: OperationContext): Promise<string> {
  const user = await ctx.store.users.get(callerId(ctx))
  if (!user) throw new ProblemError('unauthenticated', 'The account behind this token no longer exists.')
  return user.email.toLowerCase()
}

/** With the workspace's and the inviter's names, read in the invitation's own workspace. */
async function present(ctx: OperationContext, r: InvitationRecord): Promise<MyInvitation> {
  const org = await ctx.store.orgs.get(r.orgId)
  const inviter = await ctx.store.members.get(r.orgId, r.invitedBy)
  return {
    id: r.id,
    orgId: r.orgId,
    orgName: org?.name ?? '',
    role: r.role,
    state: r.declinedAt ? 'declined' : 'pending',
    invitedBy: { memberId: r.invitedBy, name: inviter?.name ?? null },
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    declinedAt: r.declinedAt,
  }
}

export async function listMyInvitations(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<MyInvitation>> {
  const email = await myEmail(ctx)
  const page = await readPage(ctx, {
    scope: ['me.invitations.list', callerId(ctx)],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (r: InvitationRecord) => r.id,
    fetch: (p) => ctx.store.invitations.listForEmail(email, ctx.now, p),
  })
  return { data: await Promise.all(page.data.map((r) => present(ctx, r))), nextCursor: page.nextCursor }
}

/**
 * Declines an invitation sent to the caller's address: its link stops working, and the workspace's
 * managers see `invitation.declined`. Declining again answers the same; an invitation accepted,
 * revoked or expired is a 409. Another address's invitation looks missing.
 */
export async function declineInvitation(ctx: OperationContext, id: InvitationId): Promise<MyInvitation> {
  const found = await ctx.store.invitations.findForEmail(await myEmail(ctx), id)
  if (!found) throw notFound('Invitation')
  const state = toInvitation(found, ctx.now).state
  if (state === 'declined') return present(ctx, found)
  if (state !== 'pending') {
    throw new ProblemError('conflict', `The invitation is ${state}; there is nothing to decline.`, {
      extensions: { state },
    })
  }
  if (!(await ctx.store.invitations.decline(found.orgId, found.id, ctx.now)))
    throw new ProblemError('conflict', 'The invitation was accepted or revoked a moment ago.')
  const declined = { ...found, declinedAt: ctx.now }
  ctx.emit(
    {
      kind: 'invitation.declined',
      resourceType: 'invitation',
      resourceId: found.id,
      data: { invitation: toInvitation(declined, ctx.now) },
    },
    found.orgId,
  )
  return present(ctx, declined)
}
