import { Type } from '@sinclair/typebox'
import { IdSchema, type InvitationId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { PageQuery } from '../../kernel/pagination.ts'
import { Nullable, NullableTimestamp, PageOf, StringEnum, Timestamp } from '../../kernel/schema-types.ts'
import { OrgRole } from '../../orgs/schemas.ts'
import { declineInvitation, listMyInvitations } from './invitations.ts'

export const MyInvitation = Type.Object(
  {
    id: IdSchema('InvitationId'),
    orgId: IdSchema('OrgId'),
    orgName: Type.String({ description: 'The workspace that invites.' }),
    role: OrgRole,
    state: StringEnum(['pending', 'declined'] as const),
    invitedBy: Type.Object(
      {
        memberId: IdSchema('MemberId'),
        name: Nullable(Type.String(), 'Null if the inviter has left the workspace since.'),
      },
      { additionalProperties: false },
    ),
    createdAt: Timestamp('When the invitation was sent.'),
    expiresAt: Timestamp('When its link stops working.'),
    declinedAt: NullableTimestamp('When the caller declined it.'),
  },
  {
    $id: 'MyInvitation',
    additionalProperties: false,
    description:
      'An invitation to the caller’s address, as the invited person sees it. Its token is only in the mail.',
  },
)

const example = {
  id: 'inv_01JD3Q2R4S5T6V7W8X9YZABCDE',
  orgId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE',
  orgName: 'Acme',
  role: 'member',
  state: 'pending',
  invitedBy: { memberId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE', name: 'Grace Hopper' },
  createdAt: '2030-01-13T16:00:00.000Z',
  expiresAt: '2030-01-20T16:00:00.000Z',
  declinedAt: null,
}

export const invitationOperations: AnyOperation[] = [
  declareOperation({
    id: 'me.invitations.list',
    method: 'GET',
    path: '/v1/me/invitations',
    tag: 'Me',
    scope: 'work:read',
    summary: 'List invitations for me',
    description:
      'Pending, unexpired invitations to the address the caller signs in with, in every workspace, with the workspace and the inviter. Accept one with the token from its mail (`invitations.accept`), or decline it.',
    query: Type.Object(PageQuery, { additionalProperties: false }),
    response: PageOf(MyInvitation, 'MyInvitation'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: { response: { data: [example], nextCursor: null } },
    run: (ctx, { query }) => listMyInvitations(ctx, query as never),
  }),
  declareOperation({
    id: 'me.invitations.decline',
    method: 'POST',
    path: '/v1/me/invitations/{invitationId}/decline',
    tag: 'Me',
    scope: 'work:write',
    summary: 'Decline an invitation',
    description:
      'Its link stops working (`invitations.accept` answers `invitation_invalid`), it leaves `me.invitations.list`, and `invitation.declined` goes to the workspace, where its managers see it. Declining again answers the same. An invitation accepted, revoked or expired is a 409 `conflict`; one sent to another address is a 404.',
    params: Type.Object({ invitationId: IdSchema('InvitationId') }, { additionalProperties: false }),
    response: MyInvitation,
    status: 200,
    errors: ['not_found', 'conflict'],
    examples: {
      response: { ...example, state: 'declined', declinedAt: '2030-01-14T09:00:00.000Z' },
    },
    run: (ctx, { params }) => declineInvitation(ctx, (params as { invitationId: InvitationId }).invitationId),
  }),
]
