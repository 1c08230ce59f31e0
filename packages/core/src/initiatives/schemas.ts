import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { ProjectDate, UPDATE_HEALTH_VALUES } from '../projects/schemas.ts'
import { progressFields } from '../tasks/progress.ts'
import { InitiativeMetric } from './metric/schemas.ts'

export const INITIATIVE_STATUSES = ['planned', 'active', 'completed', 'canceled'] as const
export type InitiativeStatus = (typeof INITIATIVE_STATUSES)[number]
export const InitiativeStatusSchema = StringEnum(INITIATIVE_STATUSES, {
  $id: 'InitiativeStatus',
  description:
    '`planned`, `active`, `completed` or `canceled`; any status may follow any other (reopening clears ' +
    '`completedAt`/`canceledAt`).',
})

/** Levels of initiatives, a top-level one being level 1 (as Linear's "up to five levels deep"). */
export const MAX_INITIATIVE_DEPTH = 5

const Health = StringEnum(UPDATE_HEALTH_VALUES)

export const Initiative = Type.Object(
  {
    id: IdSchema('InitiativeId'),
    orgId: IdSchema('OrgId'),
    name: Name('The initiative name.', 200),
    description: Nullable(Type.String({ maxLength: 100_000 }), 'Markdown.'),
    ownerId: Nullable(IdSchema('MemberId'), 'The member who owns the initiative.'),
    status: InitiativeStatusSchema,
    labelIds: Type.Array(IdSchema('LabelId'), {
      description: 'Org labels on the initiative, in the order they were added (`initiatives.labels.add`).',
    }),
    targetDate: Nullable(ProjectDate, 'When the initiative should be reached.'),
    parentId: Nullable(
      IdSchema('InitiativeId'),
      `The initiative it is a sub-initiative of; null at the top level. At most ${MAX_INITIATIVE_DEPTH} levels, no cycle.`,
    ),
    health: Nullable(
      Health,
      'The health of the latest unarchived status update on the initiative; null without one. Computed, never set.',
    ),
    lastUpdateAt: NullableTimestamp('When the latest unarchived status update was posted.'),
    creatorId: ActorIdSchema,
    createdAt: Timestamp('When the initiative was created.'),
    updatedAt: Timestamp('When the initiative last changed.'),
    startedAt: NullableTimestamp('When the initiative first became `active` (or `completed`); kept after.'),
    completedAt: NullableTimestamp('When it became `completed`; cleared when it leaves that status.'),
    canceledAt: NullableTimestamp('When it became `canceled`; cleared when it leaves that status.'),
    archivedAt: NullableTimestamp('When the initiative was archived.'),
    metric: Type.Optional(
      Nullable(
        InitiativeMetric,
        'Its key metric (`initiatives.metric.set`); only `initiatives.get` carries it.',
      ),
    ),
  },
  { $id: 'Initiative', additionalProperties: false },
)
export type Initiative = Static<typeof Initiative>

export const InitiativeProject = Type.Object(
  {
    initiativeId: IdSchema('InitiativeId'),
    projectId: IdSchema('ProjectId'),
    position: Type.Integer({ minimum: 0, description: 'Order among the initiative’s projects, from 0.' }),
    addedAt: Timestamp('When the project was linked.'),
    name: Type.String({ description: 'The project’s name.' }),
    health: Nullable(Health, 'The project’s reported health.'),
  },
  {
    $id: 'InitiativeProject',
    additionalProperties: false,
    description: 'A project linked to an initiative (`projects.get` has the rest of it).',
  },
)
export type InitiativeProject = Static<typeof InitiativeProject>

export const InitiativeMember = Type.Object(
  {
    initiativeId: IdSchema('InitiativeId'),
    memberId: IdSchema('MemberId'),
    addedAt: Timestamp('When the member was added.'),
  },
  { $id: 'InitiativeMember', additionalProperties: false },
)
export type InitiativeMember = Static<typeof InitiativeMember>

export const HealthReason = Type.Object(
  {
    type: StringEnum(['initiative', 'program', 'project'] as const, { description: 'What the record is.' }),
    id: Type.String({ description: 'Its id.' }),
    name: Type.String({ description: 'Its name.' }),
    health: Health,
  },
  {
    $id: 'HealthReason',
    additionalProperties: false,
    description: 'A visible record whose reported health is at risk or off track.',
  },
)
export type HealthReason = Static<typeof HealthReason>

export const ComputedHealth = Type.Object(
  {
    value: Nullable(
      Health,
      'The worst reported health among the initiative itself, its open sub-initiatives, their open programs and ' +
        'their open projects, direct or through those programs (visible to the reader); null when none of them has ' +
        'an update.',
    ),
    summary: Type.String({ description: 'The reasons in a sentence, e.g. `2 projects at risk: A, B`.' }),
    reasons: Type.Array(HealthReason, {
      description: 'The records that are at risk or off track, worst first.',
    }),
  },
  { $id: 'ComputedHealth', additionalProperties: false },
)
export type ComputedHealth = Static<typeof ComputedHealth>

export const InitiativeRollup = Type.Object(
  {
    initiativeId: IdSchema('InitiativeId'),
    projects: Type.Integer({
      minimum: 0,
      description:
        'Distinct visible projects linked to it or to one of its visible sub-initiatives, directly or through a visible linked program.',
    }),
    subInitiatives: Type.Integer({ minimum: 0, description: 'Visible sub-initiatives at any depth.' }),
    ...progressFields('projects of the initiative and its sub-initiatives (each project once)'),
    progress: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "The initiative's progress: its metric's `progress` when the metric's `progressSource` is `manual`, else " +
        '`completedRatio`.',
    }),
    progressSource: StringEnum(['metric', 'projects'] as const, {
      description: 'Where `progress` comes from.',
    }),
    computedHealth: ComputedHealth,
  },
  {
    $id: 'InitiativeRollup',
    additionalProperties: false,
    description: 'Progress and health rolled up over what the reader can see, and nothing else.',
  },
)
export type InitiativeRollup = Static<typeof InitiativeRollup>

export const InitiativeTreeNode = Type.Object(
  {
    id: IdSchema('InitiativeId'),
    parentId: Nullable(IdSchema('InitiativeId'), 'Its parent; null for a root of the answer.'),
    depth: Type.Integer({ minimum: 0, description: 'Levels below the root of the answer (0 for a root).' }),
    name: Type.String(),
    status: InitiativeStatusSchema,
    health: Nullable(Health, 'Reported health.'),
    computedHealth: Nullable(Health, 'As `initiatives.rollup` computes it.'),
    completedRatio: Type.Number({ minimum: 0, maximum: 1, description: 'As `initiatives.rollup`.' }),
    projects: Type.Integer({ minimum: 0, description: 'As `initiatives.rollup`.' }),
  },
  { $id: 'InitiativeTreeNode', additionalProperties: false },
)
export type InitiativeTreeNode = Static<typeof InitiativeTreeNode>

/** The most initiatives one tree read answers: a depth-first prefix, so every node's parent is in it. */
export const INITIATIVE_TREE_MAX = 2000

export const InitiativeTree = Type.Object(
  {
    data: Type.Array(InitiativeTreeNode, {
      maxItems: INITIATIVE_TREE_MAX,
      description: `Depth first: each initiative followed by its sub-initiatives, by creation then id; the first ${INITIATIVE_TREE_MAX} when there are more.`,
    }),
  },
  { $id: 'InitiativeTree', additionalProperties: false },
)
export type InitiativeTree = Static<typeof InitiativeTree>
