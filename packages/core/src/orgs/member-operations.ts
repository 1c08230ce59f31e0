import { Type } from '@sinclair/typebox'
import { fieldsOf } from '../kernel/body-fields.ts'
import type { MemberId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf } from '../kernel/resource.ts'
import { memberExamples } from './examples.ts'
import { changeRole, leaveOrg, removeMember, setMemberActive } from './members.ts'
import { Member } from './schemas.ts'

const obj = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false })
const memberPath = '/v1/orgs/{orgId}/members/{memberId}'
const memberParams = obj(paramsOf(memberPath))
const memberWrite = {
  tag: 'Members',
  scope: 'work:write',
  capability: 'manage',
  params: memberParams,
  status: 200,
  response: Member,
} as const

/** Changing a member: role, deactivation and removal (owners and admins). */
export const memberWriteOperations: AnyOperation[] = [
  declareOperation({
    ...memberWrite,
    id: 'members.update',
    method: 'PATCH',
    path: memberPath,
    summary: "Change a member's role",
    description: 'Needs `manage`. Only owners make or unmake owners; the last active owner stays one.',
    body: Type.Object(fieldsOf(Member, { role: true }), { $id: 'MemberUpdate', additionalProperties: false }),
    errors: ['not_found', 'last_owner'],
    examples: memberExamples.update,
    run: (ctx, { params, body }) => changeRole(ctx, params.memberId as MemberId, body.role),
  }),
  declareOperation({
    ...memberWrite,
    id: 'members.deactivate',
    method: 'POST',
    path: `${memberPath}/deactivate`,
    summary: 'Deactivate a member',
    description:
      'Their access stops at once (every token); their grants and history stay for a reactivation.',
    errors: ['not_found', 'last_owner'],
    examples: memberExamples.deactivate,
    run: (ctx, { params }) => setMemberActive(ctx, params.memberId as MemberId, false),
  }),
  declareOperation({
    ...memberWrite,
    id: 'members.reactivate',
    method: 'POST',
    path: `${memberPath}/reactivate`,
    summary: 'Reactivate a member',
    description:
      'Gives a deactivated member their access back, with the grants and team memberships they kept; only an owner reactivates an owner. Emits `member.reactivated`.',
    errors: ['not_found'],
    examples: memberExamples.reactivate,
    run: (ctx, { params }) => setMemberActive(ctx, params.memberId as MemberId, true),
  }),
  declareOperation({
    ...memberWrite,
    id: 'members.remove',
    method: 'DELETE',
    path: memberPath,
    summary: 'Remove a member',
    description:
      'Removes them from the workspace with their grants and team memberships; their work keeps their name.',
    response: null,
    status: 204,
    errors: ['not_found', 'last_owner'],
    run: async (ctx, { params }) => removeMember(ctx, params.memberId as MemberId),
  }),
  declareOperation({
    id: 'orgs.leave',
    method: 'POST',
    path: '/v1/orgs/{orgId}/leave',
    tag: 'Members',
    scope: 'work:write',
    summary: 'Leave a workspace',
    requires: 'any member who is a person (an agent is removed by `agents.deactivate`, not by leaving)',
    description:
      'The caller stops being a member, as if removed: their grants and team memberships go, their work keeps their name, and every token stops reaching the workspace. The last active owner cannot leave (409 `last_owner`): make someone else owner first. Emits `member.removed`.',
    params: obj(paramsOf('/v1/orgs/{orgId}')),
    response: null,
    status: 204,
    errors: ['last_owner'],
    run: async (ctx) => leaveOrg(ctx),
  }),
]
