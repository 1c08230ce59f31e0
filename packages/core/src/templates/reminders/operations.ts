import { type TProperties, Type } from '@sinclair/typebox'
import type { ReminderId, TaskId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf, subListOperation } from '../../kernel/resource.ts'
import { Nullable } from '../../kernel/schema-types.ts'
import { reminderExamples } from '../examples.ts'
import { Reminder } from '../schemas.ts'
import { createReminder, deleteReminder, listReminders, REMINDERS_PER_TASK_MAX } from './reminders.ts'

const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })

const remindersPath = '/v1/orgs/{orgId}/tasks/{taskId}/reminders'
const reminderPath = `${remindersPath}/{reminderId}`
const onTask = ({ params }: { params: { taskId: string } }) => ({ type: 'task' as const, id: params.taskId })
/** A task's reminders (docs/templates.md). */
export const reminderOperations: AnyOperation[] = [
  subListOperation({
    id: 'tasks.reminders.list',
    path: remindersPath,
    tag: 'Tasks',
    summary: 'List my reminders on a task',
    description: 'The caller’s own reminders on the task, soonest first, delivered ones included.',
    requires: 'a person who can view the task; an agent has no reminders (403 `capability_required`)',
    item: Reminder,
    itemName: 'Reminder',
    errors: ['capability_required'],
    examples: reminderExamples.list,
    run: (ctx, params, query) => listReminders(ctx, params.taskId as TaskId, query),
  }),
  declareOperation({
    id: 'tasks.reminders.create',
    method: 'POST',
    path: remindersPath,
    tag: 'Tasks',
    scope: 'work:write',
    summary: 'Remind me about a task',
    description:
      'At `remindAt` the scheduler delivers a `reminder` notification about the task to the caller, once, if ' +
      'they can still view it then and have not turned `reminder` notifications off. People only; at most ' +
      `${REMINDERS_PER_TASK_MAX} pending reminders per person and task. A \`remindAt\` in the past is 422 \`rule_violated\`.`,
    params: obj(paramsOf(remindersPath)),
    body: Type.Object(
      {
        remindAt: Type.String({ format: 'date-time', description: 'When; must be in the future.' }),
        note: Type.Optional(Nullable(Type.String({ maxLength: 200 }), 'Shown in the notification.')),
      },
      { additionalProperties: false },
    ),
    response: Reminder,
    status: 201,
    capability: 'view',
    target: onTask,
    errors: ['not_found', 'conflict', 'rule_violated'],
    examples: reminderExamples.create,
    run: (ctx, { params, body }) => createReminder(ctx, params.taskId as TaskId, body as never),
  }),
  declareOperation({
    id: 'tasks.reminders.delete',
    method: 'DELETE',
    path: reminderPath,
    tag: 'Tasks',
    scope: 'work:write',
    summary: 'Clear a reminder',
    description: 'Only one’s own; anyone else’s reminder is a 404.',
    params: obj(paramsOf(reminderPath)),
    response: null,
    status: 204,
    capability: 'view',
    target: onTask,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await deleteReminder(ctx, params.taskId as TaskId, params.reminderId as ReminderId)
      return undefined
    },
  }),
]
