import { newId, type TaskId, type TaskLinkId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound } from '../kernel/problems.ts'
import { changesOf } from '../orgs/service.ts'
import type { TaskLink } from './depth-schemas.ts'
import { recordTaskHistory } from './history.ts'
import type { LinkValue } from './history-schemas.ts'
import { requireTask } from './require-task.ts'
import type { Task } from './schemas.ts'

export async function requireTaskLink(
  ctx: OperationContext,
  taskId: TaskId,
  linkId: TaskLinkId,
): Promise<TaskLink> {
  const task = await requireTask(ctx, taskId)
  const link = await ctx.store.taskLinks.get(task.orgId, task.id, linkId)
  if (!link) throw notFound('Link')
  return link
}

export async function createTaskLink(
  ctx: OperationContext,
  taskId: TaskId,
  input: { url: string; title?: string | null },
): Promise<TaskLink> {
  const task = await requireTask(ctx, taskId)
  const link: TaskLink = {
    id: newId('TaskLinkId'),
    taskId: task.id,
    url: input.url,
    title: input.title ?? null,
    createdBy: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.taskLinks.insert({ ...link, orgId: task.orgId })
  await record(ctx, task, 'created', link, null, { url: link.url, title: link.title })
  return link
}

export async function updateTaskLink(
  ctx: OperationContext,
  taskId: TaskId,
  linkId: TaskLinkId,
  input: { url?: string; title?: string | null },
): Promise<TaskLink> {
  const link = await requireTaskLink(ctx, taskId, linkId)
  const changed = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && link[k as keyof TaskLink] !== v),
  ) as Partial<Pick<TaskLink, 'url' | 'title'>>
  if (Object.keys(changed).length === 0) return link
  const task = await requireTask(ctx, taskId)
  await ctx.store.taskLinks.update(task.orgId, link.id, { ...changed, updatedAt: ctx.now })
  const next = await requireTaskLink(ctx, taskId, linkId)
  await record(
    ctx,
    task,
    'updated',
    next,
    { url: link.url, title: link.title },
    { url: next.url, title: next.title },
    changesOf(link, changed),
  )
  return next
}

/** The link's author deletes it with `contribute`; anyone else needs `manage` on the task. */
export async function deleteTaskLink(
  ctx: OperationContext,
  taskId: TaskId,
  linkId: TaskLinkId,
): Promise<void> {
  const link = await requireTaskLink(ctx, taskId, linkId)
  if (link.createdBy !== ctx.actor!.id) await ctx.require('manage', { type: 'task', id: taskId })
  const task = await requireTask(ctx, taskId)
  await ctx.store.taskLinks.delete(task.orgId, link.id)
  await record(ctx, task, 'deleted', link, { url: link.url, title: link.title }, null)
}

export async function listTaskLinks(
  ctx: OperationContext,
  taskId: TaskId,
  query: { cursor?: string; limit?: number },
): Promise<Page<TaskLink>> {
  const task = await requireTask(ctx, taskId)
  return readPage(ctx, {
    scope: ['taskLinks.list', task.orgId, task.id],
    query,
    sort: 'createdAt' as const,
    direction: 'asc',
    keyOf: (l: TaskLink) => l.createdAt,
    fetch: (p) => ctx.store.taskLinks.list(task.orgId, task.id, p),
  })
}

async function record(
  ctx: OperationContext,
  task: Task,
  verb: 'created' | 'updated' | 'deleted',
  link: TaskLink,
  before: LinkValue | null,
  after: LinkValue | null,
  changes?: Record<string, unknown>,
) {
  await recordTaskHistory(ctx, task, [{ field: 'links', before, after }])
  ctx.emit({
    kind: `task_link.${verb}`,
    resourceType: 'task_link',
    resourceId: link.id,
    teamId: task.teamId,
    data: verb === 'deleted' ? { id: link.id, taskId: task.id } : { link, ...(changes ? { changes } : {}) },
  })
}
