import type { CustomFieldValues } from '../fields/schemas.ts'
import { type FieldChange, fieldChangeEntries, planFieldValues } from '../fields/values.ts'
import { currentOrg } from '../kernel/context.ts'
import { type ActorId, type CustomFieldId, newId, type StateId, type TeamId } from '../kernel/ids.ts'
import { EMPTY_STAMPS, lifecycleStamps } from '../kernel/lifecycle.ts'
import type { OperationContext, Prefetched } from '../kernel/operation.ts'
import type { Container } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { inBody } from '../kernel/references.ts'
import type { Team, WorkflowState } from '../teams/schemas.ts'
import { chooseDefaultState } from '../teams/service.ts'
import { checkEstimate, intakeState, triageAssignee } from '../teams/settings.ts'
import { DEFAULT_TEAM_SETTINGS } from '../teams/settings-schemas.ts'
import { assertCycleForTask } from './cycle.ts'
import { CREATED_FIELD, taskHistoryRecords } from './history/history.ts'
import type { TaskIntake } from './intake-storage.ts'
import { checkTaskLabels } from './labels/labels.ts'
import { projectPlacement } from './project.ts'
import { numberAndRanksOfNewTask } from './rank/rank.ts'
import { checkParent } from './relations/subtasks.ts'
import type { Task } from './schemas.ts'
import type { TaskFields } from './service.ts'
import type { NewTaskRows, TaskRecord } from './storage.ts'
import { activeMember, checkDates, stateNotOfTeam } from './task-checks.ts'

/**
 * Creates a task. What it checks of the team (visibility, archive, settings, active states), the
 * project, the labels and the custom fields comes from one read (`taskIntake`; `read` when
 * `tasks.create` prefetched it), judged in the order the checks always ran, so the first problem
 * named is the same. The task, its labels, values, history and subscriptions are written together
 * (`tasks.create`); the answer is the inserted row through storage's own mapping, with the labels
 * and field values the create wrote.
 */
export async function createTask(
  ctx: OperationContext,
  input: TaskFields & { teamId: TeamId; title: string },
  read?: TaskIntake,
): Promise<Task> {
  const labelIds = input.labelIds ?? []
  const intake = read ?? (await readIntake(ctx, input))
  const scope = await ctx.scope()
  // The team as `teams.get` reads it with the caller's scope.
  const team = await inBody('/body/teamId', 'No team with this id that you can view.', async () => {
    const found = intake.team
    if (!found || !(scope.orgWide || scope.teamIds.includes(found.id))) throw notFound('Team')
    return found
  })
  if (team.archivedAt)
    throw new ProblemError('archived', 'The team is archived; restore it before adding tasks.')
  const settings = intake.settings ?? { teamId: team.id, ...DEFAULT_TEAM_SETTINGS }
  const state = input.stateId
    ? activeStateOf(intake.states, input.stateId)
    : ((await intakeState(ctx, team, settings, intake.states)) ??
      chooseDefaultState(intake.states, settings.defaultStateId))
  // The team was read: its containers are the org and itself, as its resolver would answer.
  if (input.assigneeId) await ctx.require('assign', { type: 'team', id: team.id }, teamContainers(team))
  if (input.assigneeId) await activeMember(ctx, input.assigneeId)
  // A new triage item goes to the team's triage handler when the triage settings say so.
  const assigneeId =
    input.assigneeId ?? (state.category === 'triage' ? await triageAssignee(ctx, team, settings) : null)
  if (input.estimate != null)
    await checkEstimate(ctx, team.orgId, team.id, input.estimate, '/body/estimate', settings)
  checkDates(input.startDate ?? null, input.dueDate ?? null)
  if (input.parentId) await checkParent(ctx, null, input.parentId)
  if (input.cycleId) await assertCycleForTask(ctx, input.cycleId, team.id)
  const placement = await projectPlacement(
    ctx,
    null,
    input,
    input.projectId ? { projectId: input.projectId, placement: intake.project } : undefined,
  )
  const id = newId('TaskId')
  await checkTaskLabels(ctx, { id, orgId: team.orgId, labelIds: [] }, labelIds, team.id, intake.labels)
  const holder = { orgId: team.orgId, kind: 'task', id, teamIds: [team.id], fields: {} } as const
  const fieldPlan = input.fields
    ? await planFieldValues(ctx, holder, input.fields, '/body/fields', intake.fields)
    : []
  const lists = { stateId: state.id, projectId: placement.projectId ?? null, cycleId: input.cycleId ?? null }
  const { number, ranks } = await numberAndRanksOfNewTask(ctx, team.orgId, team.id, lists)
  const record: TaskRecord = {
    id,
    orgId: team.orgId,
    teamId: team.id,
    number,
    title: input.title,
    description: input.description ?? null,
    stateId: state.id,
    assigneeId,
    creatorId: ctx.actor!.id,
    priority: input.priority ?? 'none',
    estimate: input.estimate ?? null,
    dueDate: input.dueDate ?? null,
    startDate: input.startDate ?? null,
    parentId: input.parentId ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    ...EMPTY_STAMPS,
    ...lifecycleStamps(null, state.category, EMPTY_STAMPS, ctx.now),
    archivedAt: null,
    cycleId: input.cycleId ?? null,
    projectId: placement.projectId ?? null,
    milestoneId: placement.milestoneId ?? null,
    ...ranks,
  }
  // Its labels, all put on at the create's instant, read in id order (storage orders by time, then id).
  const sortedLabelIds = [...labelIds].sort()
  const creatorId = ctx.actor!.id
  // What the single writes stored (labels, values, history, the creator's and assignee's
  // subscriptions), written with the task: a new task carries no label or value before.
  const rows: NewTaskRows = {
    labelIds,
    fieldValues: fieldPlan.filter((c) => c.after !== null).map((c) => ({ field: c.field, value: c.after! })),
    history: taskHistoryRecords(ctx, record, [
      { field: CREATED_FIELD, before: null, after: { key: `${team.key}-${number}`, title: record.title } },
      ...(labelIds.length ? [{ field: 'labelIds' as const, before: [], after: sortedLabelIds }] : []),
      ...fieldChangeEntries(fieldPlan),
    ]),
    subscriberIds: [...new Set<ActorId>([creatorId, ...(assigneeId ? [assigneeId] : [])])],
    by: { actorId: creatorId, at: ctx.now },
  }
  const row = await ctx.store.tasks.create(record, { teamKey: team.key, stateCategory: state.category }, rows)
  const task: Task = { ...row, labelIds: sortedLabelIds, fields: valuesOf(fieldPlan) }
  ctx.emit({
    kind: 'task.created',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { task },
  })
  return task
}

/**
 * `tasks.create`'s read before its capability check (`Operation.prefetch`): the intake, whose team
 * (read whoever may view it) gives the check its containers, as the team's target resolver would.
 */
export async function prefetchIntake(
  ctx: OperationContext,
  input: TaskFields & { teamId: TeamId },
): Promise<Prefetched> {
  const intake = await readIntake(ctx, input)
  return { read: intake, containers: intake.team ? teamContainers(intake.team) : null }
}

/** What the team target resolver answers for an existing team: the org and the team. */
function teamContainers(team: Team): Container[] {
  return [
    { type: 'org', id: team.orgId },
    { type: 'team', id: team.id },
  ]
}

/** Everything a create checks, in one read (`taskIntake`). */
function readIntake(ctx: OperationContext, input: TaskFields & { teamId: TeamId }): Promise<TaskIntake> {
  const request = {
    teamId: input.teamId,
    projectId: input.projectId ?? null,
    labelIds: input.labelIds ?? [],
    fieldIds: Object.keys(input.fields ?? {}) as CustomFieldId[],
  }
  return ctx.scope().then((scope) => ctx.store.taskIntake.read(currentOrg(ctx).id, request, scope))
}

/** A state the request names: one of the team's active states, or a `reference_not_found`. */
function activeStateOf(states: readonly WorkflowState[], stateId: StateId): WorkflowState {
  const state = states.find((s) => s.id === stateId)
  if (!state) throw stateNotOfTeam()
  return state
}

/** The new task's values as a read answers them: in field id order (storage's). */
function valuesOf(fieldPlan: readonly FieldChange[]): CustomFieldValues {
  const fields: CustomFieldValues = {}
  const set = fieldPlan.filter((c) => c.after !== null).sort((a, b) => (a.field.id < b.field.id ? -1 : 1))
  for (const c of set) fields[c.field.id] = c.after!
  return fields
}
