import { Type } from '@sinclair/typebox'
import type { LabelId, TaskId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf } from '../../kernel/resource.ts'
import { taskLabelExamples } from '../examples.ts'
import { Task } from '../schemas.ts'
import { addTaskLabel, removeTaskLabel } from './labels.ts'

const taskLabelsPath = '/v1/orgs/{orgId}/tasks/{taskId}/labels'
const taskLabelPath = `${taskLabelsPath}/{labelId}`

/** A task's labels; the labels themselves are the labels group's (tag Labels, beside them in the reference). */
export const taskLabelOperations: AnyOperation[] = [
  declareOperation({
    id: 'tasks.labels.add',
    method: 'PUT',
    path: taskLabelPath,
    tag: 'Labels',
    scope: 'work:write',
    summary: 'Add a label to a task',
    description:
      "An org label or a label of the task's team. A label of a group replaces the task's other label of that group. Idempotent: adding a label the task carries changes nothing and emits nothing. Answers with the task.",
    params: Type.Object(paramsOf(taskLabelPath), { additionalProperties: false }),
    response: Task,
    status: 200,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'task', id: params.taskId as string }),
    errors: ['not_found', 'reference_not_found'],
    examples: taskLabelExamples.add,
    run: (ctx, { params }) => addTaskLabel(ctx, params.taskId as TaskId, params.labelId as LabelId),
  }),
  declareOperation({
    id: 'tasks.labels.remove',
    method: 'DELETE',
    path: taskLabelPath,
    tag: 'Labels',
    scope: 'work:write',
    summary: 'Remove a label from a task',
    description:
      'Takes the label off the task. Idempotent: a label the task does not carry changes nothing (204, no event); ' +
      'a label that does not exist is a 404. Needs `contribute` on the task.',
    params: Type.Object(paramsOf(taskLabelPath), { additionalProperties: false }),
    response: null,
    status: 204,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'task', id: params.taskId as string }),
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeTaskLabel(ctx, params.taskId as TaskId, params.labelId as LabelId)
      return undefined
    },
  }),
]
