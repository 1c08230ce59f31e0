import { Type } from '@sinclair/typebox'
import type { TaskId, TeamId } from '../../kernel/ids.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf } from '../../kernel/resource.ts'
import { batchExamples } from '../examples.ts'
import { TaskCreateBody, TaskUpdateFields } from '../operations.ts'
import { Task } from '../schemas.ts'
import { BATCH_MAX, batchCreateTasks, batchUpdateTasks } from './batch.ts'

/**
 * An item of `tasks.batchCreate`: the fields of `TaskCreate`, the very same schemas, inline. As a
 * `$ref` to a named schema here, Scalar's reference (at `/v1/docs`) refuses the document ("Expected
 * union value" on that schema), although the document is valid OpenAPI 3.1.
 */
const TaskBatchCreateItem = Type.Object(TaskCreateBody.properties, { additionalProperties: false })

const path = '/v1/orgs/{orgId}/tasks'
const params = Type.Object(paramsOf(path), { additionalProperties: false })
const TaskBatch = Type.Object(
  { data: Type.Array(Task, { description: 'The tasks, in the order of the items.' }) },
  { $id: 'TaskBatch', additionalProperties: false },
)
// Each item follows the single operation's rules, so the batch answers with its codes too.
const ITEM_ERRORS = [
  'not_found',
  'reference_not_found',
  'archived',
  'cycle_completed',
  'subtask_depth',
  'label_group_conflict',
] as const
const atomic =
  'All or nothing, in one transaction: when any item is refused nothing changes, and the problem lists every ' +
  'refused item (`errors[].pointer` such as `/body/items/3/stateId`, `failedItems[]` with index and code); its ' +
  'code and status are those of the first refused item. Each item follows the same rules as the single ' +
  'operation and needs `contribute` on its team or task (the capability shown is checked on the first item).'

export const taskBatchCatalogue: AnyOperation[] = [
  declareOperation({
    id: 'tasks.batchCreate',
    method: 'POST',
    path: `${path}/batch-create`,
    tag: 'Tasks',
    scope: 'work:write',
    summary: `Create up to ${BATCH_MAX} tasks`,
    requires: '`contribute` on the team of every item',
    description: `${atomic} Each item is held to the rules of \`tasks.create\` (a start date after the due date, an estimate off the team's scale: 422 \`rule_violated\`).`,
    params,
    body: Type.Object(
      { items: Type.Array(TaskBatchCreateItem, { minItems: 1, maxItems: BATCH_MAX }) },
      { additionalProperties: false },
    ),
    response: TaskBatch,
    status: 201,
    capability: 'contribute',
    target: ({ body }) => ({ type: 'team', id: body.items[0].teamId, pointer: '/body/items/0/teamId' }),
    errors: [...ITEM_ERRORS, 'rule_violated'],
    examples: batchExamples.create,
    run: async (ctx, { body }) => ({
      data: await batchCreateTasks(
        ctx,
        body.items.map((i: { teamId: string }) => ({ ...i, teamId: i.teamId as TeamId })),
      ),
    }),
  }),
  declareOperation({
    id: 'tasks.batchUpdate',
    method: 'POST',
    path: `${path}/batch-update`,
    tag: 'Tasks',
    scope: 'work:write',
    summary: `Update up to ${BATCH_MAX} tasks`,
    requires:
      '`contribute` on every task named, and what the single `tasks.update` needs for the fields changed',
    description: `${atomic} A task appears at most once (else 422 \`rule_violated\`), and each item is held to the rules of \`tasks.update\`.`,
    params,
    body: Type.Object(
      {
        items: Type.Array(
          Type.Object(
            { id: IdSchema('TaskId', 'The task to change.'), ...TaskUpdateFields },
            { additionalProperties: false, minProperties: 2 },
          ),
          { minItems: 1, maxItems: BATCH_MAX },
        ),
      },
      { additionalProperties: false },
    ),
    response: TaskBatch,
    status: 200,
    capability: 'contribute',
    target: ({ body }) => ({ type: 'task', id: body.items[0].id, pointer: '/body/items/0/id' }),
    errors: [...ITEM_ERRORS, 'subtask_cycle', 'rule_violated'],
    examples: batchExamples.update,
    run: async (ctx, { body }) => ({
      data: await batchUpdateTasks(
        ctx,
        body.items.map((i: { id: string }) => ({ ...i, id: i.id as TaskId })),
      ),
    }),
  }),
]
