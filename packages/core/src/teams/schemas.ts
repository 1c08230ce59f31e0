import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'

/**
 * The most workflow states a team holds, archived ones included: `states.list` answers them all
 * (no pages), so its schema states this bound.
 */
export const TEAM_STATES_MAX = 100

export const TeamKey = Type.String({
  pattern: '^[A-Z][A-Z0-9]{0,6}$',
  description:
    "Prefix of the team's task keys (`ENG` in `ENG-42`): 1 to 7 uppercase letters or digits, starting with a letter.",
  examples: ['ENG'],
})

export const Team = Type.Object(
  {
    id: IdSchema('TeamId'),
    orgId: IdSchema('OrgId'),
    name: Name('The team name.', 120),
    key: TeamKey,
    description: Nullable(Type.String({ maxLength: 10_000 }), 'Markdown.'),
    createdAt: Timestamp('When the team was created.'),
    updatedAt: Timestamp('When the team last changed.'),
    archivedAt: NullableTimestamp('When the team was archived.'),
  },
  { $id: 'Team', additionalProperties: false },
)
export type Team = Static<typeof Team>

export const STATE_CATEGORIES = [
  'triage',
  'backlog',
  'unstarted',
  'started',
  'completed',
  'canceled',
] as const
export type StateCategory = (typeof STATE_CATEGORIES)[number]
export const StateCategorySchema = StringEnum(STATE_CATEGORIES, {
  $id: 'StateCategory',
  description: 'What a workflow state means, whatever the team calls it.',
})

export const Color = Type.String({
  pattern: '^#[0-9a-fA-F]{6}$',
  description: 'A hex colour such as `#5e6ad2`.',
})

export const WorkflowState = Type.Object(
  {
    id: IdSchema('StateId'),
    orgId: IdSchema('OrgId'),
    teamId: IdSchema('TeamId'),
    name: Name('The state name, unique within the team.', 60),
    category: StateCategorySchema,
    color: Color,
    description: Nullable(Type.String({ maxLength: 2000 }), 'Markdown.'),
    position: Type.Integer({
      minimum: 0,
      description: 'Order within the team, from 0; change it with `states.move`.',
    }),
    createdAt: Timestamp('When the state was created.'),
    updatedAt: Timestamp('When the state last changed.'),
    archivedAt: NullableTimestamp('When the state was archived.'),
  },
  { $id: 'WorkflowState', additionalProperties: false },
)
export type WorkflowState = Static<typeof WorkflowState>
