import type { ResourceGroup } from '../kernel/group.ts'
import { taskBatchCatalogue } from './batch/operations.ts'
import { TASK_EVENT_DATA } from './event-data.ts'
import { taskHistoryCatalogue } from './history/operations.ts'
import { taskLabelOperations } from './labels/operations.ts'
import { tasksCatalogue } from './operations.ts'
import { TASK_PROBLEMS } from './problems.ts'
import { taskRankOperations } from './rank/operations.ts'
import { taskDepthCatalogue } from './relations/operations.ts'
import { taskTargets } from './targets.ts'

/** Tasks: fields, keys, subtasks, dependencies, relations, subscribers, labels on tasks, history and batches. */
export const tasksGroup: ResourceGroup = {
  name: 'tasks',
  tags: [
    {
      name: 'Tasks',
      description: 'Units of work, with state, assignee, priority, estimate and due date.',
      agentWork: true,
    },
  ],
  operations: [
    ...tasksCatalogue,
    ...taskRankOperations,
    ...taskBatchCatalogue,
    ...taskLabelOperations,
    ...taskHistoryCatalogue,
    ...taskDepthCatalogue,
  ],
  problems: TASK_PROBLEMS,
  eventData: TASK_EVENT_DATA,
  events: [
    {
      kinds: ['task.created', 'task.updated', 'task.archived', 'task.restored', 'task.deleted'],
      emittedBy:
        '`tasks.*`, also through `agentSessions.act`; `task.updated` and `task.archived` also by `engine.automateTasks()` (actor null, `automation` in data: a team’s auto-close and auto-archive)',
    },
    {
      kinds: ['task.moved'],
      emittedBy:
        '`tasks.move`: the task with the list it moved in (`list`: `board`, `project` or `cycle`, and its `listId`); read the order with `sort=rank`',
    },
    {
      kinds: ['task_dependency.created', 'task_dependency.deleted'],
      emittedBy: '`tasks.blockers.add`, `tasks.blockers.remove` (resource id: the blocked task)',
    },
    {
      kinds: ['task_relation.created', 'task_relation.deleted'],
      emittedBy: '`tasks.relations.add`, `tasks.relations.remove` (resource id: the task)',
    },
    {
      kinds: ['task_subscriber.created', 'task_subscriber.deleted'],
      emittedBy: '`tasks.subscribers.*` (resource id: the task)',
    },
  ],
  targets: taskTargets,
}
