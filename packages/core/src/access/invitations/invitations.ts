import { createHash, randomBytes } from 'node:crypto'
import { checkInvitationAllowed } from '../../admin/settings.ts'
import type { OrgRole } from '../../kernel/capabilities.ts'
import { currentOrg } from '../../kernel/context.ts'
import type { InvitationId, MemberId, OrgId } from '../../kernel/ids.ts'
import { newId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import type { Storage } from '../../kernel/storage.ts'
import type { Member } from '../../orgs/schemas.ts'
import type { Invitation } from '../schemas.ts'
import type { InvitationRecord } from '../storage.ts'

const INVITATION_DAYS = 7

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

export function toInvitation({ tokenHash: _hash, ...record }: InvitationRecord, now: string): Invitation {
  const state = record.acceptedAt
    ? 'accepted'
    : record.revokedAt
      ? 'revoked'
      : record.declinedAt
        ? 'declined'
        : record.expiresAt <= now
          ? 'expired'
          : 'pending'
  return { ...record, state }
}

/** Invites someone by email; the single-use link goes out through the mailer and is never stored. */
export async function createInvitation(
  ctx: OperationContext,
  input: { email: string; role: OrgRole },
): Promise<Invitation> {
  const org = currentOrg(ctx)
  if (input.role === 'owner' && ctx.actor?.role !== 'owner') {
    throw new ProblemError('capability_required', 'Only an owner can invite an owner.', {
      extensions: { capability: 'manage', role: 'owner' },
    })
  }
  const email = input.email.trim().toLowerCase()
  await checkInvitationAllowed(ctx, email)
  const user = await ctx.store.users.getByEmail(email)
  const existing = user ? await ctx.store.members.findByUser(org.id, user.id) : null
  if (existing && existing.status !== 'removed') {
    throw new ProblemError('already_exists', 'That person is already in this workspace.', {
      errors: [{ pointer: '/body/email', message: 'Already a member' }],
    })
  }
  const token = randomBytes(32).toString('base64url')
  const record: InvitationRecord = {
    id: newId('InvitationId'),
    orgId: org.id,
    email,
    role: input.role,
    tokenHash: hashToken(token),
    invitedBy: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
    expiresAt: new Date(Date.parse(ctx.now) + INVITATION_DAYS * 86_400_000).toISOString(),
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
    declinedAt: null,
  }
  await ctx.store.invitations.insert(record)
  const invitation = toInvitation(record, ctx.now)
  ctx.emit({
    kind: 'invitation.created',
    resourceType: 'invitation',
    resourceId: record.id,
    data: { invitation },
  })
  await mailInvitation(ctx, email, token)
  return invitation
}

async function mailInvitation(ctx: OperationContext, email: string, token: string) {
  await ctx.mailer.send({
    to: email,
    subject: `${ctx.actor!.name} invited you to ${currentOrg(ctx).name} on workgraph`,
    text: `Accept within ${INVITATION_DAYS} days: sign in as ${email} and POST {"token": "${token}"} to ${ctx.config.baseUrl}/v1/invitations/accept, or open the link.`,
    link: `${ctx.config.baseUrl}/invitations/accept?token=${token}`,
  })
}

/**
 * Sends the invitation again with a fresh token and a fresh 7-day window: the earlier link stops
 * working. A pending or expired invitation can be resent; an accepted, revoked or declined one is a 409.
 */
export async function resendInvitation(ctx: OperationContext, id: InvitationId): Promise<Invitation> {
  const record = await ctx.store.invitations.get(currentOrg(ctx).id, id)
  if (!record) throw notFound('Invitation')
  const state = toInvitation(record, ctx.now).state
  if (state === 'accepted' || state === 'revoked' || state === 'declined') {
    throw new ProblemError('conflict', `The invitation is ${state}; invite the person again instead.`, {
      extensions: { state },
    })
  }
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(Date.parse(ctx.now) + INVITATION_DAYS * 86_400_000).toISOString()
  if (!(await ctx.store.invitations.reissue(record.orgId, record.id, hashToken(token), expiresAt)))
    throw new ProblemError('conflict', 'The invitation was accepted, revoked or declined a moment ago.')
  const invitation = toInvitation({ ...record, expiresAt }, ctx.now)
  ctx.emit({ kind: 'invitation.resent', resourceType: 'invitation', resourceId: id, data: { invitation } })
  await mailInvitation(ctx, record.email, token)
  return invitation
}

export async function listInvitations(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; state?: 'pending' | 'all' },
): Promise<Page<Invitation>> {
  const orgId = currentOrg(ctx).id
  const filter = query.state === 'all' ? {} : { pendingAt: ctx.now }
  const page = await readPage(ctx, {
    scope: ['invitations.list', orgId, query.state ?? 'pending'],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (i: InvitationRecord) => i.id,
    fetch: (p) => ctx.store.invitations.list(orgId, filter, p),
  })
  return { data: page.data.map((r) => toInvitation(r, ctx.now)), nextCursor: page.nextCursor }
}

export async function getInvitation(ctx: OperationContext, id: InvitationId): Promise<Invitation> {
  const record = await ctx.store.invitations.get(currentOrg(ctx).id, id)
  if (!record) throw notFound('Invitation')
  return toInvitation(record, ctx.now)
}

export async function revokeInvitation(ctx: OperationContext, id: InvitationId): Promise<Invitation> {
  const record = await ctx.store.invitations.get(currentOrg(ctx).id, id)
  if (!record) throw notFound('Invitation')
  if (toInvitation(record, ctx.now).state !== 'pending') return toInvitation(record, ctx.now)
  await ctx.store.invitations.revoke(record.orgId, record.id, ctx.now)
  const invitation = toInvitation({ ...record, revokedAt: ctx.now }, ctx.now)
  ctx.emit({ kind: 'invitation.revoked', resourceType: 'invitation', resourceId: id, data: { invitation } })
  return invitation
}

/**
 * Accepts an invitation with its link token: the signed-in person must own the invited address.
 * The token works once; a removed member comes back with the invited role.
 */
export async function acceptInvitation(ctx: OperationContext, token: string): Promise<Member> {
  const user = ctx.principal && (await ctx.store.users.get(ctx.principal.userId))
  if (!user) throw new ProblemError('unauthenticated', 'The account behind this token no longer exists.')
  const found = await ctx.store.invitations.findByToken(hashToken(token))
  if (!found || toInvitation(found, ctx.now).state !== 'pending') {
    throw new ProblemError(
      'invitation_invalid',
      'This invitation link is used, revoked or expired; ask for a new one.',
    )
  }
  if (found.email !== user.email.toLowerCase()) {
    throw new ProblemError(
      'invitation_email_mismatch',
      `This invitation was sent to another address; sign in as that person.`,
    )
  }
  const orgId: OrgId = found.orgId
  const existing = await ctx.store.members.findByUser(orgId, user.id)
  if (existing && existing.status !== 'removed')
    throw new ProblemError('already_exists', 'You are already in this workspace.')
  const memberId = existing?.id ?? newId('MemberId')
  const invitation = await ctx.store.invitations.consume(found.tokenHash, ctx.now, memberId)
  if (!invitation) throw new ProblemError('invitation_invalid', 'This invitation link was just used.')
  if (existing) {
    await ctx.store.members.update(orgId, memberId, {
      role: invitation.role,
      status: 'active',
      updatedAt: ctx.now,
    })
  } else {
    await ctx.store.members.insert({
      id: memberId,
      orgId,
      userId: user.id,
      kind: 'person',
      role: invitation.role,
      status: 'active',
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
  }
  const member = (await ctx.store.members.get(orgId, memberId))!
  ctx.emit(
    {
      kind: existing ? 'member.reactivated' : 'member.created',
      resourceType: 'member',
      resourceId: memberId,
      data: { member },
    },
    orgId,
  )
  return member
}

/** What the invitation page shows before anyone accepts: whose workspace, from whom, to whom. */
export interface InvitationPreview {
  orgName: string
  inviterName: string | null
  email: string
  role: OrgRole
  state: Invitation['state']
}

/**
 * Reads the invitation a mail link's token stands for, changing nothing (mail clients prefetch
 * links), for the first-party page that asks the person to accept. Undefined for a token that
 * names no invitation. The token itself is the credential, as for `invitations.accept`.
 */
export async function previewInvitation(
  storage: Storage,
  token: string,
  now: string,
): Promise<InvitationPreview | undefined> {
  return storage.read(async (store) => {
    const found = await store.invitations.findByToken(hashToken(token))
    if (!found) return undefined
    const [org, inviter] = await Promise.all([
      store.orgs.get(found.orgId),
      store.members.get(found.orgId, found.invitedBy),
    ])
    if (!org) return undefined
    const { state } = toInvitation(found, now)
    return {
      orgName: org.name,
      inviterName: inviter?.name ?? null,
      email: found.email,
      role: found.role,
      state,
    }
  })
}
