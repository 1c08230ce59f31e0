import { type TProperties, Type } from '@sinclair/typebox'
import type { CycleId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf } from '../kernel/resource.ts'
import { insightExamples } from './examples.ts'
import { CycleBurndown, TeamCycleTime, TeamThroughput, TeamVelocity, Workload } from './schemas.ts'
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

const read = (op: {
  id: string
  path: string
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
    tag: TAG,
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
