import { type Static, Type } from '@sinclair/typebox'
import { CAPABILITIES } from '../kernel/capabilities.ts'
import { IdSchema, type OrgId, type TeamId } from '../kernel/ids.ts'
import { CONTAINER_TYPES, type ContainerType } from '../kernel/permissions.ts'
import { AnyJson, Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { OrgRole } from '../orgs/schemas.ts'

export const CapabilitySchema = StringEnum(CAPABILITIES, {
  $id: 'Capability',
  description: 'The capability ladder, lowest to highest: view < comment < contribute < assign < manage.',
})

/** A member (`mem_…`) or an agent (`agt_…`). */
export const ActorIdSchema = Type.String({
  pattern: '^(mem|agt)_[0-9A-HJKMNP-TV-Z]{26}$',
  description: 'A MemberId or an AgentId.',
})

export const SUBJECT_TYPES = ['member', 'agent', 'team'] as const
export type SubjectType = (typeof SUBJECT_TYPES)[number]
/** Containers that hold records (the permission engine's list). */
export { CONTAINER_TYPES, type ContainerType }

/** Containers an approval policy may gate (policies on programs and initiatives are not built). */
export const POLICY_CONTAINER_TYPES = ['org', 'team', 'project'] as const satisfies readonly ContainerType[]

export const Grant = Type.Object(
  {
    id: IdSchema('GrantId'),
    orgId: IdSchema('OrgId'),
    subjectType: StringEnum(SUBJECT_TYPES, {
      description: 'Who holds it: a member, an agent, or every member of a team.',
    }),
    subjectId: Type.String({ description: 'A MemberId, AgentId or TeamId, per `subjectType`.' }),
    containerType: StringEnum(CONTAINER_TYPES, {
      description:
        'Where it applies: the whole org, one team, one project (its tasks and milestones, whichever teams they are in), one program (the program and its projects) or one initiative (it, its sub-initiatives, the programs and projects linked to any of them, and their projects).',
    }),
    containerId: Type.String({
      description: 'The OrgId, TeamId, ProjectId, ProgramId or InitiativeId, per `containerType`.',
    }),
    capability: CapabilitySchema,
    createdAt: Timestamp('When the grant was made.'),
    updatedAt: Timestamp('When the grant last changed.'),
  },
  { $id: 'Grant', additionalProperties: false, description: 'A capability on a container, for a subject.' },
)
export type Grant = Static<typeof Grant>

/** A member or agent in a team: the join record of `teams.members.*`. */
export const TeamMember = Type.Object(
  {
    teamId: IdSchema('TeamId'),
    actorId: ActorIdSchema,
    addedAt: Timestamp('When the actor joined the team.'),
  },
  { $id: 'TeamMember', additionalProperties: false },
)
export type TeamMember = Static<typeof TeamMember>
/** A stored team membership (the org is part of its key). */
export interface TeamMembership {
  orgId: OrgId
  teamId: TeamId
  actorId: string
  createdAt: string
}

export const INVITATION_STATES = ['pending', 'accepted', 'revoked', 'declined', 'expired'] as const
export const Invitation = Type.Object(
  {
    id: IdSchema('InvitationId'),
    orgId: IdSchema('OrgId'),
    email: Type.String({ format: 'email' }),
    role: OrgRole,
    state: StringEnum(INVITATION_STATES),
    invitedBy: IdSchema('MemberId'),
    createdAt: Timestamp('When the invitation was sent.'),
    expiresAt: Timestamp('When the link stops working.'),
    acceptedAt: NullableTimestamp('When it was accepted.'),
    acceptedBy: Nullable(IdSchema('MemberId'), 'The membership it created.'),
    revokedAt: NullableTimestamp('When it was revoked.'),
    declinedAt: NullableTimestamp('When the invited person declined it (`me.invitations.decline`).'),
  },
  { $id: 'Invitation', additionalProperties: false },
)
export type Invitation = Static<typeof Invitation>

export const ApprovalPolicy = Type.Object(
  {
    capabilities: Type.Array(CapabilitySchema, {
      maxItems: 5,
      description: 'Actions needing any of these capabilities wait for a person to approve them.',
    }),
    operations: Type.Array(Type.String({ pattern: '^[a-zA-Z]+\\.[a-zA-Z]+$' }), {
      maxItems: 100,
      description: 'Operation ids (such as `tasks.delete`) that always wait for approval.',
    }),
  },
  { $id: 'ApprovalPolicy', additionalProperties: false },
)
export type ApprovalPolicy = Static<typeof ApprovalPolicy>

export const Agent = Type.Object(
  {
    id: IdSchema('AgentId'),
    orgId: IdSchema('OrgId'),
    kind: StringEnum(['agent'] as const),
    name: Name('The agent name.', 120),
    description: Nullable(Type.String({ maxLength: 2000 }), 'Markdown.'),
    status: StringEnum(['active', 'deactivated'] as const),
    approvalPolicy: ApprovalPolicy,
    createdBy: IdSchema('MemberId'),
    createdAt: Timestamp('When the agent was created.'),
    updatedAt: Timestamp('When the agent last changed.'),
  },
  { $id: 'Agent', additionalProperties: false, description: 'An AI agent: an Actor with its own grants.' },
)
export type Agent = Static<typeof Agent>

export const SESSION_STATES = [
  'pending',
  'active',
  'awaiting_approval',
  'completed',
  'canceled',
  'failed',
] as const
export type SessionState = (typeof SESSION_STATES)[number]
export const AgentSession = Type.Object(
  {
    id: IdSchema('AgentSessionId'),
    orgId: IdSchema('OrgId'),
    agentId: IdSchema('AgentId'),
    taskId: Nullable(IdSchema('TaskId'), 'The task the agent works on, if any.'),
    title: Nullable(Type.String({ maxLength: 500 })),
    externalUrl: Nullable(
      Type.String({ format: 'uri', maxLength: 2000 }),
      'Where the agent shows its own view of the run, set by the driver.',
    ),
    planSummary: Nullable(Type.String({ maxLength: 5000 }), "The agent's current plan, in Markdown."),
    state: StringEnum(SESSION_STATES, { $id: 'SessionState' }),
    startedBy: IdSchema('MemberId'),
    createdAt: Timestamp('When the session was started.'),
    updatedAt: Timestamp('When the session last changed.'),
    endedAt: NullableTimestamp('When it completed, failed or was canceled.'),
  },
  {
    $id: 'AgentSession',
    additionalProperties: false,
    description: 'One run of an agent, with its activity log.',
  },
)
export type AgentSession = Static<typeof AgentSession>

/** What the agent (through its driver) writes to its log. */
export const AGENT_ACTIVITY_KINDS = ['thought', 'action', 'response', 'error'] as const
/** `prompt`: a person's follow-up instruction, or a reviewer's feedback on a proposed action. */
export const ACTIVITY_KINDS = [...AGENT_ACTIVITY_KINDS, 'prompt'] as const
export const AgentActivity = Type.Object(
  {
    id: IdSchema('ActivityId'),
    sessionId: IdSchema('AgentSessionId'),
    seq: Type.Integer({ minimum: 1, description: 'Order within the session, from 1.' }),
    kind: StringEnum(ACTIVITY_KINDS),
    content: Type.String({ maxLength: 20_000, description: 'Markdown.' }),
    data: Nullable(
      Type.Object({}, { additionalProperties: true }),
      'Structured detail, such as an action and its result.',
    ),
    createdAt: Timestamp('When it was written.'),
  },
  { $id: 'AgentActivity', additionalProperties: false },
)
export type AgentActivity = Static<typeof AgentActivity>

export const APPROVAL_STATES = [
  'pending',
  'approved',
  'rejected',
  'changes_requested',
  'canceled',
  'expired',
] as const
export const ApprovalRequest = Type.Object(
  {
    id: IdSchema('ApprovalRequestId'),
    orgId: IdSchema('OrgId'),
    agentId: IdSchema('AgentId'),
    sessionId: IdSchema('AgentSessionId'),
    operationId: Type.String({ description: 'The operation the agent proposes.' }),
    input: Type.Object(
      {
        params: Type.Object({}, { additionalProperties: true }),
        query: Type.Object({}, { additionalProperties: true }),
        body: AnyJson('The request body, or null.'),
      },
      { additionalProperties: false, description: 'The proposed input, exactly as it will run.' },
    ),
    capability: Nullable(CapabilitySchema, 'The capability the action needs.'),
    policyId: Nullable(
      IdSchema('ApprovalPolicyId'),
      "The container's approval policy that held the action; null when the agent's own policy did.",
    ),
    policyVersion: Nullable(
      Type.Integer({ minimum: 1 }),
      'The version of that policy the request was created under; later edits do not change who decides it.',
    ),
    approverCapability: Nullable(
      CapabilitySchema,
      "The capability a decider needs on the action's target, besides the one the action needs.",
    ),
    state: StringEnum(APPROVAL_STATES),
    proposedBy: IdSchema('MemberId'),
    createdAt: Timestamp('When it was proposed.'),
    expiresAt: Timestamp('After this it can no longer be approved.'),
    decidedBy: Nullable(IdSchema('MemberId')),
    decidedAt: NullableTimestamp('When it was approved, rejected, sent back or canceled.'),
    reason: Nullable(
      Type.String({ maxLength: 2000 }),
      'Why it was rejected or canceled, or the feedback it was sent back with.',
    ),
    result: AnyJson('What the approved action returned; null otherwise.'),
  },
  { $id: 'ApprovalRequest', additionalProperties: false },
)
export type ApprovalRequest = Static<typeof ApprovalRequest>

/**
 * An approval gate on a container: actions of agents on records the container holds, matching an
 * operation or a capability, wait for a person holding `approverCapability` on the action's target.
 */
export const ContainerApprovalPolicy = Type.Object(
  {
    id: IdSchema('ApprovalPolicyId'),
    orgId: IdSchema('OrgId'),
    containerType: StringEnum(POLICY_CONTAINER_TYPES, {
      description: 'The container whose records it gates: the org, one team or one project.',
    }),
    containerId: Type.String({ description: 'The OrgId, TeamId or ProjectId, per `containerType`.' }),
    operations: Type.Array(Type.String({ pattern: '^[a-zA-Z]+(\\.[a-zA-Z]+)+$' }), {
      maxItems: 100,
      description: 'Operation ids (such as `tasks.delete`) that wait for approval.',
    }),
    capabilities: Type.Array(CapabilitySchema, {
      maxItems: 5,
      description: 'Actions needing any of these capabilities wait for approval.',
    }),
    agentIds: Type.Array(IdSchema('AgentId'), {
      maxItems: 100,
      description: 'The agents it gates; empty for every agent.',
    }),
    approverCapability: CapabilitySchema,
    version: Type.Integer({ minimum: 1, description: 'Starts at 1; each change adds one.' }),
    createdBy: IdSchema('MemberId'),
    createdAt: Timestamp('When the policy was created.'),
    updatedAt: Timestamp('When it last changed.'),
  },
  {
    $id: 'ContainerApprovalPolicy',
    additionalProperties: false,
    description: 'Which agent actions on the records of a container need approval, and by whom.',
  },
)
export type ContainerApprovalPolicy = Static<typeof ContainerApprovalPolicy>
