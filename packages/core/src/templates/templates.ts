import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { LabelId, MilestoneId, ProjectId, TaskId, TeamId, TemplateId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { createMilestone } from '../projects/milestones/milestones.ts'
import type { Project } from '../projects/schemas.ts'
import { createProject, type ProjectFields, requireProject } from '../projects/service.ts'
import { createTask } from '../tasks/create.ts'
import { listTasks } from '../tasks/service.ts'
import { requireTeam } from '../teams/service.ts'
import { addDays } from './schedule.ts'
import type { ProjectSkeleton, TaskSkeleton, Template, TemplateApplication, TemplateKind } from './schemas.ts'
import type { TemplateFilter } from './storage.ts'

export interface TemplateFields {
  name?: string
  description?: string | null
  task?: TaskSkeleton
  project?: ProjectSkeleton
}

export async function listTemplates(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; kind?: TemplateKind; teamId?: string },
): Promise<Page<Template>> {
  const orgId = currentOrg(ctx).id
  const filter: TemplateFilter = {}
  if (query.kind) filter.kind = query.kind
  if (query.teamId) filter.teamId = query.teamId as TeamId
  const scope = await ctx.scope()
  return readPage(ctx, {
    scope: ['templates.list', orgId, filter],
    query,
    sort: 'name',
    direction: 'asc',
    keyOf: (t: Template) => t.name,
    fetch: (page) => ctx.store.templates.list(orgId, filter, page, scope),
  })
}

/** The template, if the caller may view its team; otherwise 404, as a missing one. */
export async function requireTemplate(ctx: OperationContext, id: TemplateId): Promise<Template> {
  const template = await ctx.store.templates.get(currentOrg(ctx).id, id, await ctx.scope())
  if (!template) throw notFound('Template')
  return template
}

/** A template's body must be the one its kind names, and a project's milestones must be sound. */
function checkBody(kind: TemplateKind, fields: TemplateFields): void {
  const other = kind === 'task' ? 'project' : 'task'
  if (fields[other] !== undefined) {
    throw invalid(`/body/${other}`, `A ${kind} template has no \`${other}\`; send \`${kind}\`.`)
  }
  const project = fields.project
  if (!project) return
  const names = new Set<string>()
  for (const [i, m] of project.milestones.entries()) {
    const key = m.name.trim().toLowerCase()
    if (names.has(key)) throw invalid(`/body/project/milestones/${i}/name`, 'Milestone names must differ.')
    names.add(key)
  }
  for (const [i, t] of project.tasks.entries()) {
    if (t.milestone !== null && t.milestone >= project.milestones.length) {
      throw invalid(`/body/project/tasks/${i}/milestone`, 'No milestone has this index.')
    }
  }
}

function invalid(pointer: string, message: string) {
  return new ProblemError('rule_violated', message, { errors: [{ pointer, message }] })
}

export async function createTemplate(
  ctx: OperationContext,
  input: TemplateFields & { teamId: TeamId; kind: TemplateKind; name: string },
): Promise<Template> {
  const team = await requireTeam(ctx, input.teamId)
  if (team.archivedAt) throw new ProblemError('archived', 'The team is archived; restore it first.')
  if (!input[input.kind]) {
    throw invalid(`/body/${input.kind}`, `A ${input.kind} template needs \`${input.kind}\`.`)
  }
  checkBody(input.kind, input)
  const template: Template = {
    id: newId('TemplateId'),
    orgId: team.orgId,
    teamId: team.id,
    kind: input.kind,
    name: input.name,
    description: input.description ?? null,
    task: input.kind === 'task' ? input.task! : null,
    project: input.kind === 'project' ? input.project! : null,
    creatorId: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.templates.insert(template)
  emitTemplate(ctx, 'template.created', template, { template })
  return template
}

export async function updateTemplate(
  ctx: OperationContext,
  id: TemplateId,
  fields: TemplateFields,
): Promise<Template> {
  const template = await requireTemplate(ctx, id)
  checkBody(template.kind, fields)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(
      ([k, v]) => v !== undefined && JSON.stringify(template[k as keyof Template]) !== JSON.stringify(v),
    ),
  ) as TemplateFields
  if (Object.keys(changed).length === 0) return template
  const next: Template = { ...template, ...changed, updatedAt: ctx.now }
  await ctx.store.templates.update(template.orgId, template.id, { ...changed, updatedAt: ctx.now })
  emitTemplate(ctx, 'template.updated', next, { template: next, changes: changesOf(template, changed) })
  return next
}

/** Deletes the template; one that recurring work uses is kept (a 409) until that is deleted. */
export async function deleteTemplate(ctx: OperationContext, id: TemplateId): Promise<void> {
  const template = await requireTemplate(ctx, id)
  const uses = await ctx.store.templates.recurrenceCount(template.orgId, template.id)
  if (uses > 0) {
    throw new ProblemError(
      'conflict',
      `Recurring work (${uses}) creates tasks from this template; delete or change it first.`,
    )
  }
  await ctx.store.templates.delete(template.orgId, template.id)
  emitTemplate(ctx, 'template.deleted', template, {
    id: template.id,
    kind: template.kind,
    name: template.name,
  })
}

export interface ApplyInput {
  /** Task templates: the team to create the task in (default the template's). */
  teamId?: TeamId
  /** Project templates: the project's teams (default the template's). */
  teamIds?: TeamId[]
  /** The task's title or the project's name instead of the template's. */
  title?: string
  name?: string
  /** The day offsets count from (default today, UTC). */
  startDate?: string
}

/**
 * Creates the template's work as the caller, through the same services as `tasks.create`,
 * `projects.create` and `projects.milestones.create`, with every date offset counted from `startDate`.
 */
export async function applyTemplate(
  ctx: OperationContext,
  id: TemplateId,
  input: ApplyInput,
): Promise<TemplateApplication> {
  const template = await requireTemplate(ctx, id)
  const start = input.startDate ?? ctx.now.slice(0, 10)
  const application: TemplateApplication = {
    templateId: template.id,
    kind: template.kind,
    projectId: null,
    milestoneIds: [],
    taskIds: [],
  }
  if (template.kind === 'task') {
    if (input.teamIds || input.name) {
      throw invalid(input.teamIds ? '/body/teamIds' : '/body/name', 'Only a project template takes this.')
    }
    const task = await taskFromTemplate(ctx, template, input.teamId ?? template.teamId, {
      title: input.title,
      startDate: start,
    })
    application.taskIds.push(task.id)
  } else {
    if (input.teamId || input.title) {
      throw invalid(input.teamId ? '/body/teamId' : '/body/title', 'Only a task template takes this.')
    }
    const skeleton = template.project!
    const teamIds = input.teamIds ?? [template.teamId]
    if (teamIds[0] !== template.teamId) await ctx.require('contribute', { type: 'team', id: teamIds[0]! })
    const built = await buildProject(ctx, skeleton, { teamIds, name: input.name, startDate: start })
    application.projectId = built.project.id as ProjectId
    application.milestoneIds.push(...built.milestoneIds)
    application.taskIds.push(...built.taskIds)
  }
  emitTemplate(ctx, 'template.applied', template, { application })
  return application
}

/**
 * One task from a task template, in `teamId` (contribute there is asked when it is not the
 * template's), due the template's offset after `startDate` (the day applied, or an occurrence's).
 */
export async function taskFromTemplate(
  ctx: OperationContext,
  template: Template,
  teamId: TeamId,
  overrides: { title?: string; startDate: string },
) {
  if (template.kind !== 'task') throw invalid('/body/templateId', 'This needs a task template.')
  if (teamId !== template.teamId) await ctx.require('contribute', { type: 'team', id: teamId })
  const skeleton = template.task!
  const offset = skeleton.dueOffsetDays
  return createTask(ctx, {
    teamId,
    title: overrides.title ?? skeleton.title,
    description: skeleton.description,
    priority: skeleton.priority,
    estimate: skeleton.estimate,
    dueDate: offset === null ? null : addDays(overrides.startDate, offset),
    labelIds: skeleton.labelIds as LabelId[],
  })
}

/** Most tasks a project template keeps; `projects.saveAsTemplate` refuses larger projects. */
const SAVED_TASKS_MAX = 200

/**
 * A project's skeleton as the caller sees it: its milestones, and its unarchived tasks (with
 * `openOnly`, those not completed or canceled) with their milestones, dates as offsets from the
 * project's start (or its creation day). At most 50 milestones and 200 tasks (a 409 beyond).
 */
export async function projectSkeleton(
  ctx: OperationContext,
  project: Project,
  options: { openOnly?: boolean; tasks?: boolean } = {},
): Promise<ProjectSkeleton> {
  const start = project.startDate ?? project.createdAt.slice(0, 10)
  const offset = (date: string | null) => {
    if (date === null) return null
    // A date before the start (a task due before the project began) falls on the start.
    return Math.max(0, Math.round((Date.parse(date) - Date.parse(start)) / 86_400_000))
  }
  const milestones = await ctx.store.milestones.list(project.orgId, project.id as ProjectId, {
    sort: 'position',
    direction: 'asc',
    after: null,
    limit: 50,
  })
  if (milestones.length > 50) throw new ProblemError('conflict', 'A template keeps at most 50 milestones.')
  const index = new Map(milestones.map((m, i) => [m.id as string, i]))
  const tasks =
    options.tasks === false
      ? { data: [], nextCursor: null }
      : await listTasks(ctx, {
          projectId: project.id,
          sort: 'createdAt',
          limit: SAVED_TASKS_MAX,
          ...(options.openOnly ? { stateCategory: 'triage,backlog,unstarted,started' } : {}),
        })
  if (tasks.nextCursor) {
    throw new ProblemError('conflict', `At most ${SAVED_TASKS_MAX} tasks are copied; this project has more.`)
  }
  return {
    name: project.name,
    description: project.description,
    durationDays: offset(project.targetDate),
    milestones: milestones.map((m) => ({
      name: m.name,
      description: m.description,
      targetOffsetDays: offset(m.targetDate),
    })),
    tasks: tasks.data.map((t) => ({
      title: t.title,
      description: t.description,
      priority: t.priority,
      milestone: t.milestoneId ? (index.get(t.milestoneId) ?? null) : null,
      dueOffsetDays: offset(t.dueDate),
    })),
  }
}

/**
 * Creates a skeleton's project, milestones and tasks (in the first team) as the caller, through
 * `projects.create`, `projects.milestones.create` and `tasks.create`, dates counted from `startDate`.
 */
export async function buildProject(
  ctx: OperationContext,
  skeleton: ProjectSkeleton,
  input: { teamIds: TeamId[]; name?: string; startDate: string; fields?: ProjectFields },
): Promise<{ project: Project; milestoneIds: MilestoneId[]; taskIds: TaskId[] }> {
  const at = (offset: number | null) => (offset === null ? null : addDays(input.startDate, offset))
  const project = await createProject(ctx, {
    ...input.fields,
    name: input.name ?? skeleton.name,
    description: skeleton.description,
    teamIds: input.teamIds,
    startDate: input.startDate,
    targetDate: at(skeleton.durationDays),
  })
  const milestoneIds: MilestoneId[] = []
  for (const m of skeleton.milestones) {
    const milestone = await createMilestone(ctx, project.id as ProjectId, {
      name: m.name,
      description: m.description,
      targetDate: at(m.targetOffsetDays),
    })
    milestoneIds.push(milestone.id as MilestoneId)
  }
  const taskIds: TaskId[] = []
  for (const t of skeleton.tasks) {
    const task = await createTask(ctx, {
      teamId: input.teamIds[0]!,
      title: t.title,
      description: t.description,
      priority: t.priority,
      dueDate: at(t.dueOffsetDays),
      projectId: project.id as ProjectId,
      milestoneId: t.milestone === null ? null : milestoneIds[t.milestone]!,
    })
    taskIds.push(task.id as TaskId)
  }
  return { project, milestoneIds, taskIds }
}

/** A project template from a project as the caller sees it (`projectSkeleton`). */
export async function saveProjectAsTemplate(
  ctx: OperationContext,
  projectId: ProjectId,
  input: { name?: string; teamId?: TeamId },
): Promise<Template> {
  const project = await requireProject(ctx, projectId)
  const teamId = input.teamId ?? (project.teamIds[0] as TeamId)
  if (!project.teamIds.includes(teamId)) await ctx.require('contribute', { type: 'team', id: teamId })
  return createTemplate(ctx, {
    teamId,
    kind: 'project',
    name: input.name ?? project.name,
    description: project.description,
    project: await projectSkeleton(ctx, project),
  })
}

export function emitTemplate(
  ctx: OperationContext,
  kind: `template.${string}`,
  template: Template,
  data: Record<string, unknown>,
): void {
  ctx.emit({ kind, resourceType: 'template', resourceId: template.id, teamId: template.teamId, data })
}
