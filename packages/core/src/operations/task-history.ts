import { Type } from '@sinclair/typebox'
import type { TaskId } from '../ids.ts'
import { type AnyOperation, declareOperation } from '../operation.ts'
import { PageQuery } from '../pagination.ts'
import { paramsOf } from '../resource.ts'
import { PageOf } from '../schemas/common.ts'
import { TaskHistoryEntry } from '../schemas/task-history.ts'
import { listTaskHistory } from '../services/task-history.ts'

export const taskHistoryCatalogue: AnyOperation[] = [
  declareOperation({
    id: 'taskHistory.list',
    method: 'GET',
    path: '/v1/orgs/{orgId}/tasks/{taskId}/history',
    tag: 'Tasks',
    scope: 'work:read',
    summary: "Read a task's history",
    description:
      'Every change to the task, oldest first: who changed which field, when, from what to what. The first entry has the field `created`. Anyone who can view the task reads it.',
    params: Type.Object(paramsOf('/v1/orgs/{orgId}/tasks/{taskId}'), { additionalProperties: false }),
    query: Type.Object(PageQuery, { additionalProperties: false }),
    response: PageOf(TaskHistoryEntry, 'TaskHistoryEntry'),
    status: 200,
    errors: ['not_found', 'invalid_cursor'],
    run: (ctx, { params, query }) => listTaskHistory(ctx, params.taskId as TaskId, query),
  }),
]
