import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { exampleId as id } from '../kernel/examples.ts'
import type { TaskId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation, type OperationContext } from '../kernel/operation.ts'
import { PAGE_LIMIT_MAX, withBodyCursor } from '../kernel/pagination.ts'
import { otherTaskExample, taskExample } from './examples.ts'
import { type TaskFilterInput, TaskFilterSchema } from './filter/schema.ts'
import type { ListTasksQuery } from './search/search.ts'
import { listTasks } from './service.ts'

/**
 * `tasks.query`: `tasks.list` with its query sent as a JSON body, plus the composed `filter`. A read
 * by POST because a filter of `or`, `not` and lists does not fit a URL (docs/api-conventions.md).
 */
export function taskQueryOperation(list: AnyOperation): AnyOperation {
  const listQuery = (list.query as TObject).properties
  const body = Type.Object(
    {
      filter: Type.Optional(TaskFilterSchema),
      ...listQuery,
    },
    {
      $id: 'TaskQuery',
      additionalProperties: false,
      description:
        'The query parameters of `tasks.list`, with their types, plus `filter`; everything combines with AND.',
    },
  )
  return declareOperation({
    id: 'tasks.query',
    method: 'POST',
    reads: true,
    path: '/v1/orgs/{orgId}/tasks/query',
    tag: 'Tasks',
    scope: 'work:read',
    summary: 'Query tasks with a composed filter',
    description:
      'The tasks the caller can view that match `filter` (fields compared with `eq`, `neq`, `in`, `nin`, `gt`, `gte`, `lt`, `lte`, `null`; ' +
      'relative dates such as `P7D`; labels, custom fields, full-text `search`, `blocked`; combined with `and`, `or` and `not`; docs/filters.md), ' +
      'and every parameter of `tasks.list` as a body field with its own meaning (`sort`, `archived`, `teamId`, `cursor`, `limit`, …), all combined with AND. ' +
      'The answer is the page `tasks.list` gives: the permission check and the filter are one query, so pages are exact and keyset-paginated; send `nextCursor` back as `cursor` with the same body. ' +
      'A read: it changes nothing and takes no `Idempotency-Key`. ' +
      'Refused: a filter nested more than 5 levels deep, with more than 50 comparisons or 500 listed values, `gt`…`lte` on a custom field that is neither a number nor a date, ' +
      'or a value of the wrong type for its field (422 `rule_violated` at the filter’s pointer); a custom field that does not exist (422 `reference_not_found`), is archived (409 `archived`) or does not apply to tasks (422 `field_not_applicable`).',
    params: list.params,
    body,
    response: list.response as TSchema,
    status: 200,
    errors: ['invalid_cursor', 'reference_not_found', 'archived', 'field_not_applicable', 'rule_violated'],
    examples: {
      request: {
        filter: {
          or: [{ priority: { in: ['urgent', 'high'] } }, { dueDate: { gte: 'P0D', lte: 'P7D' } }],
          stateCategory: { nin: ['completed', 'canceled'] },
          assigneeId: { null: false },
        },
        teamId: id('team'),
        sort: '-priority',
        limit: 2,
      },
      response: { data: [otherTaskExample, taskExample], nextCursor: null },
    },
    run: (ctx, { body }) =>
      withBodyCursor(() => listTasks(ctx, body as ListTasksQuery & { filter?: TaskFilterInput })),
  })
}

/**
 * Which of these tasks match a stored filter (a saved view's, an automation rule's conditions: the
 * body of `tasks.query` without `cursor` and `limit`, as `checkFilter` in views accepts it) for the
 * caller: the same query `tasks.query` runs, restricted to the ids, so permissions apply as they do
 * there. At most `PAGE_LIMIT_MAX` ids at once.
 */
export async function matchingTaskIds(
  ctx: OperationContext,
  filter: Record<string, unknown>,
  taskIds: readonly TaskId[],
): Promise<TaskId[]> {
  if (taskIds.length === 0) return []
  if (taskIds.length > PAGE_LIMIT_MAX) throw new RangeError(`At most ${PAGE_LIMIT_MAX} task ids at once`)
  const { cursor: _c, limit: _l, ...stored } = filter
  const page = await listTasks(
    ctx,
    { ...(stored as ListTasksQuery), limit: taskIds.length },
    { ids: taskIds },
  )
  return page.data.map((t) => t.id as TaskId)
}
