import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { CustomFieldValues } from '../fields/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { StateCategorySchema } from '../teams/schemas.ts'

export const PRIORITIES = ['none', 'urgent', 'high', 'medium', 'low'] as const
export type Priority = (typeof PRIORITIES)[number]
export const PrioritySchema = StringEnum(PRIORITIES, { $id: 'Priority' })

export const Estimate = Type.Number({
  minimum: 0,
  maximum: 1000,
  description: 'Points, hours or whatever the team uses.',
})
export const DueDate = Type.String({ format: 'date', description: 'A calendar date, `YYYY-MM-DD`.' })

export const StartDate = Type.String({
  format: 'date',
  description: 'A calendar date, `YYYY-MM-DD`; on or before `dueDate` when both are set.',
})

export const Task = Type.Object(
  {
    id: IdSchema('TaskId'),
    orgId: IdSchema('OrgId'),
    teamId: IdSchema('TeamId'),
    key: Type.String({
      pattern: '^[A-Z][A-Z0-9]{0,6}-[1-9][0-9]*$',
      description: 'The human key, such as `ENG-42`.',
    }),
    number: Type.Integer({ minimum: 1 }),
    title: Name('The task title.', 500),
    description: Nullable(Type.String({ maxLength: 100_000 }), 'Markdown.'),
    stateId: IdSchema('StateId'),
    stateCategory: StateCategorySchema,
    assigneeId: Nullable(IdSchema('MemberId')),
    creatorId: ActorIdSchema,
    priority: PrioritySchema,
    estimate: Nullable(Estimate),
    dueDate: Nullable(DueDate),
    startDate: Nullable(StartDate),
    parentId: Nullable(IdSchema('TaskId'), 'The parent task, for a subtask; null for a top-level task.'),
    isBlocked: Type.Boolean({
      description:
        'Whether an open task the caller may view (not archived, its state not completed or canceled) blocks this one.',
    }),
    createdAt: Timestamp('When the task was created.'),
    updatedAt: Timestamp('When the task last changed.'),
    startedAt: NullableTimestamp('When the task first entered a started state.'),
    completedAt: NullableTimestamp('When the task entered a completed state; cleared when it leaves it.'),
    canceledAt: NullableTimestamp('When the task entered a canceled state; cleared when it leaves it.'),
    archivedAt: NullableTimestamp('When the task was archived.'),
    cycleId: Nullable(IdSchema('CycleId'), 'The team cycle the task is planned in.'),
    projectId: Nullable(IdSchema('ProjectId'), 'The project the task belongs to.'),
    milestoneId: Nullable(IdSchema('MilestoneId'), 'A milestone of its project.'),
    labelIds: Type.Array(IdSchema('LabelId'), {
      description: 'The labels on the task, in the order they were added.',
    }),
    fields: CustomFieldValues,
  },
  { $id: 'Task', additionalProperties: false },
)
export type Task = Static<typeof Task>
