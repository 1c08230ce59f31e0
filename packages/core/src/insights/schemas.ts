import { type Static, type TProperties, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, Timestamp } from '../kernel/schema-types.ts'

const Count = (description: string) => Type.Integer({ minimum: 0, description })
const Points = (description: string) => Type.Number({ minimum: 0, description })
const Day = Type.String({ format: 'date', description: 'A UTC day, `YYYY-MM-DD`.' })
const Hours = (description: string) => Nullable(Type.Number({ minimum: 0 }), description)
const obj = <T extends TProperties>(props: T, $id: string, description: string) =>
  Type.Object(props, { $id, additionalProperties: false, description })

export const BurndownDay = obj(
  {
    date: Day,
    scopeCount: Count('Tasks in the cycle at the end of the day.'),
    scopePoints: Points('Their estimates, summed (unestimated tasks count 0).'),
    addedCount: Count(
      'Tasks that joined the cycle that day (on its first day: also every task added before it).',
    ),
    addedPoints: Points('Their estimates.'),
    completedCount: Count('Tasks of the cycle completed by the end of the day.'),
    completedPoints: Points('Their estimates.'),
    remainingCount: Count('`scopeCount - completedCount`: the burndown line.'),
    remainingPoints: Points('`scopePoints - completedPoints`.'),
  },
  'BurndownDay',
  'One day of a cycle.',
)

export const CycleBurndown = obj(
  {
    cycleId: IdSchema('CycleId'),
    teamId: IdSchema('TeamId'),
    startsAt: Timestamp('The cycle start.'),
    endsAt: Timestamp('The cycle end (exclusive).'),
    days: Type.Array(BurndownDay, {
      description:
        'From the first day of the cycle to its last, or to today while it runs; none before it starts.',
    }),
  },
  'CycleBurndown',
  "A cycle's scope and completion day by day, over the tasks the reader can see.",
)
export type CycleBurndown = Static<typeof CycleBurndown>

const WeekStart = Type.String({ format: 'date', description: 'The Monday (UTC) that starts the week.' })

export const ThroughputWeek = obj(
  {
    weekStart: WeekStart,
    createdCount: Count('Tasks created in the team that week.'),
    completedCount: Count('Tasks completed that week.'),
    completedPoints: Points('Their estimates.'),
  },
  'ThroughputWeek',
  "One week of a team's flow.",
)

export const TeamThroughput = obj(
  {
    teamId: IdSchema('TeamId'),
    weeks: Type.Array(ThroughputWeek, { description: 'Oldest first, every week present (zeros included).' }),
  },
  'TeamThroughput',
  'Tasks created and completed per week.',
)
export type TeamThroughput = Static<typeof TeamThroughput>

export const CycleTimeWeek = obj(
  {
    weekStart: WeekStart,
    completedCount: Count(
      'Started tasks completed that week (tasks completed without being started are left out).',
    ),
    averageHours: Hours('Mean hours from started to completed; null for an empty week.'),
    minHours: Hours('The fastest.'),
    maxHours: Hours('The slowest.'),
    averageLeadHours: Hours('Mean hours from created to completed.'),
  },
  'CycleTimeWeek',
  'Cycle time of the tasks completed in one week.',
)

export const TeamCycleTime = obj(
  {
    teamId: IdSchema('TeamId'),
    weeks: Type.Array(CycleTimeWeek, { description: 'Oldest first, every week present.' }),
  },
  'TeamCycleTime',
  'How long work takes from start to finish, by week of completion.',
)
export type TeamCycleTime = Static<typeof TeamCycleTime>

export const VelocityCycle = obj(
  {
    cycleId: IdSchema('CycleId'),
    number: Type.Integer({ minimum: 1 }),
    name: Nullable(Type.String(), 'The cycle name.'),
    startsAt: Timestamp('The cycle start.'),
    endsAt: Timestamp('The cycle end.'),
    completedAt: NullableTimestamp('When the cycle was completed.'),
    scopeCount: Count('Tasks in the cycle now (unfinished ones leave when it completes).'),
    scopePoints: Points('Their estimates.'),
    completedCount: Count('Tasks of the cycle that are completed.'),
    completedPoints: Points('Their estimates: the velocity.'),
  },
  'VelocityCycle',
  'What one cycle held and completed.',
)

export const TeamVelocity = obj(
  {
    teamId: IdSchema('TeamId'),
    cycles: Type.Array(VelocityCycle, { description: 'The latest cycles that have started, newest first.' }),
    averageCompletedPoints: Nullable(
      Type.Number({ minimum: 0 }),
      'Mean `completedPoints` of the completed cycles listed: the basis of forecasts; null without any.',
    ),
    averageCompletedCount: Nullable(Type.Number({ minimum: 0 }), 'Mean `completedCount` of the same cycles.'),
  },
  'TeamVelocity',
  'Completed scope per cycle.',
)
export type TeamVelocity = Static<typeof TeamVelocity>

export const WorkloadRow = obj(
  {
    assigneeId: Nullable(ActorIdSchema, 'The assignee; null for unassigned work.'),
    openCount: Count('Open tasks (not completed, canceled, archived or deleted).'),
    openPoints: Points('Their estimates.'),
    startedCount: Count('Open tasks already started.'),
    overdueCount: Count('Open tasks past their due date.'),
    unestimatedCount: Count('Open tasks without an estimate.'),
  },
  'WorkloadRow',
  "One assignee's open work.",
)

export const Workload = obj(
  {
    asOf: Timestamp('When it was computed.'),
    assignees: Type.Array(WorkloadRow, {
      description: 'Most open tasks first, then by assignee id, unassigned work last among ties.',
    }),
  },
  'Workload',
  'Open work per assignee, over the tasks the reader can see.',
)
export type Workload = Static<typeof Workload>

export const ProgressWeek = obj(
  {
    weekStart: WeekStart,
    scopeCount: Count(
      'Tasks in scope at the end of the week (this week: now): current, uncanceled tasks that had joined by then.',
    ),
    scopePoints: Points('Their estimates, summed (unestimated tasks count 0).'),
    startedCount: Count('Of those, started and not yet completed by then.'),
    startedPoints: Points('Their estimates.'),
    completedCount: Count('Of those, completed by then.'),
    completedPoints: Points('Their estimates.'),
  },
  'ProgressWeek',
  'One week of a burn-up.',
)
const Weeks = Type.Array(ProgressWeek, { description: 'Oldest first, every week present, this week last.' })

export const ProjectProgressHistory = obj(
  { projectId: IdSchema('ProjectId'), weeks: Weeks },
  'ProjectProgressHistory',
  "A project's scope, started and completed work week by week, over the tasks the reader can see.",
)
export type ProjectProgressHistory = Static<typeof ProjectProgressHistory>

const Series = Type.Array(ProjectProgressHistory, {
  description: 'One series per project the reader can see, by project id.',
})

export const ProgramProgressHistory = obj(
  { programId: IdSchema('ProgramId'), total: Weeks, projects: Series },
  'ProgramProgressHistory',
  "A program's burn-up: one series per visible, unarchived project, and their total.",
)
export type ProgramProgressHistory = Static<typeof ProgramProgressHistory>

export const InitiativeProgressHistory = obj(
  { initiativeId: IdSchema('InitiativeId'), total: Weeks, projects: Series },
  'InitiativeProgressHistory',
  "An initiative's burn-up over the projects its rollup counts: one series per project, and their total.",
)
export type InitiativeProgressHistory = Static<typeof InitiativeProgressHistory>
