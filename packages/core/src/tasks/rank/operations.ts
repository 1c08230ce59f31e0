import { Type } from '@sinclair/typebox'
import { exampleId as id } from '../../kernel/examples.ts'
import type { TaskId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { MoveBody } from '../../kernel/ordering.ts'
import { paramsOf } from '../../kernel/resource.ts'
import { StringEnum } from '../../kernel/schema-types.ts'
import { taskExample } from '../examples.ts'
import { Task } from '../schemas.ts'
import { moveTask } from './rank.ts'
import { TASK_LISTS } from './storage.ts'

const taskPath = '/v1/orgs/{orgId}/tasks/{taskId}'

/** The lists a task is ordered in by hand, as `tasks.move` names them. */
export const TaskListSchema = StringEnum(TASK_LISTS, {
  $id: 'TaskList',
  description:
    "Which of the task's lists: `board`, its team's board column (its state); `project`, its project; `cycle`, its cycle.",
})

const move = declareOperation({
  id: 'tasks.move',
  method: 'POST',
  path: `${taskPath}/move`,
  tag: 'Tasks',
  scope: 'work:write',
  summary: 'Move a task before or after another in a board column, project or cycle',
  description:
    'Puts the task just before `beforeId` or just after `afterId` (exactly one), another unarchived task of the ' +
    'list `list` names: its board column (`board`: tasks of its state), its project or its cycle. Tasks hidden from ' +
    'the caller keep their places and need not be named. Only the moved task changes (its rank in that list, and ' +
    '`updatedAt`); `tasks.list` with `sort=rank` reads the order. A move that changes nothing emits nothing; ' +
    'otherwise emits `task.moved`. Refused: an anchor that is not another unarchived task of that list you can view ' +
    '(422 `reference_not_found` at the field), a task in no project or cycle for that list (422 `rule_violated` at ' +
    '`/body/list`), an archived task (409 `archived`). New tasks, and tasks whose state, project or cycle changes, ' +
    'go last in their new lists. Needs `contribute` on the task.',
  params: Type.Object(paramsOf(taskPath), { additionalProperties: false }),
  body: MoveBody('TaskId', 'task', { name: 'list', schema: TaskListSchema }),
  response: Task,
  status: 200,
  capability: 'contribute',
  target: ({ params }) => ({ type: 'task', id: params.taskId as string }),
  errors: ['not_found', 'reference_not_found', 'rule_violated', 'archived', 'conflict'],
  examples: {
    request: { list: 'board', afterId: id('task', 1) },
    response: { ...taskExample, updatedAt: '2030-01-14T09:30:00.000Z' },
  },
  run: (ctx, { params, body }) =>
    moveTask(ctx, params.taskId as TaskId, body.list as (typeof TASK_LISTS)[number], {
      beforeId: body.beforeId as string | undefined,
      afterId: body.afterId as string | undefined,
    }),
})

export const taskRankOperations: AnyOperation[] = [move]
