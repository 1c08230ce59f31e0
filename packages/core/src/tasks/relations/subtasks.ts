import { currentOrg } from '../../kernel/context.ts'
import type { TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { UNSCOPED } from '../../kernel/read-scope.ts'
import { inBody } from '../../kernel/references.ts'
import { archivedFilter } from '../../teams/service.ts'
import { recordTaskHistory } from '../history/history.ts'
import { requireTask } from '../require-task.ts'
import type { Task } from '../schemas.ts'

/** A top-level task is level 1; its subtasks level 2; the deepest allowed level is this. */
export const MAX_SUBTASK_LEVELS = 5

export type ChildrenPolicy = 'archive' | 'detach'

/**
 * Checks that `parentId` may become the parent of `taskId` (null for a task being created): the
 * parent is viewable and active, the task does not become its own ancestor, and the tree stays
 * within five levels. Parent changes in one org are serialised, so two concurrent moves cannot
 * build a cycle together.
 */
export async function checkParent(
  ctx: OperationContext,
  taskId: TaskId | null,
  parentId: TaskId,
): Promise<void> {
  const orgId = currentOrg(ctx).id
  await ctx.store.locks.acquire(`task-tree:${orgId}`)
  // Named in the body: a parent that does not exist or is hidden is a bad value of `parentId`.
  const parent = await inBody('/body/parentId', 'No task with this id that you can view.', () =>
    requireTask(ctx, parentId),
  )
  if (parent.archivedAt) throw new ProblemError('archived', 'The parent task is archived; restore it first.')
  // The parent's ancestors, parent first; the engine reads them whoever may view them.
  const chain: TaskId[] = []
  let cursor: Task | null = parent
  while (cursor) {
    if (cursor.id === taskId || chain.includes(cursor.id)) {
      throw new ProblemError('subtask_cycle', 'The task would become its own ancestor.', {
        extensions: { path: [taskId, ...chain.slice().reverse()].filter(Boolean) },
      })
    }
    chain.push(cursor.id)
    cursor = cursor.parentId ? await ctx.store.tasks.get(orgId, cursor.parentId, UNSCOPED) : null
  }
  const height = taskId ? await subtreeHeight(ctx, taskId) : 1
  if (chain.length + height > MAX_SUBTASK_LEVELS) {
    throw new ProblemError(
      'subtask_depth',
      `Subtasks nest at most ${MAX_SUBTASK_LEVELS} levels; this would make ${chain.length + height}.`,
      { extensions: { maxLevels: MAX_SUBTASK_LEVELS } },
    )
  }
}

/** Levels in the task's subtree, the task included (a task without subtasks: 1). */
async function subtreeHeight(ctx: OperationContext, taskId: TaskId): Promise<number> {
  const orgId = currentOrg(ctx).id
  let level: TaskId[] = [taskId]
  let height = 0
  while (level.length > 0 && height <= MAX_SUBTASK_LEVELS) {
    height++
    level = (await ctx.store.tasks.childrenOf(orgId, level)).map((c) => c.id)
  }
  return height
}

/** Every descendant of the task, nearest first. */
export async function descendantsOf(
  ctx: OperationContext,
  taskId: TaskId,
): Promise<Array<{ id: TaskId; parentId: TaskId; archived: boolean }>> {
  const orgId = currentOrg(ctx).id
  const all: Array<{ id: TaskId; parentId: TaskId; archived: boolean }> = []
  let level: TaskId[] = [taskId]
  while (level.length > 0) {
    const children = await ctx.store.tasks.childrenOf(orgId, level)
    all.push(...children)
    level = children.map((c) => c.id)
  }
  return all
}

/**
 * Before archiving a parent: with open (unarchived) subtasks the caller must choose. `archive`
 * archives the whole open subtree with the parent; `detach` makes the direct subtasks top-level.
 * Without a choice: 409 `has_children`, naming the choices.
 */
export async function settleChildren(
  ctx: OperationContext,
  task: Task,
  policy: ChildrenPolicy | undefined,
): Promise<void> {
  const open = (await descendantsOf(ctx, task.id)).filter((d) => !d.archived)
  if (open.length === 0) return
  if (!policy) {
    throw new ProblemError(
      'has_children',
      'The task has open subtasks: archive again with `?children=archive` to archive them too, or `?children=detach` to make them top-level tasks.',
      { extensions: { openChildren: open.length, choices: ['archive', 'detach'] } },
    )
  }
  const orgId = task.orgId
  const targets = policy === 'archive' ? open : open.filter((d) => d.parentId === task.id)
  for (const child of targets) {
    await ctx.require('contribute', { type: 'task', id: child.id })
    const patch =
      policy === 'archive'
        ? { archivedAt: ctx.now, updatedAt: ctx.now }
        : { parentId: null, updatedAt: ctx.now }
    await ctx.store.tasks.update(orgId, child.id, patch)
    const next = await requireTask(ctx, child.id)
    await recordTaskHistory(
      ctx,
      next,
      policy === 'archive'
        ? [{ field: 'archivedAt', before: null, after: next.archivedAt }]
        : [{ field: 'parentId', before: task.id, after: null }],
    )
    ctx.emit({
      kind: policy === 'archive' ? 'task.archived' : 'task.updated',
      resourceType: 'task',
      resourceId: next.id,
      teamId: next.teamId,
      data:
        policy === 'archive'
          ? { task: next }
          : { task: next, changes: { parentId: { before: task.id, after: null } } },
    })
  }
}

/** Direct subtasks of a deleted task become top-level tasks. */
export async function detachChildren(ctx: OperationContext, task: Task): Promise<void> {
  for (const child of await ctx.store.tasks.childrenOf(task.orgId, [task.id])) {
    await ctx.store.tasks.update(task.orgId, child.id, { parentId: null, updatedAt: ctx.now })
    await recordTaskHistory(ctx, { id: child.id, orgId: task.orgId }, [
      { field: 'parentId', before: task.id, after: null },
    ])
  }
}

export async function listChildren(
  ctx: OperationContext,
  taskId: TaskId,
  query: { cursor?: string; limit?: number; archived?: 'exclude' | 'only' | 'include' },
): Promise<Page<Task>> {
  const parent = await requireTask(ctx, taskId)
  const filter = { archived: archivedFilter(query.archived), parentId: parent.id }
  return readPage(ctx, {
    scope: ['tasks.children', parent.orgId, filter],
    query,
    sort: 'createdAt' as const,
    direction: 'asc',
    keyOf: (t: Task) => t.createdAt,
    fetch: async (page) => ctx.store.tasks.list(parent.orgId, filter, page, await ctx.scope()),
  })
}
