import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { WEEKDAYS } from '../cycles/schemas.ts'
import { CustomFieldValues } from '../fields/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { progressFields } from '../tasks/progress.ts'
import { PrioritySchema } from '../tasks/schemas.ts'
import { Color } from '../teams/schemas.ts'

export const PROJECT_STATUS_CATEGORIES = [
  'backlog',
  'planned',
  'started',
  'paused',
  'completed',
  'canceled',
] as const
export type ProjectStatusCategory = (typeof PROJECT_STATUS_CATEGORIES)[number]
export const ProjectStatusCategorySchema = StringEnum(PROJECT_STATUS_CATEGORIES, {
  $id: 'ProjectStatusCategory',
  description: 'What a project status means, whatever the org calls it.',
})

export const ProjectStatusName = Name('The status name, unique (ignoring case) among the org’s statuses.', 60)

export const ProjectStatus = Type.Object(
  {
    id: IdSchema('ProjectStatusId'),
    orgId: IdSchema('OrgId'),
    name: ProjectStatusName,
    category: ProjectStatusCategorySchema,
    color: Color,
    description: Nullable(Type.String({ maxLength: 2000 }), 'Markdown.'),
    position: Type.Integer({
      minimum: 0,
      description: 'Order among the org’s statuses, from 0; change it with `projectStatuses.move`.',
    }),
    createdAt: Timestamp('When the status was created.'),
    updatedAt: Timestamp('When the status last changed.'),
    archivedAt: NullableTimestamp('When the status was archived; projects cannot move into it.'),
  },
  { $id: 'ProjectStatus', additionalProperties: false },
)
export type ProjectStatus = Static<typeof ProjectStatus>

export const ProjectDate = Type.String({ format: 'date', description: 'A calendar date, `YYYY-MM-DD`.' })

export const UPDATE_CADENCES = ['orgDefault', 'none', 'weekly', 'biweekly'] as const
export type UpdateCadence = (typeof UPDATE_CADENCES)[number]
export const UpdateCadenceSchema = StringEnum(UPDATE_CADENCES, {
  $id: 'UpdateCadence',
  description:
    "How often a status update is expected: as the org's default for projects (`updateSettings.get`: its weeks, " +
    'weekday and hour), never, every week, or every two weeks on `updateWeekday`.',
})
export const WeekdaySchema = StringEnum(WEEKDAYS, {
  $id: 'Weekday',
  description: 'The day of the week (UTC) updates are due on when `updateCadence` is `weekly` or `biweekly`.',
})
export const UPDATE_HEALTH_VALUES = ['onTrack', 'atRisk', 'offTrack'] as const

export const Project = Type.Object(
  {
    id: IdSchema('ProjectId'),
    orgId: IdSchema('OrgId'),
    name: Name('The project name.', 200),
    description: Nullable(Type.String({ maxLength: 100_000 }), 'Markdown.'),
    icon: Nullable(Type.String({ minLength: 1, maxLength: 64 }), 'An emoji or an icon name.'),
    color: Color,
    statusId: IdSchema('ProjectStatusId'),
    statusCategory: ProjectStatusCategorySchema,
    leadId: Nullable(IdSchema('MemberId'), 'The member who leads the project.'),
    teamIds: Type.Array(IdSchema('TeamId'), {
      description:
        'The teams the project spans that the reader can view, in the order they were added (empty for a reader who sees the project only through a grant on it).',
    }),
    labelIds: Type.Array(IdSchema('LabelId'), {
      description: 'Org labels on the project, in the order they were added (`projects.labels.add`).',
    }),
    fields: CustomFieldValues,
    priority: PrioritySchema,
    startDate: Nullable(ProjectDate, 'Planned start; on or before `targetDate` when both are set.'),
    targetDate: Nullable(ProjectDate, 'Planned end; on or after `startDate` when both are set.'),
    creatorId: ActorIdSchema,
    createdAt: Timestamp('When the project was created.'),
    updatedAt: Timestamp('When the project last changed.'),
    startedAt: NullableTimestamp('When the project first entered a `started` status.'),
    completedAt: NullableTimestamp(
      'When the project entered a `completed` status; cleared when it leaves it.',
    ),
    canceledAt: NullableTimestamp('When the project entered a `canceled` status; cleared when it leaves it.'),
    archivedAt: NullableTimestamp('When the project was archived.'),
    convertedFromTaskId: Nullable(
      IdSchema('TaskId'),
      'The task this project was converted from (`tasks.convertToProject`); null otherwise.',
    ),
    health: Nullable(
      StringEnum(UPDATE_HEALTH_VALUES),
      'The health of the latest unarchived status update; null without one. Computed, never set.',
    ),
    lastUpdateAt: NullableTimestamp('When the latest unarchived status update was posted.'),
    blocked: Type.Boolean({
      description: 'Whether an open blocker exists: `openBlockers` is above 0. Computed.',
    }),
    openBlockers: Type.Integer({
      minimum: 0,
      description:
        '`blocks` relations onto the project or its milestones whose blocker is open: an unarchived project not ' +
        'completed or canceled, and, for a milestone blocker, one that is not done. Blockers the caller cannot view ' +
        'are counted too, never named. Computed.',
    }),
    updateCadence: UpdateCadenceSchema,
    updateWeekday: WeekdaySchema,
    nextUpdateDueAt: NullableTimestamp(
      'When the next status update is due: 00:00 UTC of the day for its own cadence, the hour of the org default ' +
        'for `orgDefault`; null when no update is expected (the cadence, or the org default, is off) or the project ' +
        'is archived, completed or canceled. Computed.',
    ),
    updateDue: Type.Boolean({
      description: 'Whether a status update is due: `nextUpdateDueAt` is today or past. Computed.',
    }),
  },
  { $id: 'Project', additionalProperties: false },
)
export type Project = Static<typeof Project>

/** A team a project spans: the join record of `projects.teams.*`. */
export const ProjectTeam = Type.Object(
  {
    projectId: IdSchema('ProjectId'),
    teamId: IdSchema('TeamId'),
    addedAt: Timestamp(
      'When the team was added to the project (its first team: when the project was created).',
    ),
  },
  { $id: 'ProjectTeam', additionalProperties: false },
)
export type ProjectTeam = Static<typeof ProjectTeam>

export const ProjectMember = Type.Object(
  {
    projectId: IdSchema('ProjectId'),
    memberId: IdSchema('MemberId'),
    addedAt: Timestamp('When the member was added (a lead is added when made lead).'),
  },
  {
    $id: 'ProjectMember',
    additionalProperties: false,
    description: 'A member working on a project: the join record of `projects.members.*`.',
  },
)
export type ProjectMember = Static<typeof ProjectMember>

export const MILESTONE_STATUSES = ['unstarted', 'next', 'overdue', 'done'] as const
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number]

export const Milestone = Type.Object(
  {
    id: IdSchema('MilestoneId'),
    orgId: IdSchema('OrgId'),
    projectId: IdSchema('ProjectId'),
    name: Name('The milestone name, unique (ignoring case) within its project.', 200),
    description: Nullable(Type.String({ maxLength: 10_000 }), 'Markdown.'),
    targetDate: Nullable(ProjectDate, 'When the milestone should be reached.'),
    position: Type.Integer({ minimum: 0, description: 'Order within the project, from 0.' }),
    status: StringEnum(MILESTONE_STATUSES, {
      description:
        'Derived from the tasks the caller may view and the date: `done` when it has tasks and all are completed ' +
        'or canceled; `overdue` when not done and `targetDate` is before today (UTC); `next` for the first other ' +
        'milestone in order; `unstarted` for the rest.',
    }),
    progress: Type.Object(progressFields('milestone'), {
      additionalProperties: false,
      description:
        'Its tasks by state category, over the tasks the caller may view (archived ones left out).',
    }),
    createdAt: Timestamp('When the milestone was created.'),
    updatedAt: Timestamp('When the milestone last changed.'),
  },
  { $id: 'Milestone', additionalProperties: false },
)
export type Milestone = Static<typeof Milestone>

export const ProjectProgress = Type.Object(
  { projectId: IdSchema('ProjectId'), ...progressFields('project') },
  { $id: 'ProjectProgress', additionalProperties: false },
)
export type ProjectProgress = Static<typeof ProjectProgress>

/** How names compare for uniqueness: NFC, lowercased. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}
