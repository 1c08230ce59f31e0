import type { ActorId, CycleId, LabelId, MemberId, StateId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { ProblemError } from '../kernel/problems.ts'
import { createTask } from '../tasks/create.ts'
import type { TriageDuplicateHook } from '../tasks/relations/relations.ts'
import { requireTask } from '../tasks/require-task.ts'
import type { Priority, Task } from '../tasks/schemas.ts'
import { updateTask } from '../tasks/service.ts'
import type { TaskFilter } from '../tasks/storage.ts'
import { defaultState, requireTeam } from '../teams/service.ts'
import { teamSettingsOf, triageStateOf } from '../teams/settings.ts'
import type { TriageItem, TriageOutcome } from './schemas.ts'
import './storage.ts'

/** The team's triage queue, oldest first; snoozed items only with `includeSnoozed`. */
export async function listTriage(
  ctx: OperationContext,
  teamId: TeamId,
  query: { includeSnoozed?: boolean; cursor?: string; limit?: number },
): Promise<Page<TriageItem>> {
  const team = await requireTeam(ctx, teamId)
  const filter: TaskFilter = { teamId: team.id, stateCategory: ['triage'], archived: false }
  if (!query.includeSnoozed) filter.awakeAt = ctx.now
  const page = await readPage(ctx, {
    // The clock is not part of the scope: an item that wakes between two pages is simply included.
    scope: ['triage.list', team.orgId, team.id, Boolean(query.includeSnoozed)],
    query,
    sort: 'createdAt' as const,
    direction: 'asc',
    keyOf: (t: Task) => t.createdAt,
    fetch: async (p) => ctx.store.tasks.list(team.orgId, filter, p, await ctx.scope()),
  })
  const snoozes = await ctx.store.triageSnoozes.ofTasks(
    team.orgId,
    page.data.map((t) => t.id as TaskId),
  )
  return {
    data: page.data.map((task) => ({
      id: task.id,
      task,
      snoozedUntil: snoozes.get(task.id as TaskId) ?? null,
    })),
    nextCursor: page.nextCursor,
  }
}

/** Files a request into the team's triage: needs only `comment` on the team, and triage on. */
export async function fileTriageRequest(
  ctx: OperationContext,
  teamId: TeamId,
  input: { title: string; description?: string | null; priority?: Priority },
): Promise<Task> {
  const team = await requireTeam(ctx, teamId)
  const settings = await teamSettingsOf(ctx.store, team.orgId, team.id)
  const state = settings.triageEnabled ? await triageStateOf(ctx, team.orgId, team.id) : null
  if (!state) {
    throw new ProblemError(
      'triage_disabled',
      'The team does not take requests into triage; a manager turns it on in the team settings.',
    )
  }
  return createTask(ctx, { ...input, teamId: team.id, stateId: state.id as StateId })
}

/** Accepts a triage item into a state (the team's default state when left out), with an assignee, labels and a cycle. */
export async function acceptTriage(
  ctx: OperationContext,
  taskId: TaskId,
  input: { stateId?: StateId; assigneeId?: MemberId | null; labelIds?: LabelId[]; cycleId?: CycleId | null },
): Promise<Task> {
  const task = await requireTriageItem(ctx, taskId)
  const stateId = input.stateId ?? ((await defaultState(ctx, task.teamId)).id as StateId)
  const target = await ctx.store.states.get(task.orgId, stateId)
  if (target?.category === 'triage') {
    throw new ProblemError('rule_violated', 'Accepting moves the task out of triage.', {
      errors: [{ pointer: '/body/stateId', message: 'Must not be a triage state' }],
    })
  }
  const labelIds = input.labelIds ? [...new Set([...task.labelIds, ...input.labelIds])] : undefined
  const next = await updateTask(ctx, task.id, {
    stateId,
    ...(input.assigneeId !== undefined ? { assigneeId: input.assigneeId } : {}),
    ...(input.cycleId !== undefined ? { cycleId: input.cycleId } : {}),
    ...(labelIds ? { labelIds: labelIds as LabelId[] } : {}),
  })
  return settle(ctx, next, 'accepted', {})
}

/** Declines a triage item: it moves to the team's first canceled state and the requester is told why. */
export async function declineTriage(ctx: OperationContext, taskId: TaskId, reason: string): Promise<Task> {
  const task = await requireTriageItem(ctx, taskId)
  const states = await ctx.store.states.listForTeam(task.orgId, task.teamId, { includeArchived: false })
  const canceled = states.find((s) => s.category === 'canceled')
  if (!canceled) throw new ProblemError('conflict', 'The team has no active canceled state to decline into.')
  const next = await updateTask(ctx, task.id, { stateId: canceled.id as StateId })
  return settle(ctx, next, 'declined', { reason })
}

/**
 * Settles a triage item marked a duplicate of another task: `tasks.relations.add` with
 * `duplicateOf` cancels it and calls this through the hook `tasks.triageDuplicate`.
 */
export const settleTriageDuplicate: TriageDuplicateHook = async (ctx, task, duplicateOfId) => {
  await settle(ctx, task, 'duplicate', { duplicateOfId })
}

/** Hides a triage item from the queue until `until`; snoozing again replaces the time. */
export async function snoozeTriage(
  ctx: OperationContext,
  taskId: TaskId,
  until: string,
): Promise<TriageItem> {
  const task = await requireTriageItem(ctx, taskId)
  const snoozedUntil = new Date(until).toISOString()
  if (snoozedUntil <= ctx.now) {
    throw new ProblemError('rule_violated', 'A snooze ends in the future.', {
      errors: [{ pointer: '/body/until', message: 'Must be after now' }],
    })
  }
  await ctx.store.triageSnoozes.put(task.orgId, task.id as TaskId, snoozedUntil, ctx.actor!.id as ActorId)
  ctx.emit({
    kind: 'task.triage_snoozed',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { taskId: task.id, key: task.key, snoozedUntil },
  })
  return { id: task.id, task, snoozedUntil }
}

async function requireTriageItem(ctx: OperationContext, taskId: TaskId): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  if (task.stateCategory !== 'triage' || task.archivedAt)
    throw new ProblemError('not_in_triage', `${task.key} is not waiting in triage.`)
  return task
}

/** Clears the snooze and records the outcome; the event tells the requester (notifications). */
async function settle(
  ctx: OperationContext,
  task: Task,
  outcome: TriageOutcome,
  detail: { reason?: string; duplicateOfId?: TaskId },
): Promise<Task> {
  await ctx.store.triageSnoozes.clear(task.orgId, task.id as TaskId)
  ctx.emit({
    kind: 'task.triaged',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: {
      task,
      outcome,
      requesterId: task.creatorId,
      reason: detail.reason ?? null,
      duplicateOfId: detail.duplicateOfId ?? null,
    },
  })
  return task
}
