import { type Static, Type } from '@sinclair/typebox'
import { ORG_ROLES } from '../kernel/capabilities.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'

export const Slug = Type.String({
  pattern: '^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$',
  description: 'Lowercase letters, digits and inner hyphens; unique across the service.',
})

export const Org = Type.Object(
  {
    id: IdSchema('OrgId'),
    name: Name('The workspace name.', 120),
    slug: Slug,
    createdAt: Timestamp('When the workspace was created.'),
    updatedAt: Timestamp('When the workspace last changed.'),
    archivedAt: NullableTimestamp('When the workspace was archived; archived workspaces are read-only.'),
  },
  { $id: 'Org', additionalProperties: false, description: 'A workspace: the tenant boundary.' },
)
export type Org = Static<typeof Org>

export const OrgRole = StringEnum(ORG_ROLES, {
  $id: 'OrgRole',
  description:
    'owner and admin manage the workspace; member works in all of it; guest sees only what grants give them.',
})

export const Member = Type.Object(
  {
    id: IdSchema('MemberId'),
    orgId: IdSchema('OrgId'),
    userId: IdSchema('UserId'),
    kind: StringEnum(['person'] as const, {
      description: 'Actors are people; agents arrive with the agents feature.',
    }),
    name: Name('Display name.'),
    email: Type.String({ format: 'email' }),
    role: OrgRole,
    status: StringEnum(['active', 'deactivated', 'removed'] as const, {
      description:
        'Deactivated members keep their history and can be reactivated; removed ones are gone from the org.',
    }),
    createdAt: Timestamp('When the person joined the workspace.'),
    updatedAt: Timestamp('When the membership last changed.'),
    away: Type.Optional(
      Type.Object(
        {
          until: Type.String({
            format: 'date',
            description: 'The last day of the away period, in the person’s own calendar.',
          }),
        },
        {
          additionalProperties: false,
          description:
            'Shown by `members.get` and `members.list` while the person is away today (`me.away.*`); their note stays private.',
        },
      ),
    ),
  },
  { $id: 'Member', additionalProperties: false, description: 'A person in a workspace (an Actor).' },
)
export type Member = Static<typeof Member>
