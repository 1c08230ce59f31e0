import { Type } from '@sinclair/typebox'
import type { CycleId, LabelId, MemberId, StateId, TaskId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { Nullable, PageOf } from '../kernel/schema-types.ts'
import { PrioritySchema, Task } from '../tasks/schemas.ts'
import { triageExamples } from './examples.ts'
import { TriageItem } from './schemas.ts'
import { acceptTriage, declineTriage, fileTriageRequest, listTriage, snoozeTriage } from './service.ts'

const queuePath = '/v1/orgs/{orgId}/teams/{teamId}/triage'
const itemPath = '/v1/orgs/{orgId}/tasks/{taskId}/triage'
const obj = <T extends Parameters<typeof Type.Object>[0]>(props: T) =>
  Type.Object(props, { additionalProperties: false })
const teamParams = obj(paramsOf(queuePath))
const taskParams = obj(paramsOf('/v1/orgs/{orgId}/tasks/{taskId}'))
const taskTarget = ({ params }: { params: { taskId: string } }) => ({
  type: 'task' as const,
  id: params.taskId,
})
const tid = (p: { taskId: string }) => p.taskId as TaskId

/** One triage decision on a task: POST …/tasks/{taskId}/triage/{action}. */
function decision(
  action: string,
  fields: {
    id: string
    summary: string
    description: string
    body: ReturnType<typeof obj>
    response?: typeof Task | typeof TriageItem
    errors?: string[]
    examples: { request: unknown; response: unknown }
    run: AnyOperation['run']
  },
): AnyOperation {
  return declareOperation({
    id: fields.id,
    method: 'POST',
    path: `${itemPath}/${action}`,
    tag: 'Triage',
    scope: 'work:write',
    summary: fields.summary,
    description: `${fields.description} Needs \`contribute\` on the task; a task not in triage answers 409 \`not_in_triage\`.`,
    params: taskParams,
    body: fields.body,
    response: fields.response ?? Task,
    status: 200,
    capability: 'contribute',
    target: taskTarget,
    errors: ['not_found', 'not_in_triage', ...(fields.errors ?? [])] as never,
    examples: fields.examples,
    run: fields.run,
  })
}

export const triageOperations: AnyOperation[] = [
  declareOperation({
    id: 'triage.list',
    method: 'GET',
    path: queuePath,
    tag: 'Triage',
    scope: 'work:read',
    summary: "A team's triage queue",
    description:
      'Tasks in a triage state of the team, not archived, oldest first. Snoozed items are left out until their snooze ends, unless `includeSnoozed=true`.',
    params: teamParams,
    query: obj({
      includeSnoozed: Type.Optional(
        Type.Boolean({ default: false, description: 'Also items still snoozed.' }),
      ),
      ...PageQuery,
    }),
    response: PageOf(TriageItem, 'TriageItem'),
    status: 200,
    errors: ['not_found'],
    examples: triageExamples.list,
    run: (ctx, { params, query }) => listTriage(ctx, params.teamId as TeamId, query),
  }),
  declareOperation({
    id: 'triage.create',
    method: 'POST',
    path: queuePath,
    tag: 'Triage',
    scope: 'work:write',
    summary: 'File a request into triage',
    description:
      "Creates a task in the team's triage state, the caller as its requester (`creatorId`). Needs only `comment` on the team, so people outside it " +
      '(guests with a comment grant) can ask; the team must have triage on (409 `triage_disabled`). State, assignee and the rest are decided when it is accepted.',
    params: teamParams,
    body: obj({
      title: Type.String({ minLength: 1, maxLength: 500 }),
      description: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }), 'Markdown.')),
      priority: Type.Optional(PrioritySchema),
    }),
    response: Task,
    status: 201,
    capability: 'comment',
    target: ({ params }) => ({ type: 'team', id: params.teamId as string }),
    errors: ['not_found', 'archived', 'triage_disabled'],
    location: 'tasks.get',
    examples: triageExamples.create,
    run: (ctx, { params, body }) => fileTriageRequest(ctx, params.teamId as TeamId, body as never),
  }),
  decision('accept', {
    id: 'triage.accept',
    summary: 'Accept a triage item',
    description:
      "Moves the task into `stateId` (the team's default state when left out; a triage state is 422 `rule_violated`), optionally assigning it (needs `assign`), " +
      'adding labels and planning it in a cycle. The requester gets a `triaged` notification.',
    body: obj({
      stateId: Type.Optional(IdSchema('StateId')),
      assigneeId: Type.Optional(Nullable(IdSchema('MemberId'))),
      labelIds: Type.Optional(
        Type.Array(IdSchema('LabelId'), {
          maxItems: 50,
          uniqueItems: true,
          description: 'Added to its labels.',
        }),
      ),
      cycleId: Type.Optional(Nullable(IdSchema('CycleId'))),
    }),
    errors: ['reference_not_found', 'cycle_completed', 'label_group_conflict', 'rule_violated'],
    examples: triageExamples.accept,
    run: (ctx, { params, body }) =>
      acceptTriage(
        ctx,
        tid(params),
        body as {
          stateId?: StateId
          assigneeId?: MemberId | null
          labelIds?: LabelId[]
          cycleId?: CycleId | null
        },
      ),
  }),
  decision('decline', {
    id: 'triage.decline',
    summary: 'Decline a triage item',
    description:
      "Moves the task to the team's first canceled state (409 `conflict` without one). The requester gets a `triaged` notification with the reason.",
    body: obj({
      reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why; shown to the requester.' }),
    }),
    errors: ['conflict'],
    examples: triageExamples.decline,
    run: (ctx, { params, body }) => declineTriage(ctx, tid(params), (body as { reason: string }).reason),
  }),
  decision('snooze', {
    id: 'triage.snooze',
    summary: 'Snooze a triage item',
    description:
      '`triage.list` leaves the item out until `until`, which must be in the future (else 422 `rule_violated`); snoozing again replaces it.',
    body: obj({ until: Type.String({ format: 'date-time' }) }),
    response: TriageItem,
    errors: ['rule_violated'],
    examples: triageExamples.snooze,
    run: (ctx, { params, body }) => snoozeTriage(ctx, tid(params), (body as { until: string }).until),
  }),
]
