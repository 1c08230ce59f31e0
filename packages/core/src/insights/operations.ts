import { type TProperties, Type } from '@sinclair/typebox'
import type { CycleId, InitiativeId, ProgramId, ProjectId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf } from '../kernel/resource.ts'
import { insightExamples } from './examples.ts'
import {
  initiativeProgressHistory,
  programProgressHistory,
  projectProgressHistory,
} from './progress-history.ts'
import {
  CycleBurndown,
  InitiativeProgressHistory,
  ProgramProgressHistory,
  ProjectProgressHistory,
  TeamCycleTime,
  TeamThroughput,
  TeamVelocity,
  Workload,
} from './schemas.ts'
import { cycleBurndown, teamCycleTime, teamThroughput, teamVelocity, workload } from './service.ts'

const TAG = 'Insights'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const visibleOnly =
  'Counts only the tasks the caller can view (the permission predicate is part of the query).'
const weeksQuery = obj({
  weeks: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 52,
      default: 12,
      description: 'How many weeks back, this week included.',
    }),
  ),
})

const burnUpRule =
  "Only the project's current tasks count, canceled ones left out: a task counts from the week it joined the " +
  'project (its last move into it, else its creation), started from the week it started (never before it joined) ' +
  'until the week it was completed.'

const read = (op: {
  id: string
  path: string
  /**
   * The tag follows the path: `Insights` holds what is under an `insights` segment; a series read on a
   * record (`…/burndown`, `…/progress/history`) is tagged with that record, beside its other reads.
   */
  tag?: string
  summary: string
  description: string
  query?: ReturnType<typeof obj>
  response: AnyOperation['response']
  example: keyof typeof insightExamples
  run: AnyOperation['run']
}): AnyOperation =>
  declareOperation({
    id: op.id,
    method: 'GET',
    path: op.path,
    tag: op.tag ?? TAG,
    scope: 'work:read',
    summary: op.summary,
    description: `${op.description} ${visibleOnly}`,
    params: obj(paramsOf(op.path)),
    ...(op.query ? { query: op.query } : {}),
    response: op.response,
    status: 200,
    errors: ['not_found'],
    examples: insightExamples[op.example],
    run: op.run,
  })

const teamPath = (name: string) => `/v1/orgs/{orgId}/teams/{teamId}/insights/${name}`

/** Burndown, throughput, cycle time, velocity and workload: docs/insights.md. */
export const insightOperations: AnyOperation[] = [
  read({
    id: 'cycles.burndown',
    tag: 'Cycles',
    path: '/v1/orgs/{orgId}/cycles/{cycleId}/burndown',
    summary: "A cycle's burndown",
    description:
      'Day by day: scope (tasks and estimate points in the cycle), what joined it that day, what is completed and ' +
      'what remains. A cycle of a team the caller cannot view is a 404.',
    response: CycleBurndown,
    example: 'burndown',
    run: (ctx, { params }) => cycleBurndown(ctx, params.cycleId as CycleId),
  }),
  read({
    id: 'projects.progressHistory',
    tag: 'Projects',
    path: '/v1/orgs/{orgId}/projects/{projectId}/progress/history',
    summary: "A project's weekly progress (burn-up)",
    description: `Week by week (weeks start on Monday, UTC; figures at the week's end, this week's now): scope, started and completed tasks and points. ${burnUpRule} A project the caller cannot view is a 404.`,
    query: weeksQuery,
    response: ProjectProgressHistory,
    example: 'projectHistory',
    run: (ctx, { params, query }) => projectProgressHistory(ctx, params.projectId as ProjectId, query),
  }),
  read({
    id: 'programs.progressHistory',
    tag: 'Programs',
    path: '/v1/orgs/{orgId}/programs/{programId}/progress/history',
    summary: "A program's weekly progress, per project",
    description: `The \`projects.progressHistory\` series of each project \`programs.rollup\` counts (visible, unarchived), and their sum. ${burnUpRule}`,
    query: weeksQuery,
    response: ProgramProgressHistory,
    example: 'programHistory',
    run: (ctx, { params, query }) => programProgressHistory(ctx, params.programId as ProgramId, query),
  }),
  read({
    id: 'initiatives.progressHistory',
    tag: 'Initiatives',
    path: '/v1/orgs/{orgId}/initiatives/{initiativeId}/progress/history',
    summary: "An initiative's weekly progress, per project",
    description: `The \`projects.progressHistory\` series of each project \`initiatives.rollup\` counts (visible, unarchived, linked to it or to an unarchived sub-initiative), and their sum. ${burnUpRule}`,
    query: weeksQuery,
    response: InitiativeProgressHistory,
    example: 'initiativeHistory',
    run: (ctx, { params, query }) =>
      initiativeProgressHistory(ctx, params.initiativeId as InitiativeId, query),
  }),
  read({
    id: 'teams.throughput',
    path: teamPath('throughput'),
    summary: "A team's throughput",
    description: 'Tasks created and completed per week (weeks start on Monday, UTC), zeros included.',
    query: weeksQuery,
    response: TeamThroughput,
    example: 'throughput',
    run: (ctx, { params, query }) => teamThroughput(ctx, params.teamId as TeamId, query),
  }),
  read({
    id: 'teams.cycleTime',
    path: teamPath('cycle-time'),
    summary: "A team's cycle time",
    description:
      'For the tasks completed each week: mean, fastest and slowest hours from started to completed, and mean ' +
      'hours from created to completed.',
    query: weeksQuery,
    response: TeamCycleTime,
    example: 'cycleTime',
    run: (ctx, { params, query }) => teamCycleTime(ctx, params.teamId as TeamId, query),
  }),
  read({
    id: 'teams.velocity',
    path: teamPath('velocity'),
    summary: "A team's velocity",
    description:
      'Scope and completed scope of the latest cycles that have started, and the mean completed per completed ' +
      'cycle: what forecasts build on.',
    query: obj({
      cycles: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 24, default: 6, description: 'How many of the latest cycles.' }),
      ),
    }),
    response: TeamVelocity,
    example: 'velocity',
    run: (ctx, { params, query }) => teamVelocity(ctx, params.teamId as TeamId, query),
  }),
  read({
    id: 'insights.workload',
    path: '/v1/orgs/{orgId}/insights/workload',
    summary: 'Open work per assignee',
    description:
      'Open tasks, estimate points, started, overdue and unestimated tasks per assignee (null: unassigned), ' +
      'across the workspace or one team or project.',
    query: obj({
      teamId: Type.Optional(IdSchema('TeamId')),
      projectId: Type.Optional(IdSchema('ProjectId')),
    }),
    response: Workload,
    example: 'workload',
    run: (ctx, { query }) => workload(ctx, query),
  }),
]
