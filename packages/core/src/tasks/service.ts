import type { CustomFieldValue } from '../fields/schemas.ts'
import { fieldChangeEntries, planFieldValues, writeFieldValues } from '../fields/values.ts'
import { currentOrg } from '../kernel/context.ts'
import { changesOf, changesOfFields } from '../kernel/history-entry.ts'
import type {
  CycleId,
  LabelId,
  MemberId,
  MilestoneId,
  ProjectId,
  StateId,
  TaskId,
  TeamId,
} from '../kernel/ids.ts'
import { lifecycleStamps } from '../kernel/lifecycle.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { ProblemError } from '../kernel/problems.ts'
import { dropLabelsOfOtherTeams } from '../labels/service.ts'
import type { StateCategory, WorkflowState } from '../teams/schemas.ts'
import { archivedFilter } from '../teams/service.ts'
import { checkEstimate } from '../teams/settings.ts'
import { assertCycleForTask } from './cycle.ts'
import { fieldSortValue } from './fields/order.ts'
import { applyFieldQuery } from './fields/query.ts'
import { fieldChanges, taskHolder } from './fields/values.ts'
import type { TaskCondition } from './filter/condition.ts'
import { idsCondition, resolveTaskFilter } from './filter/filter.ts'
import type { TaskFilterInput } from './filter/schema.ts'
import { recordTaskHistory } from './history/history.ts'
import { TASK_HISTORY_FIELDS, type TaskHistoryChange } from './history/schemas.ts'
import { planTeamMove } from './keys.ts'
import { checkTaskLabels, writeTaskLabels } from './labels/labels.ts'
import { taskSortValue } from './order.ts'
import { projectPlacement } from './project.ts'
import { ranksOnEnter } from './rank/rank.ts'
import { type ChildrenPolicy, checkParent, detachChildren, settleChildren } from './relations/subtasks.ts'
import { requireTask } from './require-task.ts'
import type { Priority, Task } from './schemas.ts'
import { type ListTasksQuery, searchFilter } from './search/search.ts'
import type { TaskFilter, TaskSort } from './storage.ts'
import { autoSubscribe } from './subscribers.ts'
import { activeMember, checkDates, stateNotOfTeam } from './task-checks.ts'

export interface TaskFields {
  title?: string
  description?: string | null
  stateId?: StateId
  assigneeId?: MemberId | null
  priority?: Priority
  estimate?: number | null
  dueDate?: string | null
  startDate?: string | null
  parentId?: TaskId | null
  /** Moving to another team: see `planTeamMove`. */
  teamId?: TeamId
  cycleId?: CycleId | null
  projectId?: ProjectId | null
  milestoneId?: MilestoneId | null
  /** The task's whole label set (see `checkTaskLabels`); on update it replaces the current one. */
  labelIds?: LabelId[]
  /** Custom field values by field id; null clears one (see fields/values.ts). */
  fields?: Record<string, CustomFieldValue | null>
}

export async function updateTask(
  ctx: OperationContext,
  taskId: TaskId,
  { labelIds, fields: values, ...fields }: TaskFields,
): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && task[k as keyof Task] !== v),
  ) as Omit<TaskFields, 'fields'>
  // A move re-checks the list against the new team even when the set stays the same.
  const relabel =
    labelIds !== undefined && (!sameSet(labelIds, task.labelIds) || changed.teamId !== undefined)
  // Field values are checked against the team the task ends up in.
  const holder = taskHolder({ ...task, teamId: changed.teamId ?? task.teamId })
  const fieldPlan = values ? await planFieldValues(ctx, holder, values, '/body/fields') : []
  if (Object.keys(changed).length === 0 && !relabel && fieldPlan.length === 0) return task
  if ('assigneeId' in changed) {
    await ctx.require('assign', { type: 'task', id: task.id })
    if (changed.assigneeId) await activeMember(ctx, changed.assigneeId)
  }
  if (changed.estimate != null || (changed.teamId && task.estimate != null)) {
    const estimate = changed.estimate ?? task.estimate!
    await checkEstimate(ctx, task.orgId, changed.teamId ?? task.teamId, estimate, '/body/estimate')
  }
  if ('startDate' in changed || 'dueDate' in changed) {
    checkDates(
      changed.startDate !== undefined ? changed.startDate : task.startDate,
      changed.dueDate !== undefined ? changed.dueDate : task.dueDate,
    )
  }
  if (changed.parentId) await checkParent(ctx, task.id, changed.parentId)
  let move: { number: number } | null = null
  if (changed.teamId) {
    const plan = await planTeamMove(ctx, task, changed.teamId, changed.stateId)
    move = { number: plan.number }
    if (plan.stateId !== task.stateId) changed.stateId = plan.stateId
  }
  // A task's cycle is one of its team's: moving to another team takes it out of the old team's cycle.
  if (changed.teamId && task.cycleId && changed.cycleId === undefined) changed.cycleId = null
  if (changed.cycleId) await assertCycleForTask(ctx, changed.cycleId, changed.teamId ?? task.teamId)
  // Checked against what the request names, changed or not: `{ projectId: same, milestoneId: other's }` is refused.
  if ('projectId' in changed || 'milestoneId' in changed) {
    delete changed.projectId
    delete changed.milestoneId
    const named = { projectId: fields.projectId, milestoneId: fields.milestoneId }
    Object.assign(changed, await projectPlacement(ctx, task, named))
  }
  if (relabel) await checkTaskLabels(ctx, task, labelIds, changed.teamId ?? task.teamId)
  let stamps = {}
  if (changed.stateId) {
    const state = await stateOfTeam(ctx, changed.stateId, changed.teamId ?? task.teamId)
    stamps = lifecycleStamps(task.stateCategory, state.category, task, ctx.now)
  }
  // A task arriving in another board column, project or cycle goes last there.
  const ranks = await ranksOnEnter(ctx, task.orgId, task, {
    stateId: changed.stateId ?? task.stateId,
    projectId: changed.projectId !== undefined ? changed.projectId : task.projectId,
    cycleId: changed.cycleId !== undefined ? changed.cycleId : task.cycleId,
  })
  await ctx.store.tasks.update(task.orgId, task.id, {
    ...changed,
    ...stamps,
    ...ranks,
    ...(move ?? {}),
    updatedAt: ctx.now,
  })
  // Team labels of the old team do not apply in the new one.
  const labelsDropped = relabel
    ? await writeTaskLabels(ctx, task, labelIds)
    : move
      ? await dropLabelsOfOtherTeams(ctx, task, changed.teamId!)
      : false
  await writeFieldValues(ctx, holder, fieldPlan)
  const next = await requireTask(ctx, task.id)
  const history: TaskHistoryChange[] = changesOfFields(TASK_HISTORY_FIELDS, task, changed)
  if (next.key !== task.key) history.push({ field: 'key', before: task.key, after: next.key })
  if (labelsDropped) history.push({ field: 'labelIds', before: task.labelIds, after: next.labelIds })
  history.push(...fieldChangeEntries(fieldPlan))
  await recordTaskHistory(ctx, task, history)
  if (changed.assigneeId) await autoSubscribe(ctx, next, changed.assigneeId)
  ctx.emit({
    kind: 'task.updated',
    resourceType: 'task',
    resourceId: task.id,
    teamId: next.teamId,
    data: {
      task: next,
      changes: {
        ...changesOf(task, {
          ...changed,
          ...stamps,
          ...(labelsDropped ? { labelIds: next.labelIds } : {}),
        }),
        ...fieldChanges(task, fieldPlan),
      },
    },
  })
  return next
}

export async function setTaskArchived(
  ctx: OperationContext,
  taskId: TaskId,
  archived: boolean,
  children?: ChildrenPolicy,
): Promise<Task> {
  const task = await requireTask(ctx, taskId)
  if (Boolean(task.archivedAt) === archived) return task
  if (archived) await settleChildren(ctx, task, children)
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
  // What pointed at the task goes with it; its subtasks become top-level tasks.
  await ctx.store.taskDependencies.removeAllOf(task.orgId, task.id)
  await ctx.store.taskRelations.removeAllOf(task.orgId, task.id)
  await detachChildren(ctx, task)
  ctx.emit({
    kind: 'task.deleted',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { id: task.id, key: task.key },
  })
}

/**
 * One page of tasks the caller can view: the query of `tasks.list`, or the body of `tasks.query`
 * with its composed `filter` (resolved at `filterPointer`), and for `matchingTaskIds` a set of ids.
 */
export async function listTasks(
  ctx: OperationContext,
  query: ListTasksQuery & { filter?: TaskFilterInput },
  options: { filterPointer?: string; ids?: readonly TaskId[] } = {},
): Promise<Page<Task>> {
  const orgId = currentOrg(ctx).id
  const filter: TaskFilter = { archived: archivedFilter(query.archived) }
  const parts: TaskCondition[] = []
  if (query.filter)
    parts.push(await resolveTaskFilter(ctx, query.filter, options.filterPointer ?? '/body/filter'))
  if (options.ids) parts.push(idsCondition(options.ids))
  if (parts.length) filter.where = parts.length === 1 ? parts[0]! : { kind: 'and', of: parts }
  if (query.teamId) filter.teamId = query.teamId
  if (query.stateId) filter.stateId = query.stateId
  if (query.stateCategory) filter.stateCategory = query.stateCategory.split(',') as StateCategory[]
  if (query.assigneeId)
    filter.assigneeId = query.assigneeId === 'none' ? null : (query.assigneeId as MemberId)
  if (query.priority) filter.priority = query.priority
  if (query.cycleId) filter.cycleId = query.cycleId === 'none' ? null : (query.cycleId as CycleId)
  if (query.projectId) filter.projectId = query.projectId === 'none' ? null : (query.projectId as ProjectId)
  if (query.milestoneId)
    filter.milestoneId = query.milestoneId === 'none' ? null : (query.milestoneId as MilestoneId)
  if (query.updatedSince) filter.updatedSince = new Date(query.updatedSince).toISOString()
  Object.assign(filter, searchFilter(query))
  const fieldDirection = await applyFieldQuery(ctx, query, filter)
  const sortParam = query.sort ?? '-createdAt'
  const sort = fieldDirection
    ? 'field'
    : sortParam === 'rank'
      ? rankSortOf(filter)
      : (sortParam.replace('-', '') as TaskSort)
  const direction = fieldDirection ?? (sortParam.startsWith('-') ? 'desc' : 'asc')
  const sortField = filter.sortField
  // A rank is not part of a task: the page's ranks are read with it, for the cursor.
  let ranks = new Map<TaskId, string | null>()
  return readPage(ctx, {
    // Filters name fields by id only: a cursor outlives a rename or an option reorder of the field.
    // The filter as sent, relative times unresolved: a cursor keeps working while time passes.
    scope: ['tasks.list', orgId, cursorScope(filter), query.filter ?? null, options.ids ?? null],
    query,
    sort,
    direction,
    keyOf: (t: Task) =>
      sortField
        ? fieldSortValue(t, sortField, direction)
        : sort.endsWith('Rank')
          ? (ranks.get(t.id) ?? null)
          : taskSortValue(t, sort, direction),
    fetch: async (page) => {
      const tasks = await ctx.store.tasks.list(orgId, filter, page, await ctx.scope())
      if (sort.endsWith('Rank')) {
        const kind = sort.replace('Rank', '') as 'board' | 'project' | 'cycle'
        ranks = await ctx.store.taskRanks.ranksOf(
          orgId,
          kind,
          tasks.map((t) => t.id),
        )
      }
      return tasks
    },
  })
}

/**
 * `sort=rank` orders by the hand-made order of the one list the filters name: the project's with
 * `projectId`, else the cycle's with `cycleId`, else the board column's with `stateId`.
 */
function rankSortOf(filter: TaskFilter): TaskSort {
  if (filter.projectId) return 'projectRank'
  if (filter.cycleId) return 'cycleRank'
  if (filter.stateId) return 'boardRank'
  throw new ProblemError(
    'rule_violated',
    '`sort=rank` orders one list: name it with `projectId`, `cycleId` or `stateId`.',
    {
      errors: [{ pointer: '/query/sort', message: 'Needs projectId, cycleId or stateId' }],
    },
  )
}

/** The filter as a cursor's scope: custom fields by id and, for a select sort, its option order. */
function cursorScope({ customField, sortField, where: _where, ...filter }: TaskFilter) {
  return {
    ...filter,
    ...(customField ? { customField: { id: customField.field.id, equals: customField.equals } } : {}),
    ...(sortField ? { sortField: [sortField.id, sortField.options.map((o) => o.id)] } : {}),
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x))
}

async function stateOfTeam(ctx: OperationContext, stateId: StateId, teamId: TeamId): Promise<WorkflowState> {
  const state = await ctx.store.states.get(currentOrg(ctx).id, stateId)
  if (!state || state.teamId !== teamId || state.archivedAt) throw stateNotOfTeam()
  return state
}
