import { type Static, Type } from '@sinclair/typebox'
import { CommentBody, Emoji } from '../comments/schemas.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { UPDATE_HEALTH_VALUES } from '../projects/schemas.ts'
import { LinkUrl } from '../tasks/relations/schemas.ts'
import { DueDate, Estimate, PrioritySchema } from '../tasks/schemas.ts'
import { Color, StateCategorySchema, TeamKey } from '../teams/schemas.ts'
import { NAME_KINDS } from './refs.ts'

/** The most steps one plan may hold: enough to reorganise a backlog, small enough for one transaction. */
export const PLAN_MAX_STEPS = 250

export const PLAN_ACTIONS = [
  'create_task',
  'update_task',
  'move_task',
  'assign_task',
  'archive_task',
  'restore_task',
  'create_team',
  'create_state',
  'label_task',
  'unlabel_task',
  'link_tasks',
  'unlink_tasks',
  'set_parent',
  'comment',
  'create_cycle',
  'add_to_cycle',
  'remove_from_cycle',
  'create_label',
  'update_label',
  'archive_label',
  'subscribe',
  'add_link',
  'react',
  'resolve_comment',
  'create_project',
  'create_milestone',
  'add_to_project',
  'post_update',
] as const
export type PlanAction = (typeof PLAN_ACTIONS)[number]

/** How `link_tasks`/`unlink_tasks` join `task` and `other`: `task` blocks `other`, and so on. */
export const PLAN_LINKS = ['blocks', 'blocked_by', 'related', 'duplicate_of'] as const
export type PlanLink = (typeof PLAN_LINKS)[number]

/** What a plan step reports having changed or created. */
export const PLAN_RECORD_TYPES = [
  'task',
  'team',
  'state',
  'label',
  'cycle',
  'comment',
  'project',
  'milestone',
  'update',
] as const

const Ref = (description: string) => Type.String({ minLength: 1, maxLength: 320, description })

/**
 * One step of a plan. A flat object (no `anyOf`, which some hosts reject): `action` says which
 * fields apply, and the service checks the ones each action needs.
 */
export const PlanStep = Type.Object(
  {
    action: StringEnum(PLAN_ACTIONS, { description: 'What this step does.' }),
    handle: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$',
        description: 'Names what this step creates; later steps refer to it as `$handle`.',
      }),
    ),
    task: Type.Optional(Ref('A task key (`ENG-42`), id, or `$handle` of a task created earlier.')),
    team: Type.Optional(Ref('A team key (`ENG`), name, id, or `$handle`.')),
    state: Type.Optional(Ref("A workflow state name (or id) of the task's team.")),
    assignee: Type.Optional(
      Nullable(Ref('A person: email, name, `me`, or member id; null unassigns.'), 'null unassigns.'),
    ),
    title: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Task title, or the title of an `add_link` URL.',
      }),
    ),
    description: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }), 'Markdown.')),
    priority: Type.Optional(PrioritySchema),
    estimate: Type.Optional(Nullable(Estimate)),
    dueDate: Type.Optional(Nullable(DueDate)),
    parent: Type.Optional(
      Nullable(
        Ref('The parent task (key, id or `$handle`); null makes the task top-level.'),
        'null makes the task top-level.',
      ),
    ),
    cycle: Type.Optional(
      Ref(
        "A cycle of the task's team: number (`3`, `Cycle 3`), name, `current`, `next`, `previous`, id or `$handle`.",
      ),
    ),
    label: Type.Optional(
      Ref('A label name (`Bug`, `Size/Large`), id, or `$handle` of a label created earlier.'),
    ),
    link: Type.Optional(
      StringEnum(PLAN_LINKS, {
        description: '`task` blocks / is blocked by / is related to / duplicates `other`.',
      }),
    ),
    other: Type.Optional(Ref('The other task of a link: key, id or `$handle`.')),
    body: Type.Optional(CommentBody),
    startsAt: Type.Optional(Type.String({ format: 'date-time', description: 'Cycle start (inclusive).' })),
    endsAt: Type.Optional(Type.String({ format: 'date-time', description: 'Cycle end (exclusive).' })),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 120,
        description:
          'Team, state, label, cycle, project or milestone name; for `update_label`, the new name.',
      }),
    ),
    key: Type.Optional(TeamKey),
    category: Type.Optional(StateCategorySchema),
    color: Type.Optional(Color),
    person: Type.Optional(Ref('Who `subscribe` subscribes: email, name, `me`, or member id.')),
    url: Type.Optional(LinkUrl),
    emoji: Type.Optional(Emoji),
    comment: Type.Optional(
      Type.String({ minLength: 1, maxLength: 60, description: "A comment id (from a task's comments)." }),
    ),
    project: Type.Optional(Ref('A project name, id, or `$handle` of a project created earlier.')),
    milestone: Type.Optional(
      Ref("A milestone of the step's project: name, id, or `$handle` of a milestone created earlier."),
    ),
    health: Type.Optional(
      StringEnum(UPDATE_HEALTH_VALUES, { description: 'The health `post_update` reports.' }),
    ),
    targetDate: Type.Optional(Type.String({ format: 'date', description: 'Milestone target date.' })),
  },
  { $id: 'PlanStep', additionalProperties: false },
)
export type PlanStep = Static<typeof PlanStep>

export const PlanRequest = Type.Object(
  {
    steps: Type.Array(PlanStep, { minItems: 1, maxItems: PLAN_MAX_STEPS }),
    dryRun: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Run every step, report, then roll everything back: the report of a real run, nothing changed.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const PlanStepResult = Type.Object(
  {
    step: Type.Integer({ minimum: 0 }),
    action: StringEnum(PLAN_ACTIONS),
    handle: Nullable(Type.String()),
    type: StringEnum(PLAN_RECORD_TYPES),
    id: Type.String({
      description: 'The record changed or created (in a dry run: the id it would have had).',
    }),
    key: Nullable(Type.String({ description: 'Task or team key; for a comment, its task key.' })),
    name: Type.String({
      description:
        "Task title; team, state, label, cycle, project or milestone name; a comment's task title; an update's project name.",
    }),
    changed: Type.Array(Type.String(), { description: 'Fields the step changed.' }),
  },
  { $id: 'PlanStepResult', additionalProperties: false },
)
export type PlanStepResult = Static<typeof PlanStepResult>

export const PlanReport = Type.Object(
  {
    dryRun: Type.Boolean(),
    steps: Type.Array(PlanStepResult),
  },
  { $id: 'PlanReport', additionalProperties: false },
)
export type PlanReport = Static<typeof PlanReport>

export const ResolvedName = Type.Object(
  {
    kind: StringEnum(NAME_KINDS),
    id: Type.String(),
    label: Type.String({ description: 'What a person reads: `ENG-42 Fix login`.' }),
  },
  { $id: 'ResolvedName', additionalProperties: false },
)
