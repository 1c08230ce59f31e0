import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { declareOperation } from '../../kernel/operation.ts'
import { withBodyCursor } from '../../kernel/pagination.ts'
import { hubExamples } from '../examples.ts'
import { ACROSS, TAG } from '../operation-parts.ts'
import { hubTasksOperation } from '../work-operations.ts'
import { HubTaskFilterSchema } from './filter.ts'
import { type HubTasksQuery, hubTasks } from './tasks.ts'

/**
 * `hub.tasks.query`: `hub.tasks` with its query as a JSON body, plus a composed filter whose people
 * and labels are named the way every workspace understands (docs/api-conventions.md, "Reads by POST").
 */
export const hubTasksQueryOperation = declareOperation({
  id: 'hub.tasks.query',
  method: 'POST',
  reads: true,
  path: '/v1/hub/tasks/query',
  tag: TAG,
  scope: 'work:read',
  summary: 'Query my tasks in all workspaces with a composed filter',
  description:
    'The tasks of `hub.tasks` that match `filter`, a task filter for every workspace (docs/filters.md, "Across workspaces"): ' +
    'state category, priority, estimate, dates (relative too, `P7D`), full-text `search`, `blocked`, combined with `and`, `or` and `not`, ' +
    'with people by email (`assigneeEmail`, `creatorEmail`) and labels by name (`labelNames`), resolved in each workspace to its members and the labels you may view there; ' +
    'a name nobody has in a workspace matches nothing there. Every parameter of `hub.tasks` is a body field with its own meaning (`relation`, `any` for every task you may view; `status`, `sort`, `orgId`, `cursor`, `limit`), all combined with AND. ' +
    'In each workspace the filter and the permission check are one query, so pages are exact. A read: it changes nothing and takes no `Idempotency-Key`. ' +
    `Refused: a filter past the bounds of \`tasks.query\` (422 \`rule_violated\` at its pointer). ${ACROSS}`,
  body: Type.Object(
    {
      filter: Type.Optional(HubTaskFilterSchema),
      ...(hubTasksOperation.query as TObject).properties,
    },
    {
      $id: 'HubTaskQuery',
      additionalProperties: false,
      description:
        'The query parameters of `hub.tasks`, with their types, plus `filter`; everything combines with AND.',
    },
  ),
  response: hubTasksOperation.response as TSchema,
  status: 200,
  errors: ['invalid_cursor', 'rule_violated'],
  examples: hubExamples.tasksQuery,
  run: (ctx, { body }) => withBodyCursor(() => hubTasks(ctx, body as HubTasksQuery)),
})
