import { Type } from '@sinclair/typebox'
import { CAPABILITIES } from '../kernel/capabilities.ts'
import type { ActorId, GrantId, MemberId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import type { CapabilityTarget } from '../kernel/permissions.ts'
import { paramsOf } from '../kernel/resource.ts'
import { Nullable, PageOf, StringEnum } from '../kernel/schema-types.ts'
import { OrgRole } from '../orgs/schemas.ts'
import { explainExample, grantExamples, holdersExample, teamMemberExamples } from './examples.ts'
import { invitationOperations } from './invitations/operations.ts'
import {
  ActorIdSchema,
  CapabilitySchema,
  CONTAINER_TYPES,
  Grant,
  SUBJECT_TYPES,
  TeamMember,
} from './schemas.ts'
import {
  addGrant,
  addTeamMember,
  changeGrant,
  explainAccess,
  getGrant,
  listGrants,
  listHolders,
  listTeamMembers,
  removeGrant,
  removeTeamMember,
} from './service.ts'

const obj = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false })
/** What `access.explain` and `access.holders` can be asked about. */
const TARGET_TYPES = [
  'org',
  'team',
  'workflowState',
  'task',
  'project',
  'milestone',
  'program',
  'initiative',
] as const
const teamMembersPath = '/v1/orgs/{orgId}/teams/{teamId}/members'
const teamMemberPath = `${teamMembersPath}/{actorId}`
const teamMemberParams = obj({ ...paramsOf(teamMembersPath), actorId: ActorIdSchema })
const teamMemberOperations: AnyOperation[] = [
  declareOperation({
    id: 'teams.members.list',
    method: 'GET',
    path: teamMembersPath,
    tag: 'Teams',
    scope: 'work:read',
    summary: "List a team's members",
    description: 'People and agents in the team, by actor id. A grant to the team reaches each of them.',
    params: obj(paramsOf(teamMembersPath)),
    query: obj(PageQuery),
    response: PageOf(TeamMember, 'TeamMember'),
    status: 200,
    errors: ['not_found', 'invalid_cursor'],
    examples: teamMemberExamples.list,
    run: (ctx, { params, query }) => listTeamMembers(ctx, params.teamId as TeamId, query),
  }),
  declareOperation({
    id: 'teams.members.add',
    method: 'PUT',
    path: teamMemberPath,
    tag: 'Teams',
    scope: 'work:write',
    capability: 'manage',
    target: ({ params }) => ({ type: 'team', id: params.teamId as string }),
    summary: 'Add a member or agent to a team',
    description:
      'Adds a member or an agent of the workspace (`actorId`) to the team: grants to the team now reach them. Idempotent: adding someone already in the team answers their membership as it is (same `addedAt`) and emits nothing. An `actorId` naming no member or agent of the workspace (a removed member counts as none) is a 422 `reference_not_found`. Emits `team.member_added`.',
    params: teamMemberParams,
    response: TeamMember,
    status: 200,
    errors: ['not_found', 'reference_not_found'],
    examples: teamMemberExamples.add,
    run: (ctx, { params }) => addTeamMember(ctx, params.teamId as TeamId, params.actorId as string),
  }),
  declareOperation({
    id: 'teams.members.remove',
    method: 'DELETE',
    path: teamMemberPath,
    tag: 'Teams',
    scope: 'work:write',
    capability: 'manage',
    target: ({ params }) => ({ type: 'team', id: params.teamId as string }),
    summary: 'Remove a member or agent from a team',
    description:
      'Takes a member or an agent out of the team: grants to the team stop reaching them at once. Idempotent: someone not in the team changes nothing (204, no event). Emits `team.member_removed`.',
    params: teamMemberParams,
    response: null,
    status: 204,
    errors: ['not_found'],
    run: (ctx, { params }) => removeTeamMember(ctx, params.teamId as TeamId, params.actorId as ActorId),
  }),
]

const grantsPath = '/v1/orgs/{orgId}/grants'
const grantParams = obj({ ...paramsOf(grantsPath), grantId: IdSchema('GrantId') })
const grantOperations: AnyOperation[] = [
  declareOperation({
    id: 'grants.list',
    method: 'GET',
    path: grantsPath,
    tag: 'Access',
    scope: 'work:read',
    summary: 'List grants',
    requires: '`manage` on the workspace, or on the container named by `containerType` and `containerId`',
    description:
      'Needs `manage` on the org, or on the team, project, program or initiative named by `containerType=…&containerId=…` (a grant on a program or an initiative above it counts there).',
    params: obj(paramsOf(grantsPath)),
    query: obj({
      ...PageQuery,
      subjectType: Type.Optional(StringEnum(SUBJECT_TYPES)),
      subjectId: Type.Optional(Type.String({ maxLength: 40 })),
      containerType: Type.Optional(StringEnum(CONTAINER_TYPES)),
      containerId: Type.Optional(Type.String({ maxLength: 40 })),
    }),
    response: PageOf(Grant, 'Grant'),
    status: 200,
    errors: ['invalid_cursor', 'not_found', 'capability_required'],
    examples: grantExamples.list,
    run: (ctx, { query }) => listGrants(ctx, query),
  }),
  declareOperation({
    id: 'grants.get',
    method: 'GET',
    path: `${grantsPath}/{grantId}`,
    tag: 'Access',
    scope: 'work:read',
    summary: 'Get a grant',
    description: 'One grant: who holds which capability on which container.',
    requires: "`manage` on the grant's container; a container the caller cannot view is a 404",
    params: grantParams,
    response: Grant,
    status: 200,
    errors: ['not_found', 'capability_required'],
    etag: true,
    examples: grantExamples.get,
    run: (ctx, { params }) => getGrant(ctx, params.grantId as GrantId),
  }),
  declareOperation({
    id: 'grants.create',
    method: 'POST',
    path: grantsPath,
    tag: 'Access',
    scope: 'work:write',
    summary: 'Grant a capability',
    requires: '`manage` on the container named by `containerType` and `containerId`',
    description:
      "To a member, an agent or a whole team, on the org, one team, one project, one program or one initiative. A grant on a program reaches its projects (and their tasks and milestones); one on an initiative reaches its sub-initiatives, the programs and projects linked to any of them and those programs' projects. Needs `manage` on that container (403 `capability_required` on one the caller can view). A container or subject team that does not exist or that the caller cannot view is a 422 `reference_not_found` at `containerId` or `subjectId`, as is a member or agent not of this workspace.",
    params: obj(paramsOf(grantsPath)),
    body: obj({
      subjectType: StringEnum(SUBJECT_TYPES),
      subjectId: Type.String({ maxLength: 40 }),
      containerType: StringEnum(CONTAINER_TYPES),
      containerId: Type.String({ maxLength: 40 }),
      capability: CapabilitySchema,
    }),
    response: Grant,
    status: 201,
    errors: ['reference_not_found', 'already_exists', 'capability_required'],
    location: 'grants.get',
    examples: grantExamples.create,
    run: (ctx, { body }) => addGrant(ctx, body),
  }),
  declareOperation({
    id: 'grants.update',
    method: 'PATCH',
    path: `${grantsPath}/{grantId}`,
    tag: 'Access',
    scope: 'work:write',
    summary: "Change a grant's capability",
    description:
      'Raises or lowers the capability of an existing grant, keeping its subject and container; the same capability changes nothing. Takes effect on the next request of every token it reaches. Emits `grant.updated`.',
    requires: "`manage` on the grant's container",
    params: grantParams,
    body: obj({ capability: CapabilitySchema }),
    response: Grant,
    status: 200,
    errors: ['not_found', 'capability_required', 'precondition_failed'],
    precondition: 'grants.get',
    examples: grantExamples.update,
    run: (ctx, { params, body }) => changeGrant(ctx, params.grantId as GrantId, body.capability),
  }),
  declareOperation({
    id: 'grants.delete',
    method: 'DELETE',
    path: `${grantsPath}/{grantId}`,
    tag: 'Access',
    scope: 'work:write',
    summary: 'Remove a grant',
    requires: "`manage` on the grant's container",
    description: 'Takes effect on the very next request of every token of the people it reached.',
    params: grantParams,
    response: null,
    status: 204,
    errors: ['not_found', 'capability_required', 'precondition_failed'],
    precondition: 'grants.get',
    run: async (ctx, { params }) => removeGrant(ctx, params.grantId as GrantId),
  }),
  declareOperation({
    id: 'access.explain',
    method: 'GET',
    path: '/v1/orgs/{orgId}/access/explain',
    tag: 'Access',
    scope: 'work:read',
    summary: 'Explain why an actor can or cannot do something',
    requires: 'any member about themselves; `manage` on the workspace to ask about someone else',
    description:
      'The effective capability of a member or agent on the org, a team, a workflow state, a task, a project, a milestone, a program or an initiative, and the role and grants that decided it (a task in a project is held by its team, its project, the programs holding the project and the initiatives above either: grants on any of them count, and `decidingGrant` names the highest, with the container it is on). Managers ask about anyone; anyone may ask about themselves.',
    params: obj(paramsOf('/v1/orgs/{orgId}')),
    query: obj({
      actorId: ActorIdSchema,
      capability: CapabilitySchema,
      targetType: StringEnum(TARGET_TYPES),
      targetId: Type.Optional(Type.String({ maxLength: 40 })),
    }),
    response: Type.Object(
      {
        actorId: ActorIdSchema,
        capability: CapabilitySchema,
        allowed: Type.Boolean(),
        effective: Nullable(
          StringEnum(CAPABILITIES),
          'The highest capability the actor holds on the target.',
        ),
        visible: Type.Boolean({ description: 'Whether the actor can see the target at all.' }),
        role: Nullable(
          obj({ role: OrgRole, capability: Nullable(StringEnum(CAPABILITIES)) }) as never,
          "The actor's role and its base capability.",
        ),
        grants: Type.Array(Grant, { description: 'The grants on containers holding the target.' }),
        decidingGrant: Nullable(
          Grant,
          'The grant that gives the effective capability, when a grant (not the role) decides: the highest of `grants`, the first listed on a tie.',
        ),
      },
      { $id: 'AccessExplanation', additionalProperties: false },
    ),
    status: 200,
    errors: ['not_found', 'reference_not_found', 'capability_required'],
    examples: explainExample,
    run: (ctx, { query }) => explainAccess(ctx, query),
  }),
]

const Holder = Type.Object(
  {
    actorId: ActorIdSchema,
    kind: StringEnum(['person', 'agent'] as const),
    name: Type.String(),
    capability: CapabilitySchema,
    role: Nullable(
      obj({ role: OrgRole, capability: Nullable(StringEnum(CAPABILITIES)) }) as never,
      "The person's role and its base capability; null for an agent.",
    ),
    grants: Type.Array(Grant, {
      description:
        "The grants on containers holding the record that reach the actor: its own, or its team's (`subjectType: team`).",
    }),
  },
  { $id: 'AccessHolder', additionalProperties: false },
)

const holdersOperation = declareOperation({
  id: 'access.holders',
  method: 'GET',
  path: '/v1/orgs/{orgId}/access/holders',
  tag: 'Access',
  scope: 'work:read',
  summary: 'List who holds a capability on a record, and through what',
  requires: '`manage` on the record named by `targetType` and `targetId`',
  description:
    'Every member and agent holding at least `capability` (default `view`) on the org, a team, a workflow state, a task, a project, a milestone, a program or an initiative, with their effective capability, their role and the grants that reach them (a grant to a team reaches its members). Needs `manage` on the record, as reading its grants does (`grants.list`); ordered by actor id.',
  params: obj(paramsOf('/v1/orgs/{orgId}')),
  query: obj({
    ...PageQuery,
    capability: Type.Optional(CapabilitySchema),
    targetType: StringEnum(TARGET_TYPES),
    targetId: Type.Optional(Type.String({ maxLength: 40 })),
  }),
  response: PageOf(Holder, 'AccessHolder'),
  status: 200,
  // Who holds access, and through which grants, is the grants' own detail: for managers of the record.
  capability: 'manage',
  target: ({ query }) =>
    (query!.targetType === 'org'
      ? { type: 'org' }
      : { type: query!.targetType, id: query!.targetId ?? '' }) as CapabilityTarget,
  errors: ['not_found', 'invalid_cursor'],
  examples: holdersExample,
  run: (ctx, { query }) => listHolders(ctx, query),
})

export const accessCatalogue: AnyOperation[] = [
  ...invitationOperations,
  ...teamMemberOperations,
  ...grantOperations,
  holdersOperation,
]
