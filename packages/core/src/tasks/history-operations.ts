import type { TaskId } from '../kernel/ids.ts'
import type { AnyOperation } from '../kernel/operation.ts'
import { subListOperation } from '../kernel/resource.ts'
import { historyExample } from './examples.ts'
import { listTaskHistory } from './history.ts'
import { TaskHistoryEntry } from './history-schemas.ts'

export const taskHistoryCatalogue: AnyOperation[] = [
  subListOperation({
    id: 'taskHistory.list',
    path: '/v1/orgs/{orgId}/tasks/{taskId}/history',
    tag: 'Tasks',
    summary: "Read a task's history",
    description:
      'Every change to the task, oldest first: who changed which field, when, from what to what. The first entry has the field `created`. Anyone who can view the task reads it.',
    item: TaskHistoryEntry,
    itemName: 'TaskHistoryEntry',
    examples: historyExample,
    run: (ctx, params, query) => listTaskHistory(ctx, params.taskId as TaskId, query),
  }),
]
