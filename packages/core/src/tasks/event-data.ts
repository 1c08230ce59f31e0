import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { RELATION_TYPES, TaskLink } from './depth-schemas.ts'
import { Task } from './schemas.ts'

const TaskIdField = IdSchema('TaskId')

/** The `data` of the tasks group's events, as service.ts, subtasks.ts, labels.ts and the others emit it. */
export const TASK_EVENT_DATA: Record<string, TSchema> = {
  'task.created': recordData('task', Task),
  'task.updated': changedData('task', Task),
  ...sameData(['task.archived', 'task.restored'], recordData('task', Task)),
  'task.deleted': Type.Object({ id: TaskIdField, key: Type.String({ description: 'The key it had.' }) }),
  ...sameData(
    ['task_dependency.created', 'task_dependency.deleted'],
    Type.Object({ blockerId: TaskIdField, blockedId: TaskIdField }),
  ),
  ...sameData(
    ['task_relation.created', 'task_relation.deleted'],
    Type.Object({ type: StringEnum(RELATION_TYPES), taskId: TaskIdField, relatedId: TaskIdField }),
  ),
  ...sameData(
    ['task_subscriber.created', 'task_subscriber.deleted'],
    Type.Object({
      taskId: TaskIdField,
      actorId: Type.String({ description: 'The member or agent subscribed or unsubscribed.' }),
    }),
  ),
  'task_link.created': recordData('link', TaskLink),
  'task_link.updated': changedData('link', TaskLink),
  'task_link.deleted': Type.Object({ id: IdSchema('TaskLinkId'), taskId: TaskIdField }),
}
