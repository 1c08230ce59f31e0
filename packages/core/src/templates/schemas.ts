import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { WEEKDAYS } from '../cycles/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { Estimate, PrioritySchema } from '../tasks/schemas.ts'

export const TEMPLATE_KINDS = ['task', 'project'] as const
export type TemplateKind = (typeof TEMPLATE_KINDS)[number]
export const TemplateKindSchema = StringEnum(TEMPLATE_KINDS, {
  $id: 'TemplateKind',
  description: '`task`: one task; `project`: a project with its milestones and tasks.',
})

/** How far from the day a template is applied a date falls, in days (0 is that day). */
const Offset = (description: string) => Nullable(Type.Integer({ minimum: 0, maximum: 3650 }), description)
const Description = Nullable(Type.String({ maxLength: 20_000 }), 'Markdown; null for none.')

export const TaskSkeleton = Type.Object(
  {
    title: Name('The title of the task it creates.', 255),
    description: Description,
    priority: PrioritySchema,
    estimate: Nullable(Estimate),
    labelIds: Type.Array(IdSchema('LabelId'), {
      maxItems: 20,
      uniqueItems: true,
      description: 'Labels of the template’s team (or workspace labels) put on the task.',
    }),
    dueOffsetDays: Offset('The task is due this many days after the day the template is applied.'),
  },
  { $id: 'TaskSkeleton', additionalProperties: false, description: 'What a task template creates.' },
)
export type TaskSkeleton = Static<typeof TaskSkeleton>

export const MilestoneSkeleton = Type.Object(
  {
    name: Name('The milestone’s name, unique within the template.'),
    description: Nullable(Type.String({ maxLength: 10_000 }), 'Markdown; null for none.'),
    targetOffsetDays: Offset('Its target date, in days after the project’s start.'),
  },
  { $id: 'MilestoneSkeleton', additionalProperties: false },
)

export const ProjectTaskSkeleton = Type.Object(
  {
    title: Name('The title of the task.', 255),
    description: Description,
    priority: PrioritySchema,
    milestone: Nullable(
      Type.Integer({ minimum: 0, maximum: 49 }),
      'The index (from 0) in `milestones` of the milestone the task belongs to; null for none.',
    ),
    dueOffsetDays: Offset('Due this many days after the project’s start.'),
  },
  { $id: 'ProjectTaskSkeleton', additionalProperties: false },
)

export const ProjectSkeleton = Type.Object(
  {
    name: Name('The name of the project it creates.'),
    description: Description,
    durationDays: Offset('The project’s target date, in days after its start.'),
    milestones: Type.Array(MilestoneSkeleton, { maxItems: 50 }),
    tasks: Type.Array(ProjectTaskSkeleton, { maxItems: 200 }),
  },
  {
    $id: 'ProjectSkeleton',
    additionalProperties: false,
    description: 'What a project template creates: the project, its milestones and tasks, dates as offsets.',
  },
)
export type ProjectSkeleton = Static<typeof ProjectSkeleton>

export const Template = Type.Object(
  {
    id: IdSchema('TemplateId'),
    orgId: IdSchema('OrgId'),
    teamId: IdSchema('TeamId'),
    kind: TemplateKindSchema,
    name: Name('The template’s name, shown when choosing one.'),
    description: Description,
    task: Nullable(TaskSkeleton, 'For a `task` template: the task it creates; null otherwise.'),
    project: Nullable(ProjectSkeleton, 'For a `project` template: what it creates; null otherwise.'),
    creatorId: ActorIdSchema,
    createdAt: Timestamp('When the template was created.'),
    updatedAt: Timestamp('When it last changed.'),
  },
  {
    $id: 'Template',
    additionalProperties: false,
    description: 'A task or project skeleton of a team, applied to create work with dates shifted.',
  },
)
export type Template = Static<typeof Template>

export const TemplateApplication = Type.Object(
  {
    templateId: IdSchema('TemplateId'),
    kind: TemplateKindSchema,
    projectId: Nullable(IdSchema('ProjectId'), 'The project created (a `project` template).'),
    milestoneIds: Type.Array(IdSchema('MilestoneId'), { description: 'The milestones created, in order.' }),
    taskIds: Type.Array(IdSchema('TaskId'), { description: 'The tasks created, in order.' }),
  },
  {
    $id: 'TemplateApplication',
    additionalProperties: false,
    description: 'What applying a template created.',
  },
)
export type TemplateApplication = Static<typeof TemplateApplication>

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const

export const Schedule = Type.Object(
  {
    frequency: StringEnum(FREQUENCIES, {
      description: '`daily`, `weekly` (on `weekdays`) or `monthly` (on `monthDay`).',
    }),
    interval: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 52,
        description:
          'Every N days, weeks or months, counted from `startDate` (default 1; always set in answers).',
      }),
    ),
    weekdays: Type.Optional(
      Type.Array(StringEnum(WEEKDAYS), {
        minItems: 1,
        maxItems: 7,
        uniqueItems: true,
        description: 'Weekly: the days of the week (required).',
      }),
    ),
    monthDay: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 31,
        description: 'Monthly: the day of the month (required); past a short month’s end, its last day.',
      }),
    ),
  },
  {
    $id: 'Schedule',
    additionalProperties: false,
    description: 'When occurrences fall, as UTC calendar dates.',
  },
)
export type Schedule = Static<typeof Schedule>

export const Recurrence = Type.Object(
  {
    id: IdSchema('RecurrenceId'),
    orgId: IdSchema('OrgId'),
    teamId: IdSchema('TeamId'),
    templateId: IdSchema('TemplateId'),
    name: Name('What the recurring work is called.'),
    schedule: Schedule,
    startDate: Type.String({ format: 'date', description: 'The first day an occurrence may fall on.' }),
    nextOccurrence: Nullable(
      Type.String({ format: 'date' }),
      'The next date a task will be created on; null while paused.',
    ),
    lastOccurrence: Nullable(Type.String({ format: 'date' }), 'The latest date a task was created for.'),
    pausedAt: NullableTimestamp('When it was paused; null while active.'),
    creatorId: ActorIdSchema,
    createdAt: Timestamp('When it was created.'),
    updatedAt: Timestamp('When it last changed.'),
  },
  {
    $id: 'Recurrence',
    additionalProperties: false,
    description:
      'Recurring work: on each occurrence the scheduler creates a task from a task template in the team, once.',
  },
)
export type Recurrence = Static<typeof Recurrence>

export const Occurrence = Type.Object(
  {
    recurrenceId: IdSchema('RecurrenceId'),
    date: Type.String({ format: 'date', description: 'The occurrence’s date.' }),
    taskId: Nullable(IdSchema('TaskId'), 'The task created; null once that task was deleted.'),
    createdAt: Timestamp('When the scheduler created it.'),
  },
  { $id: 'Occurrence', additionalProperties: false, description: 'One date of a recurrence and its task.' },
)
export type Occurrence = Static<typeof Occurrence>

export const Reminder = Type.Object(
  {
    id: IdSchema('ReminderId'),
    taskId: IdSchema('TaskId'),
    memberId: IdSchema('MemberId'),
    remindAt: Timestamp('When to be reminded.'),
    note: Nullable(Type.String({ maxLength: 200 }), 'Shown in the notification.'),
    deliveredAt: NullableTimestamp('When the notification was delivered; null while pending.'),
    createdAt: Timestamp('When it was set.'),
  },
  {
    $id: 'Reminder',
    additionalProperties: false,
    description: 'A person’s reminder on a task, delivered as a `reminder` notification at `remindAt`.',
  },
)
export type Reminder = Static<typeof Reminder>
