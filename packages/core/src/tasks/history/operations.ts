import type { TaskId } from '../../kernel/ids.ts'
import type { AnyOperation } from '../../kernel/operation.ts'
import { subListOperation } from '../../kernel/resource.ts'
import { historyExample } from '../examples.ts'
import { listTaskHistory } from './history.ts'
import { TaskHistoryEntry } from './schemas.ts'

export const taskHistoryCatalogue: AnyOperation[] = [
  subListOperation({
    id: 'tasks.history.list',
    path: '/v1/orgs/{orgId}/tasks/{taskId}/history',
    tag: 'Tasks',
    summary: "List a task's history",
    description:
      'Every change to the task, newest first: who changed which field, when, from what to what. The last entry (on the last page) has the field `created`. Anyone who can view the task reads it.',
    item: TaskHistoryEntry,
    itemName: 'TaskHistoryEntry',
    examples: historyExample,
    run: (ctx, params, query) => listTaskHistory(ctx, params.taskId as TaskId, query),
  }),
]
