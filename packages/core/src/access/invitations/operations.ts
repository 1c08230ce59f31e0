import { Type } from '@sinclair/typebox'
import type { InvitationId } from '../../kernel/ids.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { PageQuery } from '../../kernel/pagination.ts'
import { paramsOf } from '../../kernel/resource.ts'
import { PageOf, StringEnum } from '../../kernel/schema-types.ts'
import { Member, OrgRole } from '../../orgs/schemas.ts'
import { acceptExample, invitationExamples, resendExample } from '../examples.ts'
import { Invitation } from '../schemas.ts'
import {
  acceptInvitation,
  createInvitation,
  getInvitation,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from './invitations.ts'

const obj = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false })
const invitationsPath = '/v1/orgs/{orgId}/invitations'
const invitationParams = obj({ ...paramsOf(invitationsPath), invitationId: IdSchema('InvitationId') })
/** Invitations to the org: send, list, resend, revoke and accept (docs/permissions.md). */
export const invitationOperations: AnyOperation[] = [
  declareOperation({
    id: 'invitations.create',
    method: 'POST',
    path: invitationsPath,
    tag: 'Invitations',
    scope: 'work:write',
    capability: 'manage',
    summary: 'Invite someone by email',
    description:
      'The single-use link goes out by mail and expires in 7 days. Only owners invite owners. Under the ' +
      '`verified_domains` invitation policy (`orgSettings`), only addresses on a verified domain.',
    params: obj(paramsOf(invitationsPath)),
    body: obj({ email: Type.String({ format: 'email', maxLength: 320 }), role: OrgRole }),
    response: Invitation,
    status: 201,
    errors: ['already_exists', 'domain_not_allowed'],
    location: 'invitations.get',
    examples: invitationExamples.create,
    run: (ctx, { body }) => createInvitation(ctx, body),
  }),
  declareOperation({
    id: 'invitations.list',
    method: 'GET',
    path: invitationsPath,
    tag: 'Invitations',
    scope: 'work:read',
    capability: 'manage',
    summary: 'List invitations',
    description:
      "The workspace's invitations, oldest first: only pending ones by default, every one (accepted, revoked, declined, expired) with `state=all`. Each shows its `state`, never its token.",
    params: obj(paramsOf(invitationsPath)),
    query: obj({
      ...PageQuery,
      state: Type.Optional(StringEnum(['pending', 'all'] as const, { default: 'pending' })),
    }),
    response: PageOf(Invitation, 'Invitation'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: invitationExamples.list,
    run: (ctx, { query }) => listInvitations(ctx, query),
  }),
  declareOperation({
    id: 'invitations.get',
    method: 'GET',
    path: `${invitationsPath}/{invitationId}`,
    tag: 'Invitations',
    scope: 'work:read',
    capability: 'manage',
    summary: 'Get an invitation',
    description:
      'One invitation with its current `state` (`pending`, `accepted`, `revoked`, `declined` or `expired`); the token is never shown.',
    params: invitationParams,
    response: Invitation,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: invitationExamples.get,
    run: (ctx, { params }) => getInvitation(ctx, params.invitationId as InvitationId),
  }),
  declareOperation({
    id: 'invitations.revoke',
    method: 'POST',
    path: `${invitationsPath}/{invitationId}/revoke`,
    tag: 'Invitations',
    scope: 'work:write',
    capability: 'manage',
    summary: 'Revoke an invitation',
    description: 'Its link stops working at once.',
    params: invitationParams,
    response: Invitation,
    status: 200,
    errors: ['not_found'],
    examples: invitationExamples.revoke,
    run: (ctx, { params }) => revokeInvitation(ctx, params.invitationId as InvitationId),
  }),
  declareOperation({
    id: 'invitations.resend',
    method: 'POST',
    path: `${invitationsPath}/{invitationId}/resend`,
    tag: 'Invitations',
    scope: 'work:write',
    capability: 'manage',
    summary: 'Send an invitation again',
    description:
      'With a fresh token and a fresh 7-day window: the earlier link stops working. A pending or expired invitation can be resent; an accepted, revoked or declined one is a 409.',
    params: invitationParams,
    response: Invitation,
    status: 200,
    errors: ['not_found', 'conflict'],
    examples: resendExample,
    run: (ctx, { params }) => resendInvitation(ctx, params.invitationId as InvitationId),
  }),
  declareOperation({
    id: 'invitations.accept',
    method: 'POST',
    path: '/v1/invitations/accept',
    tag: 'Invitations',
    scope: 'work:write',
    summary: 'Accept an invitation',
    description: 'With the token from the link, signed in as the invited address. The token works once.',
    body: obj({ token: Type.String({ minLength: 20, maxLength: 200 }) }),
    response: Member,
    status: 200,
    errors: ['invitation_invalid', 'invitation_email_mismatch', 'already_exists'],
    examples: acceptExample,
    run: (ctx, { body }) => acceptInvitation(ctx, body.token),
  }),
]
