import type { TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { recordTaskHistory } from '../history/history.ts'
import { requireTask } from '../require-task.ts'
import type { Task } from '../schemas.ts'
import { updateTask } from '../service.ts'
import type { TaskRelationRecord } from '../storage.ts'
import type { RelationType, TaskRelation } from './schemas.ts'

/**
 * What happens when a task waiting in triage is marked a duplicate: the triage group (above this
 * one) fills the hook `tasks.triageDuplicate`, to settle the triage item (its `task.triaged` event,
 * which notifies the requester, and its snooze).
 */
export type TriageDuplicateHook = (ctx: OperationContext, task: Task, duplicateOfId: TaskId) => Promise<void>

declare module '../../kernel/hooks.ts' {
  interface Hooks {
    'tasks.triageDuplicate': TriageDuplicateHook
  }
}

/**
 * Relates two tasks of the org (any teams). `related` is symmetric; `duplicateOf` marks the task as
 * a duplicate of the other one and, unless it is already completed or canceled, moves it to the
 * first canceled state of its team (as Linear does). A task duplicates at most one other task, and
 * two tasks carry at most one relation between them. A task waiting in triage marked a duplicate
 * is triaged by it: it needs a canceled state to go to (409 `conflict` without one, nothing changed),
 * and its requester hears of it as from any triage decision.
 */
export async function addRelation(
  ctx: OperationContext,
  taskId: TaskId,
  input: { type: 'related' | 'duplicateOf'; taskId: TaskId },
): Promise<TaskRelation> {
  const task = await requireTask(ctx, taskId)
  const other = await requireTask(ctx, input.taskId)
  if (other.id === task.id) {
    throw new ProblemError('rule_violated', 'A task cannot be related to itself.', {
      errors: [{ pointer: '/params/relatedTaskId', message: 'Must be another task' }],
    })
  }
  // A PUT: the pair with this type already answers as it is; another type on the pair is replaced.
  const existing = await ctx.store.taskRelations.get(task.orgId, task.id, other.id)
  if (existing?.type === input.type)
    return { type: existing.type, task: other, createdBy: existing.createdBy, createdAt: existing.createdAt }
  if (existing) await removeRelation(ctx, task.id, other.id)
  if (input.type === 'duplicateOf' && (await ctx.store.taskRelations.duplicateOf(task.orgId, task.id))) {
    throw new ProblemError('conflict', `${task.key} is already marked as a duplicate of another task.`)
  }
  const inTriage = input.type === 'duplicateOf' && task.stateCategory === 'triage' && !task.archivedAt
  const canceled =
    input.type === 'duplicateOf' && !['completed', 'canceled'].includes(task.stateCategory)
      ? (await ctx.store.states.listForTeam(task.orgId, task.teamId, { includeArchived: false })).find(
          (s) => s.category === 'canceled',
        )
      : undefined
  // A triage item left in triage would still wait for a decision: refuse before changing anything.
  if (inTriage && !canceled)
    throw new ProblemError('conflict', 'The team has no active canceled state to move the duplicate into.')
  const base = { orgId: task.orgId, createdBy: ctx.actor!.id, createdAt: ctx.now }
  const relation: TaskRelationRecord = { ...base, taskId: task.id, relatedId: other.id, type: input.type }
  const mirror: TaskRelationRecord = {
    ...base,
    taskId: other.id,
    relatedId: task.id,
    type: input.type === 'related' ? 'related' : 'duplicatedBy',
  }
  if (!(await ctx.store.taskRelations.add(relation, mirror))) {
    throw new ProblemError('already_exists', `${task.key} and ${other.key} are related already.`)
  }
  await recordRelation(ctx, task, other, relation.type, mirror.type, 'added')
  if (canceled) await updateTask(ctx, task.id, { stateId: canceled.id })
  if (inTriage) await ctx.hook('tasks.triageDuplicate')(ctx, await requireTask(ctx, task.id), other.id)
  return { type: relation.type, task: other, createdBy: relation.createdBy, createdAt: relation.createdAt }
}

/** Removes whatever relation joins the two tasks; a duplicate keeps the state it was moved to. */
export async function removeRelation(ctx: OperationContext, taskId: TaskId, otherId: TaskId): Promise<void> {
  const task = await requireTask(ctx, taskId)
  const other = await requireTask(ctx, otherId)
  const relation = await ctx.store.taskRelations.get(task.orgId, task.id, other.id)
  // Idempotent: a pair that is not related is already as asked (204, nothing recorded or emitted).
  if (!relation) return
  if (relation.type === 'duplicatedBy') await ctx.require('contribute', { type: 'task', id: other.id })
  await ctx.store.taskRelations.remove(task.orgId, task.id, other.id)
  const mirror =
    relation.type === 'related' ? 'related' : relation.type === 'duplicateOf' ? 'duplicatedBy' : 'duplicateOf'
  await recordRelation(ctx, task, other, relation.type, mirror, 'removed')
}

/** The task's relations whose other task the caller can view, by the other task's id. */
export async function listRelations(
  ctx: OperationContext,
  taskId: TaskId,
  query: { cursor?: string; limit?: number },
): Promise<Page<TaskRelation>> {
  const task = await requireTask(ctx, taskId)
  const page = await readPage(ctx, {
    scope: ['taskRelations.list', task.orgId, task.id],
    query,
    sort: 'id' as const,
    direction: 'asc',
    keyOf: (r: TaskRelation & { id: string }) => r.id,
    fetch: async (p) =>
      (await ctx.store.taskRelations.list(task.orgId, task.id, p, await ctx.scope())).map((r) => ({
        ...r,
        id: r.task.id as string,
      })),
  })
  return { data: page.data.map(({ id: _id, ...r }) => r), nextCursor: page.nextCursor }
}

async function recordRelation(
  ctx: OperationContext,
  task: Task,
  other: Task,
  type: RelationType,
  mirrorType: RelationType,
  verb: 'added' | 'removed',
) {
  const added = verb === 'added'
  await recordTaskHistory(ctx, task, [
    { field: type, before: added ? null : other.id, after: added ? other.id : null },
  ])
  await recordTaskHistory(ctx, other, [
    { field: mirrorType, before: added ? null : task.id, after: added ? task.id : null },
  ])
  ctx.emit({
    kind: added ? 'task_relation.created' : 'task_relation.deleted',
    resourceType: 'task_relation',
    resourceId: task.id,
    teamId: task.teamId,
    data: { type, taskId: task.id, relatedId: other.id },
  })
}
