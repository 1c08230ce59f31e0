import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../../access/schemas.ts'
import {
  type ChangedValues,
  changesOfFields,
  discriminatedUnion,
  sameChange,
  variantSuffix,
} from '../../kernel/history-entry.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { Nullable, Timestamp } from '../../kernel/schema-types.ts'
import { InitiativeMetric } from '../metric/schemas.ts'
import { Initiative } from '../schemas.ts'

const i = Initiative.properties

/**
 * The fields an `updated` entry records, with their values before and after: the schema of its
 * `changes` and the type `recordHistory` accepts both come from here.
 */
export const INITIATIVE_HISTORY_FIELDS = {
  name: sameChange(i.name, 'The name changed.'),
  description: sameChange(i.description, 'The description changed (Markdown, or null).'),
  ownerId: sameChange(i.ownerId, 'The owner changed (null: none).'),
  status: sameChange(i.status, 'The status changed.'),
  targetDate: sameChange(i.targetDate, 'The target date changed (null: none).'),
  parentId: sameChange(i.parentId, 'It moved under another initiative (null: to the top level).'),
  startedAt: sameChange(i.startedAt, 'Set when it first became `active` (or `completed`).'),
  completedAt: sameChange(i.completedAt, 'Set or cleared as it entered or left `completed`.'),
  canceledAt: sameChange(i.canceledAt, 'Set or cleared as it entered or left `canceled`.'),
  labelIds: sameChange(i.labelIds, 'The label set changed: the whole set before and after.'),
} as const
type Fields = typeof INITIATIVE_HISTORY_FIELDS

/** The `changes` of an `updated` entry: only the fields, and the value types, the map describes. */
export type InitiativeFieldChanges = {
  [K in keyof Fields]?: { before: Static<Fields[K]['before']>; after: Static<Fields[K]['after']> }
}

const UpdatedChanges = Type.Unsafe<InitiativeFieldChanges>(
  Type.Object(
    Object.fromEntries(
      Object.entries(INITIATIVE_HISTORY_FIELDS).map(([field, c]) => [
        field,
        Type.Optional(
          Type.Object(
            { before: c.before, after: c.after },
            { additionalProperties: false, description: c.description },
          ),
        ),
      ]),
    ),
    {
      additionalProperties: false,
      minProperties: 1,
      description: 'Each changed field, with its value before and after.',
    },
  ),
)

/** The metric as the history keeps it: as defined, without the computed `progress`. */
export const InitiativeMetricState = Type.Omit(InitiativeMetric, ['progress'], {
  $id: 'InitiativeMetricState',
  additionalProperties: false,
  description: 'An initiative’s metric as its history records it (`InitiativeMetric` without `progress`).',
})

// `{}` as a type would take any object: `Record<string, never>` takes only an empty one.
const NoChanges = Type.Unsafe<Record<string, never>>(
  Type.Object({}, { additionalProperties: false, description: 'Nothing more.' }),
)
const ProjectChange = Type.Object({ projectId: IdSchema('ProjectId') }, { additionalProperties: false })
const ProgramChange = Type.Object({ programId: IdSchema('ProgramId') }, { additionalProperties: false })
const MemberChange = Type.Object({ memberId: IdSchema('MemberId') }, { additionalProperties: false })
const Metric = Nullable(InitiativeMetricState, 'The metric (null: none).')
const MetricChange = <B extends TSchema, A extends TSchema>(before: B, after: A, description: string) =>
  Type.Object(
    { metric: Type.Object({ before, after }, { additionalProperties: false }) },
    { additionalProperties: false, description },
  )

/** The `changes` of each action: the schema of its branch and the type its writers must record. */
export const INITIATIVE_HISTORY_ACTIONS = {
  created: { changes: NoChanges, description: 'The initiative was created.' },
  updated: { changes: UpdatedChanges, description: 'Fields changed (labels included).' },
  archived: { changes: NoChanges, description: 'It was archived.' },
  restored: { changes: NoChanges, description: 'It was restored from the archive.' },
  project_added: { changes: ProjectChange, description: 'A project was linked.' },
  project_removed: { changes: ProjectChange, description: 'A project was unlinked.' },
  project_updated: {
    changes: Type.Object(
      {
        projectId: IdSchema('ProjectId'),
        index: Type.Object(
          {
            before: Type.Integer({ minimum: 0, description: 'Its place before, from 0.' }),
            after: Type.Integer({ minimum: 0, description: 'Its place after, from 0.' }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    description: 'A linked project moved in the order (its index among the projects the mover could view).',
  },
  program_added: { changes: ProgramChange, description: 'A program was linked.' },
  program_removed: { changes: ProgramChange, description: 'A program was unlinked.' },
  member_added: { changes: MemberChange, description: 'A member was added.' },
  member_removed: { changes: MemberChange, description: 'A member was removed.' },
  metric_set: {
    changes: MetricChange(Metric, InitiativeMetricState, 'The metric as it was (null: none) and as set.'),
    description: 'The metric was set.',
  },
  metric_deleted: {
    changes: MetricChange(InitiativeMetricState, Type.Null(), 'The metric as it was; `after` is null.'),
    description: 'The metric was deleted.',
  },
} as const satisfies Record<string, { changes: TSchema; description: string }>
type Actions = typeof INITIATIVE_HISTORY_ACTIONS

/** What `recordHistory` records: an action with the `changes` its branch describes, nothing else. */
export type InitiativeHistoryChange = {
  [A in keyof Actions]: { action: A; changes: Static<Actions[A]['changes']> }
}[keyof Actions]

const envelope = {
  id: IdSchema('InitiativeHistoryId'),
  initiativeId: IdSchema('InitiativeId'),
  actorId: ActorIdSchema,
}
const createdAt = Timestamp('When it happened.')

const variants: Record<string, TSchema> = Object.fromEntries(
  Object.entries(INITIATIVE_HISTORY_ACTIONS).map(([action, branch]) => [
    action,
    Type.Object(
      {
        ...envelope,
        action: Type.Literal(action, { description: 'What happened.' }),
        changes: branch.changes,
        createdAt,
      },
      {
        $id: `InitiativeHistoryEntry${variantSuffix(action)}`,
        additionalProperties: false,
        description: `A \`${action}\` entry: ${branch.description}`,
      },
    ),
  ]),
)

/** One recorded change of an initiative, discriminated by `action`. */
export const InitiativeHistoryEntry = Type.Unsafe<
  Static<TObject<typeof envelope>> & InitiativeHistoryChange & { createdAt: string }
>(
  discriminatedUnion(
    'InitiativeHistoryEntry',
    'action',
    variants,
    'One recorded change of an initiative. Branch on `action`: each action’s `changes` has its own schema.',
  ),
)
export type InitiativeHistoryEntry = Static<typeof InitiativeHistoryEntry>

/**
 * The `changes` of an update, one per changed field, `before` read from the initiative as it was
 * (null when unset): the compiler checks both against `INITIATIVE_HISTORY_FIELDS`.
 */
export function initiativeFieldChanges<C extends ChangedValues<Fields, C>>(
  before: { [K in keyof C & keyof Fields]: Static<Fields[K]['before']> },
  changed: C,
): InitiativeFieldChanges {
  return Object.fromEntries(
    changesOfFields(INITIATIVE_HISTORY_FIELDS, before, changed).map((c) => [
      c.field,
      { before: c.before, after: c.after },
    ]),
  ) as InitiativeFieldChanges
}
