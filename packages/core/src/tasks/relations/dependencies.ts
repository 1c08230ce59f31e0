import { currentOrg } from '../../kernel/context.ts'
import type { TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { recordTaskHistory } from '../history/history.ts'
import { requireTask } from '../require-task.ts'
import type { Task } from '../schemas.ts'
import type { TaskFilter } from '../storage.ts'
import type { TaskDependency } from './schemas.ts'

/**
 * Records that `blockerId` blocks `taskId`. The caller holds `contribute` on `taskId` (the
 * operation checks it) and must be able to view the blocker (404 otherwise). Tasks of any team of
 * the org may block each other. A link that would close a cycle is refused with 409
 * `dependency_cycle` naming the path (tasks the caller cannot view appear as null); changes to one org's graph are serialised, so two concurrent
 * links cannot close a cycle between them.
 */
export async function addBlocker(
  ctx: OperationContext,
  taskId: TaskId,
  blockerId: TaskId,
): Promise<TaskDependency> {
  const task = await requireTask(ctx, taskId)
  const blocker = await requireTask(ctx, blockerId)
  if (blocker.id === task.id) {
    throw new ProblemError('rule_violated', 'A task cannot block itself.', {
      errors: [{ pointer: '/params/blockerId', message: 'Must be another task' }],
    })
  }
  await ctx.store.locks.acquire(`task-dependencies:${task.orgId}`)
  const existing = await ctx.store.taskDependencies.get(task.orgId, blocker.id, task.id)
  if (existing) return existing
  const path = await blockingPath(ctx, task.id, blocker.id)
  if (path) {
    // Tasks the caller cannot view are counted in the path but never named: null, "a hidden task".
    const cycle = await Promise.all([blocker.id, ...path].map((id) => visibleTask(ctx, id)))
    const names = cycle.map((t) => t?.key ?? 'a task you cannot view')
    throw new ProblemError(
      'dependency_cycle',
      `${blocker.key} cannot block ${task.key}: ${names.join(' blocks ')} would be a cycle.`,
      { extensions: { path: cycle.map((t) => t?.id ?? null) } },
    )
  }
  const dependency: TaskDependency = {
    blockerId: blocker.id,
    blockedId: task.id,
    createdBy: ctx.actor!.id,
    createdAt: ctx.now,
  }
  await ctx.store.taskDependencies.add({ ...dependency, orgId: task.orgId })
  await recordLink(ctx, task, blocker, 'added')
  return dependency
}

export async function removeBlocker(ctx: OperationContext, taskId: TaskId, blockerId: TaskId): Promise<void> {
  const task = await requireTask(ctx, taskId)
  const blocker = await requireTask(ctx, blockerId)
  await ctx.store.locks.acquire(`task-dependencies:${task.orgId}`)
  // Idempotent: a pair that is not linked is already as asked (204, nothing recorded or emitted).
  if (!(await ctx.store.taskDependencies.remove(task.orgId, blocker.id, task.id))) return
  await recordLink(ctx, task, blocker, 'removed')
}

/** The tasks that block this one (`blockersOf`) or that it blocks (`blockedBy`), oldest first. */
export async function listDependencies(
  ctx: OperationContext,
  taskId: TaskId,
  direction: 'blockersOf' | 'blockedBy',
  query: { cursor?: string; limit?: number },
): Promise<Page<Task>> {
  const task = await requireTask(ctx, taskId)
  const filter: TaskFilter = { archived: null, [direction]: task.id }
  return readPage(ctx, {
    scope: [`tasks.${direction}`, task.orgId, task.id],
    query,
    sort: 'createdAt' as const,
    direction: 'asc',
    keyOf: (t: Task) => t.createdAt,
    fetch: async (page) => ctx.store.tasks.list(task.orgId, filter, page, await ctx.scope()),
  })
}

/** The path `from` blocks … blocks `to` along existing edges, or null: breadth-first, so shortest. */
async function blockingPath(ctx: OperationContext, from: TaskId, to: TaskId): Promise<TaskId[] | null> {
  const orgId = currentOrg(ctx).id
  const cameFrom = new Map<TaskId, TaskId | null>([[from, null]])
  let frontier: TaskId[] = [from]
  while (frontier.length > 0) {
    const edges = await ctx.store.taskDependencies.blockedBy(orgId, frontier)
    frontier = []
    for (const { blockerId, blockedId } of edges) {
      if (cameFrom.has(blockedId)) continue
      cameFrom.set(blockedId, blockerId)
      if (blockedId === to) {
        const path: TaskId[] = []
        for (let at: TaskId | null = to; at; at = cameFrom.get(at) ?? null) path.unshift(at)
        return path
      }
      frontier.push(blockedId)
    }
  }
  return null
}

/** The task when the caller may view it, null otherwise. */
async function visibleTask(ctx: OperationContext, id: TaskId): Promise<Task | null> {
  return ctx.store.tasks.get(currentOrg(ctx).id, id, await ctx.scope())
}

async function recordLink(ctx: OperationContext, task: Task, blocker: Task, verb: 'added' | 'removed') {
  const added = verb === 'added'
  await recordTaskHistory(ctx, task, [
    { field: 'blockedBy', before: added ? null : blocker.id, after: added ? blocker.id : null },
  ])
  await recordTaskHistory(ctx, blocker, [
    { field: 'blocks', before: added ? null : task.id, after: added ? task.id : null },
  ])
  ctx.emit({
    kind: added ? 'task_dependency.created' : 'task_dependency.deleted',
    resourceType: 'task_dependency',
    resourceId: task.id,
    teamId: task.teamId,
    data: { blockerId: blocker.id, blockedId: task.id },
  })
}
