import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { AnyJson, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'

export const INVITATION_POLICIES = ['anyone', 'verified_domains'] as const
export type InvitationPolicy = (typeof INVITATION_POLICIES)[number]
export const InvitationPolicySchema = StringEnum(INVITATION_POLICIES, {
  $id: 'InvitationPolicy',
  description:
    'Who may be invited: `anyone` (any address), or `verified_domains` (only addresses on a verified domain ' +
    'of the workspace; `invitations.create` refuses others with `domain_not_allowed`).',
})

export const OrgSettings = Type.Object(
  {
    orgId: IdSchema('OrgId'),
    defaultTeamId: Nullable(
      IdSchema('TeamId'),
      'The team clients preselect for new work and new people (an active team), or null.',
    ),
    invitationPolicy: InvitationPolicySchema,
    updatedAt: NullableTimestamp(
      'When an admin last changed the settings; null while they are the defaults.',
    ),
  },
  { $id: 'OrgSettings', additionalProperties: false, description: "A workspace's administrative settings." },
)
export type OrgSettings = Static<typeof OrgSettings>

export const DomainName = Type.String({
  minLength: 4,
  maxLength: 253,
  pattern: '^([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
  description: 'A DNS name such as `example.com` (no scheme, no trailing dot), stored in lowercase.',
})

export const Domain = Type.Object(
  {
    id: IdSchema('DomainId'),
    orgId: IdSchema('OrgId'),
    domain: DomainName,
    status: StringEnum(['pending', 'verified'] as const, {
      description: '`verified` once the TXT record was found; it stays verified until the domain is deleted.',
    }),
    txtRecord: Type.Object(
      {
        name: Type.String({
          description: 'Where to publish the record: `_workgraph-verification.<domain>`.',
        }),
        type: Type.Literal('TXT'),
        value: Type.String({
          description: 'The exact text to publish, unique to this workspace and domain.',
        }),
      },
      { additionalProperties: false, description: 'The DNS TXT record that proves control of the domain.' },
    ),
    lastCheckedAt: NullableTimestamp('When `domains.verify` last looked the record up.'),
    lastCheckError: Nullable(
      Type.String(),
      'Why the last check failed (record missing, other value, lookup error); null after success.',
    ),
    verifiedAt: NullableTimestamp('When the record was first found.'),
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the domain was added.'),
  },
  {
    $id: 'Domain',
    additionalProperties: false,
    description: 'An email domain of the workspace, verified by a DNS TXT record.',
  },
)
export type Domain = Static<typeof Domain>

export const AuditEntry = Type.Object(
  {
    id: IdSchema('EventId'),
    seq: Type.Integer({ minimum: 1, description: "The event's place in the workspace's log." }),
    kind: Type.String({ description: 'The event kind, e.g. `member.updated` (a role change).' }),
    category: StringEnum(
      [
        'org',
        'settings',
        'domains',
        'members',
        'invitations',
        'grants',
        'teams',
        'agents',
        'connectors',
        'transfers',
      ] as const,
      { $id: 'AuditCategory', description: 'What the change was about.' },
    ),
    actorId: Nullable(ActorIdSchema, 'Who made the change; null for the engine itself.'),
    resourceType: Type.String(),
    resourceId: Type.String(),
    data: AnyJson('The event payload: the record after the change and, for updates, the changed fields.'),
    createdAt: Timestamp('When the change was committed.'),
  },
  {
    $id: 'AuditEntry',
    additionalProperties: false,
    description: 'One administrative change, read from the workspace event log.',
  },
)
export type AuditEntry = Static<typeof AuditEntry>
export type AuditCategory = AuditEntry['category']
