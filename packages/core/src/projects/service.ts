import type { Weekday } from '../cycles/schemas.ts'
import type { CustomFieldValue } from '../fields/schemas.ts'
import { fieldChangeEntries, planFieldValues, writeFieldValues } from '../fields/values.ts'
import { currentOrg } from '../kernel/context.ts'
import { changesOf, changesOfFields } from '../kernel/history-entry.ts'
import {
  type ActorId,
  type LabelId,
  type MemberId,
  newId,
  type ProjectId,
  type ProjectStatusId,
  type TaskId,
  type TeamId,
} from '../kernel/ids.ts'
import { EMPTY_STAMPS, type LifecycleStamps, lifecycleStamps } from '../kernel/lifecycle.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import type { Priority } from '../tasks/schemas.ts'
import { archivedFilter, requireTeam } from '../teams/service.ts'
import { projectCadenceDefault, withCadence } from './cadence.ts'
import { type ClosingChoice, settleOpenTasks } from './closing.ts'
import { autoFollow } from './followers.ts'
import { PROJECT_HISTORY_FIELDS, recordProjectHistory } from './history/records.ts'
import { joinProject } from './members/membership.ts'
import { emitProject, unscopedProject } from './project-records.ts'
import type { Project, ProjectStatus, ProjectStatusCategory, ProjectTeam, UpdateCadence } from './schemas.ts'
import { ensureProjectStatuses } from './statuses/statuses.ts'
import type { ProjectFilter, ProjectRecord } from './storage.ts'

export interface ProjectFields {
  name?: string
  description?: string | null
  icon?: string | null
  color?: string
  statusId?: ProjectStatusId
  leadId?: MemberId | null
  priority?: Priority
  startDate?: string | null
  targetDate?: string | null
  updateCadence?: UpdateCadence
  updateWeekday?: Weekday
}

export const DEFAULT_PROJECT_COLOR = '#5e6ad2'

/** The project as the caller may see it: 404 unless one of its teams or a grant on it is visible to them. */
export async function requireProject(ctx: OperationContext, projectId: ProjectId): Promise<Project> {
  const project = await ctx.store.projects.get(currentOrg(ctx).id, projectId, await ctx.scope())
  if (!project) throw notFound('Project')
  return withCadence(project, ctx.now, await projectCadenceDefault(ctx))
}

export async function listProjects(
  ctx: OperationContext,
  query: {
    cursor?: string
    limit?: number
    statusId?: ProjectStatusId
    leadId?: string
    teamId?: TeamId
    labelId?: LabelId
    archived?: 'exclude' | 'only' | 'include'
    health?: 'onTrack' | 'atRisk' | 'offTrack' | 'none'
    blocked?: boolean
  },
): Promise<Page<Project>> {
  const orgId = currentOrg(ctx).id
  const filter: ProjectFilter = { archived: archivedFilter(query.archived) }
  if (query.statusId) filter.statusId = query.statusId
  if (query.leadId) filter.leadId = query.leadId === 'none' ? null : query.leadId
  if (query.teamId) filter.teamId = query.teamId
  if (query.labelId) filter.labelId = query.labelId
  if (query.health) filter.health = query.health === 'none' ? null : query.health
  if (query.blocked !== undefined) filter.blocked = query.blocked
  return readPage(ctx, {
    scope: ['projects.list', orgId, filter],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (p: Project) => p.createdAt,
    fetch: async (page) => {
      const orgDefault = await projectCadenceDefault(ctx)
      return (await ctx.store.projects.list(orgId, filter, page, await ctx.scope())).map((p) =>
        withCadence(p, ctx.now, orgDefault),
      )
    },
  })
}

export async function createProject(
  ctx: OperationContext,
  input: ProjectFields & { name: string; teamIds: TeamId[]; convertedFromTaskId?: TaskId },
): Promise<Project> {
  const orgId = currentOrg(ctx).id
  for (const [i, teamId] of input.teamIds.entries()) await usableTeam(ctx, teamId, `/body/teamIds/${i}`)
  await ensureProjectStatuses(ctx)
  const status = input.statusId
    ? await activeStatus(ctx, input.statusId)
    : await firstStatusOf(ctx, 'backlog')
  if (input.leadId) {
    await ctx.require('assign', { type: 'team', id: input.teamIds[0]!, pointer: '/body/teamIds/0' })
    await activeMember(ctx, input.leadId)
  }
  checkDates(input.startDate ?? null, input.targetDate ?? null)
  const record: ProjectRecord = {
    id: newId('ProjectId'),
    orgId,
    name: input.name,
    description: input.description ?? null,
    icon: input.icon ?? null,
    color: input.color ?? DEFAULT_PROJECT_COLOR,
    statusId: status.id,
    leadId: input.leadId ?? null,
    priority: input.priority ?? 'none',
    startDate: input.startDate ?? null,
    targetDate: input.targetDate ?? null,
    updateCadence: input.updateCadence ?? 'orgDefault',
    updateWeekday: input.updateWeekday ?? 'friday',
    creatorId: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    startedAt: null,
    completedAt: null,
    canceledAt: null,
    archivedAt: null,
    convertedFromTaskId: input.convertedFromTaskId ?? null,
    ...lifecycleStamps(null, status.category, EMPTY_STAMPS, ctx.now),
  }
  await ctx.store.projects.insert(record, input.teamIds, ctx.now)
  // The creator and the lead follow the project: they hear of its status updates.
  await autoFollow(ctx, 'project', record.id, ctx.actor!.id)
  if (record.leadId) await autoFollow(ctx, 'project', record.id, record.leadId as ActorId)
  const project = await unscopedProject(ctx, record.id)
  emitProject(ctx, 'project.created', project, { project })
  await recordProjectHistory(ctx, project, [
    { field: 'created', before: null, after: { name: project.name } },
  ])
  if (record.leadId) await joinProject(ctx, project, record.leadId)
  return requireProject(ctx, record.id)
}

/** What `projects.update` takes beyond the project's fields: custom field values and a cancellation's reason. */
export interface ProjectUpdateExtras {
  /** Custom field values to set, or with null clear, by field id (as `tasks.update`'s `fields`). */
  fields?: Record<string, CustomFieldValue | null>
  /** Write-only: why the update cancels the project, carried by `project.canceled`; not stored. */
  reason?: string
}

export async function updateProject(
  ctx: OperationContext,
  projectId: ProjectId,
  {
    openTasks,
    moveTasksTo,
    fields: values,
    reason,
    ...fields
  }: ProjectFields & ClosingChoice & ProjectUpdateExtras,
): Promise<Project> {
  const project = await requireProject(ctx, projectId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && project[k as keyof Project] !== v),
  ) as ProjectFields
  // A field applies when it lists one of the project's teams, all of them counted, not only those the caller sees.
  const holder = {
    orgId: project.orgId,
    kind: 'project',
    id: project.id,
    teamIds: (await unscopedProject(ctx, project.id)).teamIds,
    fields: project.fields,
  } as const
  const fieldPlan = values ? await planFieldValues(ctx, holder, values, '/body/fields') : []
  const status = changed.statusId ? await activeStatus(ctx, changed.statusId) : null
  // Into a closed category from another one: the update completes or cancels the project.
  const closing =
    status &&
    status.category !== project.statusCategory &&
    (status.category === 'completed' || status.category === 'canceled')
      ? status.category
      : null
  if (reason !== undefined && closing !== 'canceled')
    throw new ProblemError('rule_violated', '`reason` goes with a `statusId` that cancels the project.', {
      errors: [{ pointer: '/body/reason', message: 'Only when the update cancels the project' }],
    })
  if (Object.keys(changed).length === 0 && fieldPlan.length === 0) {
    if (openTasks || moveTasksTo) await settleOpenTasks(ctx, project, null, { openTasks, moveTasksTo })
    return project
  }
  if ('leadId' in changed) {
    await ctx.require('assign', { type: 'project', id: project.id })
    if (changed.leadId) await activeMember(ctx, changed.leadId)
  }
  if ('startDate' in changed || 'targetDate' in changed) {
    checkDates(
      changed.startDate !== undefined ? changed.startDate : project.startDate,
      changed.targetDate !== undefined ? changed.targetDate : project.targetDate,
    )
  }
  let stamps: Partial<LifecycleStamps> = {}
  // Completing or canceling with open tasks needs a choice for them (closing.ts).
  await settleOpenTasks(ctx, project, status?.category ?? null, { openTasks, moveTasksTo })
  if (status) stamps = lifecycleStamps(project.statusCategory, status.category, project, ctx.now)
  await ctx.store.projects.update(project.orgId, project.id, { ...changed, ...stamps, updatedAt: ctx.now })
  await writeFieldValues(ctx, holder, fieldPlan)
  const next = await unscopedProject(ctx, project.id)
  const changes = changesOf(project, {
    ...changed,
    ...stamps,
    ...(fieldPlan.length ? { fields: next.fields } : {}),
  })
  if (closing)
    emitProject(ctx, `project.${closing}`, next, {
      project: next,
      changes,
      openTasks: openTasks ?? null,
      ...(reason ? { reason } : {}),
    })
  else emitProject(ctx, 'project.updated', next, { project: next, changes })
  await recordProjectHistory(ctx, project, [
    ...changesOfFields(PROJECT_HISTORY_FIELDS, project, { ...changed, ...stamps }),
    ...fieldChangeEntries(fieldPlan),
  ])
  // The lead is a member of the project.
  if (changed.leadId) await joinProject(ctx, project, changed.leadId)
  return requireProject(ctx, project.id)
}

export async function setProjectArchived(
  ctx: OperationContext,
  projectId: ProjectId,
  archived: boolean,
): Promise<Project> {
  const project = await requireProject(ctx, projectId)
  if (Boolean(project.archivedAt) === archived) return project
  await ctx.store.projects.update(project.orgId, project.id, {
    archivedAt: archived ? ctx.now : null,
    updatedAt: ctx.now,
  })
  const next = await unscopedProject(ctx, project.id)
  emitProject(ctx, archived ? 'project.archived' : 'project.restored', next, { project: next })
  await recordProjectHistory(ctx, project, [
    { field: 'archivedAt', before: project.archivedAt, after: next.archivedAt },
  ])
  return requireProject(ctx, project.id)
}

/** Deletes the project, its milestones, relations, linked items and grants; its tasks stay in their teams, without project or milestone. */
export async function deleteProject(ctx: OperationContext, projectId: ProjectId): Promise<void> {
  await requireProject(ctx, projectId)
  const project = await unscopedProject(ctx, projectId)
  await ctx.store.locks.acquire(`project-relations:${project.orgId}`)
  const relationIds = await ctx.store.projectRelations.deleteTouching(project.orgId, {
    projectId: project.id,
  })
  const taskIds = await ctx.store.projects.delete(project.orgId, project.id)
  // Grants on the project go with it: its tasks are reached through their teams alone from now on.
  await ctx.store.access.deleteGrantsOf(project.orgId, project.id)
  emitProject(ctx, 'project.deleted', project, { id: project.id, name: project.name, taskIds, relationIds })
}

/** The project's teams the caller may view, by id. */
export async function listProjectTeams(
  ctx: OperationContext,
  projectId: ProjectId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProjectTeam>> {
  const project = await requireProject(ctx, projectId)
  const page = await readPage(ctx, {
    scope: ['projects.teams.list', project.orgId, project.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (t: ProjectTeam & { id: string }) => t.id,
    fetch: async (p) =>
      (await ctx.store.projects.listTeams(project.orgId, project.id, p, await ctx.scope())).map((t) => ({
        ...t,
        id: t.teamId,
      })),
  })
  return { data: page.data.map(({ id: _id, ...t }) => t), nextCursor: page.nextCursor }
}

/** Adds a team to the project; the caller needs `contribute` on that team too. */
export async function addProjectTeam(
  ctx: OperationContext,
  projectId: ProjectId,
  teamId: TeamId,
): Promise<ProjectTeam> {
  const project = await requireProject(ctx, projectId)
  await usableTeam(ctx, teamId, '/params/teamId')
  if (await ctx.store.projects.addTeam(project.orgId, project.id, teamId, ctx.now)) {
    await ctx.store.projects.update(project.orgId, project.id, { updatedAt: ctx.now })
    const next = await unscopedProject(ctx, project.id)
    ctx.emit({
      kind: 'project.team_added',
      resourceType: 'project',
      resourceId: project.id,
      teamId,
      data: { project: next, teamId },
    })
    await recordProjectHistory(ctx, project, [{ field: 'teamIds', before: null, after: teamId }])
  }
  return (await ctx.store.projects.getTeam(project.orgId, project.id, teamId))!
}

/** Takes a team off the project; a project keeps at least one team. */
export async function removeProjectTeam(
  ctx: OperationContext,
  projectId: ProjectId,
  teamId: TeamId,
): Promise<void> {
  const project = await requireProject(ctx, projectId)
  const all = await unscopedProject(ctx, project.id)
  if (!all.teamIds.includes(teamId)) return
  if (all.teamIds.length === 1) {
    throw new ProblemError('conflict', 'A project spans at least one team; add another team first.')
  }
  await ctx.store.projects.removeTeam(project.orgId, project.id, teamId)
  await ctx.store.projects.update(project.orgId, project.id, { updatedAt: ctx.now })
  const next = await unscopedProject(ctx, project.id)
  ctx.emit({
    kind: 'project.team_removed',
    resourceType: 'project',
    resourceId: project.id,
    teamId,
    data: { project: next, teamId },
  })
  await recordProjectHistory(ctx, project, [{ field: 'teamIds', before: teamId, after: null }])
}

async function usableTeam(ctx: OperationContext, teamId: TeamId, pointer: string): Promise<void> {
  const team = await requireTeam(ctx, teamId)
  if (team.archivedAt) {
    throw new ProblemError('archived', 'The team is archived; restore it first.', {
      errors: [{ pointer, message: 'Archived team' }],
    })
  }
  await ctx.require('contribute', { type: 'team', id: team.id })
}

async function activeStatus(ctx: OperationContext, statusId: ProjectStatusId): Promise<ProjectStatus> {
  const status = await ctx.store.projectStatuses.get(currentOrg(ctx).id, statusId)
  if (!status || status.archivedAt) {
    throw referenceNotFound(
      '/body/statusId',
      'The status is not an active project status of the org.',
      'Not an active project status',
    )
  }
  return status
}

async function firstStatusOf(ctx: OperationContext, category: ProjectStatusCategory): Promise<ProjectStatus> {
  const active = await ctx.store.projectStatuses.active(currentOrg(ctx).id)
  const status = active.find((s) => s.category === category)
  if (!status) throw new ProblemError('conflict', `The org has no active \`${category}\` project status.`)
  return status
}

async function activeMember(ctx: OperationContext, memberId: MemberId): Promise<void> {
  const member = await ctx.store.members.get(currentOrg(ctx).id, memberId)
  if (member?.status !== 'active') {
    throw referenceNotFound(
      '/body/leadId',
      'The lead is not an active member of this workspace.',
      'Not an active member of this workspace',
    )
  }
}

/** A target date before the start date is refused, whichever of the two the request changed. */
function checkDates(startDate: string | null, targetDate: string | null): void {
  if (startDate && targetDate && targetDate < startDate) {
    throw new ProblemError('rule_violated', 'The target date is before the start date.', {
      errors: [{ pointer: '/body/targetDate', message: 'Must be on or after startDate' }],
    })
  }
}
