import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../../kernel/ids.ts'
import { Name, Nullable, StringEnum, Timestamp } from '../../kernel/schema-types.ts'
import { StateCategorySchema } from '../../teams/schemas.ts'

/** A plan day: a calendar date in the person's own reckoning. */
export const PlanDate = Type.String({
  format: 'date',
  pattern: '^(?!0000)\\d{4}-\\d{2}-\\d{2}$',
  description: 'A calendar date, `YYYY-MM-DD`: the day of the plan, as the person counts days.',
})

const LocalTime = Type.String({
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
  description: 'A local time of day, `HH:MM` (24-hour).',
})

export const TimeBlock = Type.Object(
  { start: LocalTime, end: LocalTime },
  {
    $id: 'PlanTimeBlock',
    additionalProperties: false,
    description: 'When in the day the item is scheduled, in local time; `start` before `end`.',
  },
)

export const PLAN_TEXT_MAX = 500
/** The most suggestions one read answers (`limit`'s maximum). */
export const PLAN_SUGGESTIONS_MAX = 100
export const PlanText = Type.String({
  minLength: 1,
  maxLength: PLAN_TEXT_MAX,
  description: `A free-text item (at most ${PLAN_TEXT_MAX} characters).`,
})
export const EstimateMinutes = Type.Integer({
  minimum: 1,
  maximum: 1440,
  description: 'How long the person expects the item to take, in minutes.',
})

export const SUGGESTION_REASONS = ['overdue', 'dueToday', 'unblocked', 'currentCycle', 'dueSoon'] as const
export type SuggestionReason = (typeof SUGGESTION_REASONS)[number]
export const SuggestionReasonSchema = StringEnum(SUGGESTION_REASONS, {
  $id: 'PlanSuggestionReason',
  description:
    'Why a task is suggested, strongest first: `overdue` (due before the day), `dueToday`, `unblocked` (its last open blocker was completed in the week before the day), `currentCycle` (in a cycle that runs on the day), `dueSoon` (due within three days after it).',
})
export const PLAN_SOURCES = ['manual', ...SUGGESTION_REASONS.map((r) => `suggested:${r}` as const)] as const
export type PlanSource = (typeof PLAN_SOURCES)[number]
export const PlanSourceSchema = StringEnum(PLAN_SOURCES, {
  $id: 'PlanItemSource',
  description: 'How the item came to the plan: added by hand, or taken from a suggestion of that reason.',
})

export const VisiblePlanTask = Type.Object(
  {
    hidden: Type.Literal(false),
    orgId: IdSchema('OrgId'),
    orgName: Name('The workspace name.', 120),
    id: IdSchema('TaskId'),
    key: Type.String({ description: 'The task key, `ENG-42`.' }),
    title: Name('The task title.', 500),
    stateCategory: StateCategorySchema,
    dueDate: Nullable(Type.String({ format: 'date' }), 'The due date; null for none.'),
  },
  {
    $id: 'PlanTask',
    additionalProperties: false,
    description: 'The task of a plan item, as the person may see it now.',
  },
)
export type VisiblePlanTask = Static<typeof VisiblePlanTask>

export const HIDDEN_REASONS = ['no_access', 'membership_ended'] as const
export const HiddenPlanTask = Type.Object(
  {
    hidden: Type.Literal(true),
    reason: StringEnum(HIDDEN_REASONS, {
      description:
        '`membership_ended`: the person is no longer an active member of the workspace; `no_access`: the task was deleted or the person can no longer view it (the two are not told apart, so a plan never reveals what became of a task out of reach).',
    }),
  },
  {
    $id: 'HiddenPlanTask',
    additionalProperties: false,
    description: 'A task the person can no longer view: nothing of it is shown, not even its workspace.',
  },
)

export const PlanItem = Type.Object(
  {
    id: IdSchema('PlanItemId'),
    date: PlanDate,
    position: Type.Integer({
      minimum: 0,
      description: 'Rank within the day, from 0; change it with `me.dailyPlan.items.move`.',
    }),
    kind: StringEnum(['task', 'text'] as const, { description: 'A task of a workspace, or free text.' }),
    text: Nullable(PlanText, 'The text of a text item; null for a task item.'),
    task: Type.Union([VisiblePlanTask, HiddenPlanTask, Type.Null()], {
      description: 'The task of a task item, or `{hidden: true}` once out of reach; null for a text item.',
    }),
    timeBlock: Nullable(TimeBlock, 'When in the day; null for unscheduled.'),
    estimateMinutes: Nullable(EstimateMinutes, 'Expected minutes; null for none.'),
    source: PlanSourceSchema,
    carriedFrom: Nullable(PlanDate, 'The day the item was last carried over from; null if never carried.'),
    carryCount: Type.Integer({
      minimum: 0,
      description: 'How many times the item was carried to a later day.',
    }),
    doneAt: Nullable(Timestamp('When the item was done.'), 'When the item was done; null while open.'),
    doneBy: Nullable(
      StringEnum(['me', 'system:taskCompleted'] as const, {
        description:
          '`me`: completed on the plan; `system:taskCompleted`: its task was completed (anywhere).',
      }),
      'Who closed the item; null while open.',
    ),
    createdAt: Timestamp('When the item was added.'),
    updatedAt: Timestamp('When the item last changed.'),
  },
  {
    $id: 'PlanItem',
    additionalProperties: false,
    description:
      'One entry of a personal daily plan: a task of any of the person’s workspaces, or free text. Task items show the task only while the person may view it.',
  },
)
export type PlanItem = Static<typeof PlanItem>

export const PlanDay = Type.Object(
  {
    date: PlanDate,
    items: Type.Array(PlanItem, { description: 'The items in their order.' }),
  },
  { $id: 'PlanDay', additionalProperties: false, description: 'A day of the personal plan.' },
)

export const PlanTaskRef = Type.Object(
  {
    orgId: IdSchema('OrgId'),
    id: Type.Optional(IdSchema('TaskId')),
    key: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z][A-Za-z0-9]{0,6}-[1-9][0-9]{0,9}$',
        description: 'The task key, `ENG-42` (case-insensitive; a former key still resolves).',
      }),
    ),
  },
  {
    $id: 'PlanTaskRef',
    additionalProperties: false,
    description: 'A task of one of the caller’s workspaces, by `id` or by `key` (exactly one).',
  },
)

export const PlanSuggestion = Type.Object(
  {
    reason: SuggestionReasonSchema,
    task: VisiblePlanTask,
  },
  { $id: 'PlanSuggestion', additionalProperties: false, description: 'A task worth planning for the day.' },
)

export const PartialOrg = Type.Object(
  {
    orgId: IdSchema('OrgId'),
    code: Type.String({ description: 'The problem code of the failure.' }),
  },
  { additionalProperties: false, description: 'A workspace whose part of the answer failed.' },
)

export const PlanSuggestions = Type.Object(
  {
    date: PlanDate,
    data: Type.Array(PlanSuggestion, {
      maxItems: PLAN_SUGGESTIONS_MAX,
      description: 'Strongest reason first, then earliest due date, then workspace and key.',
    }),
    partial: Type.Array(PartialOrg, {
      description: 'Workspaces that could not be read; the others are answered all the same.',
    }),
  },
  {
    $id: 'PlanSuggestions',
    additionalProperties: false,
    description: 'Open tasks assigned to the person in any workspace, not yet on the day.',
  },
)
