import { type CycleId, type MemberId, newId, type StateId, type TaskId, type TeamId } from '../ids.ts'
import type { OperationContext } from '../operation.ts'
import type { Page } from '../pagination.ts'
import { notFound, ProblemError } from '../problems.ts'
import type { Priority, Task } from '../schemas/tasks.ts'
import type { StateCategory, WorkflowState } from '../schemas/teams.ts'
import type { TaskFilter, TaskRecord, TaskSort } from '../storage.ts'
import { changesOf, currentOrg } from './orgs.ts'
import { readPage } from './paging.ts'
import { assertCycleForTask } from './task-cycle.ts'
import { CREATED_FIELD, recordTaskHistory } from './task-history.ts'
import { archivedFilter, defaultState, requireTeam } from './teams.ts'

export interface TaskFields {
  title?: string
  description?: string | null
  stateId?: StateId
  assigneeId?: MemberId | null
  priority?: Priority
  estimate?: number | null
  dueDate?: string | null
  cycleId?: CycleId | null
}

export interface ListTasksQuery {
  cursor?: string
  limit?: number
  teamId?: TeamId
  stateId?: StateId
  stateCategory?: string
  assigneeId?: string
  priority?: Priority
  cycleId?: string
  updatedSince?: string
  archived?: 'exclude' | 'only' | 'include'
  sort?: 'createdAt' | '-createdAt' | 'updatedAt' | '-updatedAt'
}

export async function requireTask(ctx: OperationContext, taskId: TaskId): Promise<Task> {
  const task = await ctx.store.tasks.get(currentOrg(ctx).id, taskId, await ctx.scope())
  if (!task) throw notFound('Task')
  return task
}

export async function createTask(
  ctx: OperationContext,
  input: TaskFields & { teamId: TeamId; title: string },
): Promise<Task> {
  const team = await requireTeam(ctx, input.teamId)
  if (team.archivedAt)
    throw new ProblemError('archived', 'The team is archived; restore it before adding tasks.')
  const state = input.stateId
    ? await stateOfTeam(ctx, input.stateId, team.id)
    : await defaultState(ctx, team.id)
  if (input.assigneeId) await ctx.require('assign', { type: 'team', id: team.id })
  if (input.assigneeId) await activeMember(ctx, input.assigneeId)
  if (input.cycleId) await assertCycleForTask(ctx, input.cycleId, team.id)
  const number = await ctx.store.teams.nextTaskNumber(team.orgId, team.id)
  const record: TaskRecord = {
    id: newId('TaskId'),
    orgId: team.orgId,
    teamId: team.id,
    number,
    title: input.title,
    description: input.description ?? null,
    stateId: state.id,
    assigneeId: input.assigneeId ?? null,
    creatorId: ctx.actor!.id,
    priority: input.priority ?? 'none',
    estimate: input.estimate ?? null,
    dueDate: input.dueDate ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    ...emptyStamps(),
    ...lifecycleStamps(null, state.category, emptyStamps(), ctx.now),
    archivedAt: null,
    cycleId: input.cycleId ?? null,
  }
  await ctx.store.tasks.insert(record)
  const task = await requireTask(ctx, record.id)
  await recordTaskHistory(ctx, task, [
    { field: CREATED_FIELD, before: null, after: { key: task.key, title: task.title } },
  ])
  ctx.emit({
    kind: 'task.created',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { task },
  })
  return task
}

export async function updateTask(ctx: OperationContext, taskId: TaskId, fields: TaskFields): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && task[k as keyof Task] !== v),
  ) as TaskFields
  if (Object.keys(changed).length === 0) return task
  if ('assigneeId' in changed) {
    await ctx.require('assign', { type: 'task', id: task.id })
    if (changed.assigneeId) await activeMember(ctx, changed.assigneeId)
  }
  if (changed.cycleId) await assertCycleForTask(ctx, changed.cycleId, task.teamId)
  let stamps = {}
  if (changed.stateId) {
    const state = await stateOfTeam(ctx, changed.stateId, task.teamId)
    stamps = lifecycleStamps(task.stateCategory, state.category, task, ctx.now)
  }
  await ctx.store.tasks.update(task.orgId, task.id, { ...changed, ...stamps, updatedAt: ctx.now })
  const next = await requireTask(ctx, task.id)
  await recordTaskHistory(ctx, task, historyOf(task, changed))
  ctx.emit({
    kind: 'task.updated',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { task: next, changes: changesOf(task, { ...changed, ...stamps }) },
  })
  return next
}

export async function setTaskArchived(
  ctx: OperationContext,
  taskId: TaskId,
  archived: boolean,
): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  if (Boolean(task.archivedAt) === archived) return task
  await ctx.store.tasks.update(task.orgId, task.id, {
    archivedAt: archived ? ctx.now : null,
    updatedAt: ctx.now,
  })
  const next = await requireTask(ctx, task.id)
  await recordTaskHistory(ctx, task, [
    { field: 'archivedAt', before: task.archivedAt, after: next.archivedAt },
  ])
  ctx.emit({
    kind: archived ? 'task.archived' : 'task.restored',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { task: next },
  })
  return next
}

export async function deleteTask(ctx: OperationContext, taskId: TaskId): Promise<void> {
  const task = await requireTask(ctx, taskId)
  await ctx.store.tasks.delete(task.orgId, task.id, ctx.now)
  ctx.emit({
    kind: 'task.deleted',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { id: task.id, key: task.key },
  })
}

export async function listTasks(ctx: OperationContext, query: ListTasksQuery): Promise<Page<Task>> {
  const orgId = currentOrg(ctx).id
  const filter: TaskFilter = { archived: archivedFilter(query.archived) }
  if (query.teamId) filter.teamId = query.teamId
  if (query.stateId) filter.stateId = query.stateId
  if (query.stateCategory) filter.stateCategory = query.stateCategory.split(',') as StateCategory[]
  if (query.assigneeId)
    filter.assigneeId = query.assigneeId === 'none' ? null : (query.assigneeId as MemberId)
  if (query.priority) filter.priority = query.priority
  if (query.cycleId) filter.cycleId = query.cycleId === 'none' ? null : (query.cycleId as CycleId)
  if (query.updatedSince) filter.updatedSince = new Date(query.updatedSince).toISOString()
  const sortParam = query.sort ?? '-createdAt'
  const sort = sortParam.replace('-', '') as TaskSort
  return readPage(ctx, {
    scope: ['tasks.list', orgId, filter],
    query,
    sort,
    direction: sortParam.startsWith('-') ? 'desc' : 'asc',
    keyOf: (t: Task) => t[sort],
    fetch: async (page) => ctx.store.tasks.list(orgId, filter, page, await ctx.scope()),
  })
}

/** One history entry per field the request changed; lifecycle stamps follow from `stateId`. */
function historyOf(
  task: Task,
  changed: TaskFields,
): Array<{ field: string; before: unknown; after: unknown }> {
  return Object.entries(changed).map(([field, after]) => ({
    field,
    before: task[field as keyof Task] ?? null,
    after: after ?? null,
  }))
}

type Stamps = Pick<Task, 'startedAt' | 'completedAt' | 'canceledAt'>

function emptyStamps(): Stamps {
  return { startedAt: null, completedAt: null, canceledAt: null }
}

/** Lifecycle timestamps after moving from one state category to another. */
function lifecycleStamps(
  from: StateCategory | null,
  to: StateCategory,
  current: Stamps,
  now: string,
): Partial<Stamps> {
  if (from === to) return {}
  const stamps: Partial<Stamps> = {}
  if ((to === 'started' || to === 'completed') && !current.startedAt) stamps.startedAt = now
  stamps.completedAt = to === 'completed' ? now : null
  stamps.canceledAt = to === 'canceled' ? now : null
  return Object.fromEntries(Object.entries(stamps).filter(([k, v]) => current[k as keyof Stamps] !== v))
}

async function stateOfTeam(ctx: OperationContext, stateId: StateId, teamId: TeamId): Promise<WorkflowState> {
  const state = await ctx.store.states.get(currentOrg(ctx).id, stateId)
  if (!state || state.teamId !== teamId || state.archivedAt) {
    throw new ProblemError(
      'reference_not_found',
      "The state is not an active workflow state of the task's team.",
      {
        errors: [{ pointer: '/body/stateId', message: "Not an active state of the task's team" }],
      },
    )
  }
  return state
}

async function activeMember(ctx: OperationContext, memberId: MemberId): Promise<void> {
  const member = await ctx.store.members.get(currentOrg(ctx).id, memberId)
  if (!member || member.status !== 'active') {
    throw new ProblemError('reference_not_found', 'The assignee is not an active member of this workspace.', {
      errors: [{ pointer: '/body/assigneeId', message: 'Not an active member of this workspace' }],
    })
  }
}
