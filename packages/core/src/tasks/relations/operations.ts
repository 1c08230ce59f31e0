import { type TProperties, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../../access/schemas.ts'
import { IdSchema, type TaskId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { PageQuery } from '../../kernel/pagination.ts'
import { paramsOf, subListOperation, unlinkOperation } from '../../kernel/resource.ts'
import { StringEnum } from '../../kernel/schema-types.ts'
import { depthExamples, taskExamples } from '../examples.ts'
import { taskByKey } from '../keys.ts'
import { Task } from '../schemas.ts'
import { listSubscribers, subscribe, unsubscribe } from '../subscribers.ts'
import { addBlocker, listDependencies, removeBlocker } from './dependencies.ts'
import { addRelation, listRelations, removeRelation } from './relations.ts'
import { TaskDependency, TaskRelation, TaskSubscriber } from './schemas.ts'
import { listChildren } from './subtasks.ts'

const taskPath = '/v1/orgs/{orgId}/tasks/{taskId}'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const params = (path: string) => obj(paramsOf(path))
const _pageQuery = obj(PageQuery)
const onTask = ({ params }: { params: { taskId: string } }) => ({ type: 'task' as const, id: params.taskId })
const tid = (p: Record<string, string>) => p.taskId as TaskId

const subtaskOperations = [
  subListOperation({
    id: 'tasks.children.list',
    path: `${taskPath}/children`,
    tag: 'Tasks',
    summary: "List a task's subtasks",
    description: 'Direct subtasks, oldest first; only those the caller can view.',
    item: Task,
    itemName: 'Task',
    query: {
      archived: Type.Optional(StringEnum(['exclude', 'only', 'include'] as const, { default: 'exclude' })),
    },
    examples: depthExamples.children,
    run: (ctx, params, query) => listChildren(ctx, tid(params), query),
  }),
]

const dependencyOperations = [
  subListOperation({
    id: 'tasks.blockers.list',
    path: `${taskPath}/blockers`,
    tag: 'Tasks',
    summary: 'List the tasks that block a task',
    description:
      "Oldest first, archived ones included; only those the caller can view. The task's `isBlocked` says whether any of them is still open.",
    item: Task,
    itemName: 'Task',
    examples: depthExamples.blockers,
    run: (ctx, params, query) => listDependencies(ctx, tid(params), 'blockersOf', query),
  }),
  declareOperation({
    id: 'tasks.blockers.add',
    method: 'PUT',
    path: `${taskPath}/blockers/{blockerId}`,
    tag: 'Tasks',
    scope: 'work:write',
    summary: 'Add a task that blocks this one',
    description:
      'Records "`blockerId` blocks this task". Needs `contribute` on this task and `view` on the blocker, which may sit in any team of the org. A link that would close a cycle answers 409 `dependency_cycle` with the `path`. Idempotent: adding an existing link answers it unchanged (same `createdAt`) and emits nothing. A task cannot block itself (422 `rule_violated`).',
    params: params(`${taskPath}/blockers/{blockerId}`),
    response: TaskDependency,
    status: 200,
    capability: 'contribute',
    target: onTask,
    errors: ['not_found', 'dependency_cycle', 'rule_violated'],
    examples: depthExamples.blockersAdd,
    run: (ctx, { params }) => addBlocker(ctx, tid(params), params.blockerId as TaskId),
  }),
  unlinkOperation({
    id: 'tasks.blockers.remove',
    path: `${taskPath}/blockers/{blockerId}`,
    tag: 'Tasks',
    summary: 'Remove a blocking task',
    description:
      "Removes the dependency that has `blockerId` block the task; both tasks must be visible to the caller (404 otherwise). Recorded in both tasks' history; emits `task_dependency.deleted`. Idempotent: a pair that is not linked changes nothing (204, no event). Needs `contribute` on the task.",
    capability: 'contribute',
    target: onTask,
    run: (ctx, params) => removeBlocker(ctx, tid(params), params.blockerId as TaskId),
  }),
  subListOperation({
    id: 'tasks.blocking.list',
    path: `${taskPath}/blocking`,
    tag: 'Tasks',
    summary: 'List the tasks a task blocks',
    description: 'Oldest first, archived ones included; only those the caller can view.',
    item: Task,
    itemName: 'Task',
    examples: depthExamples.blocking,
    run: (ctx, params, query) => listDependencies(ctx, tid(params), 'blockedBy', query),
  }),
]

const relationOperations = [
  subListOperation({
    id: 'tasks.relations.list',
    path: `${taskPath}/relations`,
    tag: 'Tasks',
    summary: "List a task's relations",
    description: "Related tasks and duplicates, by the other task's id; only those the caller can view.",
    item: TaskRelation,
    itemName: 'TaskRelation',
    examples: depthExamples.relations,
    run: (ctx, params, query) => listRelations(ctx, tid(params), query),
  }),
  declareOperation({
    id: 'tasks.relations.add',
    method: 'PUT',
    path: `${taskPath}/relations/{relatedTaskId}`,
    tag: 'Tasks',
    scope: 'work:write',
    summary: 'Relate a task to another, or mark it a duplicate',
    description:
      "`related` links the two both ways. `duplicateOf` marks this task a duplicate of `relatedTaskId` and moves it to the first canceled state of its team unless it is completed or canceled already. Idempotent: a pair that already has this `type` answers the relation unchanged and emits nothing. A pair related with another type gets this one instead (a PUT replaces): the old relation is removed and the new one added, in both tasks' history; a task already a duplicate of a third task answers 409 `conflict`. Needs `contribute` on this task and `view` on the other. A task cannot be related to itself (422 `rule_violated`).",
    params: params(`${taskPath}/relations/{relatedTaskId}`),
    body: obj({ type: StringEnum(['related', 'duplicateOf'] as const) }),
    response: TaskRelation,
    status: 200,
    capability: 'contribute',
    target: onTask,
    errors: ['not_found', 'conflict', 'rule_violated'],
    examples: depthExamples.relationsAdd,
    run: (ctx, { params, body }) =>
      addRelation(ctx, tid(params), { type: body.type, taskId: params.relatedTaskId as TaskId }),
  }),
  unlinkOperation({
    id: 'tasks.relations.remove',
    path: `${taskPath}/relations/{relatedTaskId}`,
    tag: 'Tasks',
    summary: 'Remove the relation between two tasks',
    description:
      'Removes the relation between the two tasks, both ways; both must be visible to the caller (404 otherwise). ' +
      'A duplicate keeps the state it was moved to. Idempotent: a pair that is not related changes nothing (204, ' +
      'no event). Needs `contribute` on this task, and on the other one when it is a duplicate of this one.',
    capability: 'contribute',
    target: onTask,
    run: (ctx, params) => removeRelation(ctx, tid(params), params.relatedTaskId as TaskId),
  }),
]

const keyOperations = [
  declareOperation({
    id: 'tasks.getByKey',
    method: 'GET',
    path: '/v1/orgs/{orgId}/tasks/by-key/{key}',
    tag: 'Tasks',
    scope: 'work:read',
    summary: 'Get a task by its key',
    description:
      'Case-insensitive (`eng-42` finds `ENG-42`). A key the task carried before it moved to another team still finds it.',
    params: obj({
      ...paramsOf('/v1/orgs/{orgId}'),
      key: Type.String({
        pattern: '^[A-Za-z][A-Za-z0-9]{0,6}-[1-9][0-9]{0,9}$',
        description: 'Such as `ENG-42`.',
      }),
    }),
    response: Task,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: taskExamples.getByKey,
    run: (ctx, { params }) => taskByKey(ctx, params.key),
  }),
]

const subscriberPath = `${taskPath}/subscribers/{actorId}`
const subscriberParams = obj({ ...paramsOf(taskPath), actorId: ActorIdSchema })
const subscriberOperations = [
  subListOperation({
    id: 'tasks.subscribers.list',
    path: `${taskPath}/subscribers`,
    tag: 'Tasks',
    summary: "List a task's subscribers",
    description: 'By actor id. The creator and every assignee are subscribed automatically.',
    item: TaskSubscriber,
    itemName: 'TaskSubscriber',
    examples: depthExamples.subscribers,
    run: (ctx, params, query) => listSubscribers(ctx, tid(params), query),
  }),
  declareOperation({
    id: 'tasks.subscribers.add',
    method: 'PUT',
    path: subscriberPath,
    tag: 'Tasks',
    scope: 'work:write',
    summary: 'Subscribe to a task',
    requires: '`comment` on the task to subscribe yourself, `manage` to subscribe someone else',
    description:
      'Subscribing oneself needs `comment` on the task; subscribing someone else needs `manage`. Idempotent: subscribing again changes nothing, emits nothing and answers the same record (same `addedAt`).',
    params: subscriberParams,
    response: TaskSubscriber,
    status: 200,
    capability: 'comment',
    target: onTask,
    errors: ['not_found'],
    examples: depthExamples.subscribersAdd,
    run: (ctx, { params }) => subscribe(ctx, tid(params), params.actorId as never),
  }),
  declareOperation({
    id: 'tasks.subscribers.remove',
    method: 'DELETE',
    path: subscriberPath,
    tag: 'Tasks',
    scope: 'work:write',
    summary: 'Unsubscribe from a task',
    requires: '`comment` on the task to unsubscribe yourself, `manage` to unsubscribe someone else',
    description:
      'Oneself with `comment`; someone else with `manage`. Idempotent: someone not subscribed changes nothing (204, no event).',
    params: subscriberParams,
    response: null,
    status: 204,
    capability: 'comment',
    target: onTask,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await unsubscribe(ctx, tid(params), params.actorId as never)
      return undefined
    },
  }),
]

/** Subtasks, dependencies, relations, look-up by key and subscribers: docs/tasks.md (links: the links group). */
export const taskDepthCatalogue: AnyOperation[] = [
  ...subtaskOperations,
  ...dependencyOperations,
  ...relationOperations,
  ...keyOperations,
  ...subscriberOperations,
]
