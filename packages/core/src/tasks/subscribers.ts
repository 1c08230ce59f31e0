import { findActor } from '../access/actors.ts'
import { currentOrg } from '../kernel/context.ts'
import type { ActorId, TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound } from '../kernel/problems.ts'
import { recordTaskHistory } from './history/history.ts'
import type { TaskSubscriber } from './relations/schemas.ts'
import { requireTask } from './require-task.ts'
import type { Task } from './schemas.ts'

/** Subscribes without checks or events: the creator and assignee of a task, as part of that change. */
export async function autoSubscribe(ctx: OperationContext, task: Task, actorId: ActorId): Promise<void> {
  await ctx.store.taskSubscribers.add({ orgId: task.orgId, taskId: task.id, actorId, addedAt: ctx.now })
}

/**
 * Subscribes an actor to a task. Oneself: the operation's `comment` suffices; someone else needs
 * `manage`. Subscribing twice changes nothing and answers the existing subscription.
 */
export async function subscribe(
  ctx: OperationContext,
  taskId: TaskId,
  actorId: ActorId,
): Promise<TaskSubscriber> {
  const task = await requireTask(ctx, taskId)
  await requireOtherRights(ctx, task, actorId)
  const subscriber: TaskSubscriber = { taskId: task.id, actorId, addedAt: ctx.now }
  if (await ctx.store.taskSubscribers.add({ ...subscriber, orgId: task.orgId })) {
    await record(ctx, task, actorId, true)
    return subscriber
  }
  // Already subscribed: answer the stored subscription (a task has a handful of subscribers).
  const page = await ctx.store.taskSubscribers.list(task.orgId, task.id, {
    sort: 'actorId',
    direction: 'asc',
    after: null,
    limit: 10_000,
  })
  return page.find((s) => s.actorId === actorId) ?? subscriber
}

export async function unsubscribe(ctx: OperationContext, taskId: TaskId, actorId: ActorId): Promise<void> {
  const task = await requireTask(ctx, taskId)
  await requireOtherRights(ctx, task, actorId)
  if (!(await ctx.store.taskSubscribers.remove(task.orgId, task.id, actorId))) return
  await record(ctx, task, actorId, false)
}

export async function listSubscribers(
  ctx: OperationContext,
  taskId: TaskId,
  query: { cursor?: string; limit?: number },
): Promise<Page<TaskSubscriber>> {
  const task = await requireTask(ctx, taskId)
  const page = await readPage(ctx, {
    scope: ['taskSubscribers.list', task.orgId, task.id],
    query,
    sort: 'actorId' as const,
    direction: 'asc',
    keyOf: (s: TaskSubscriber & { id: string }) => s.id,
    fetch: async (p) =>
      (await ctx.store.taskSubscribers.list(task.orgId, task.id, p)).map((s) => ({ ...s, id: s.actorId })),
  })
  return { data: page.data.map(({ id: _id, ...s }) => s), nextCursor: page.nextCursor }
}

/** Someone else must be an active member or an agent of the org, and the caller needs `manage`. */
async function requireOtherRights(ctx: OperationContext, task: Task, actorId: ActorId): Promise<void> {
  if (actorId === ctx.actor!.id) return
  const orgId = currentOrg(ctx).id
  if (!(await findActor(ctx, orgId, actorId))) throw notFound('Actor')
  await ctx.require('manage', { type: 'task', id: task.id })
}

async function record(ctx: OperationContext, task: Task, actorId: ActorId, added: boolean) {
  await recordTaskHistory(ctx, task, [
    { field: 'subscribers', before: added ? null : actorId, after: added ? actorId : null },
  ])
  ctx.emit({
    kind: added ? 'task_subscriber.created' : 'task_subscriber.deleted',
    resourceType: 'task_subscriber',
    resourceId: task.id,
    teamId: task.teamId,
    data: { taskId: task.id, actorId },
  })
}
