import { type TSchema, Type } from '@sinclair/typebox'
import { EventChanges, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { TASK_LISTS } from './rank/storage.ts'
import { RELATION_TYPES } from './relations/schemas.ts'
import { Task } from './schemas.ts'

const TaskIdField = IdSchema('TaskId')

/** Set on the changes the teams' maintenance pass makes (automation/automation.ts); absent on everyone else's. */
const automation = (what: 'autoClose' | 'autoArchive', description: string) =>
  Type.Optional(StringEnum([what], { description }))

/** The `data` of the tasks group's events, as service.ts, relations/subtasks.ts, labels/labels.ts and the others emit it. */
export const TASK_EVENT_DATA: Record<string, TSchema> = {
  'task.created': recordData('task', Task),
  'task.updated': Type.Object({
    task: Task,
    changes: EventChanges,
    automation: automation(
      'autoClose',
      "Present when the team's auto-close closed the task (`autoCloseDays`; `actorId` is null).",
    ),
  }),
  'task.archived': Type.Object({
    task: Task,
    automation: automation(
      'autoArchive',
      "Present when the team's auto-archive archived the task (`autoArchiveDays`; `actorId` is null).",
    ),
  }),
  'task.restored': recordData('task', Task),
  'task.moved': Type.Object({
    task: Task,
    list: StringEnum(TASK_LISTS, {
      description: 'The list it moved in: its board column, project or cycle.',
    }),
    listId: Type.String({ description: 'The state, project or cycle whose list it is.' }),
  }),
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
}
