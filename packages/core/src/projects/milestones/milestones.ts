import { currentOrg } from '../../kernel/context.ts'
import { changesOf } from '../../kernel/history-entry.ts'
import { type MilestoneId, newId, type ProjectId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../../kernel/ordering.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { type ProgressSummary, summarizeProgress } from '../../tasks/progress.ts'
import type { Task } from '../../tasks/schemas.ts'
import { listTasks } from '../../tasks/service.ts'
import { recordProjectHistory } from '../history/records.ts'
import type { Milestone, MilestoneStatus, Project } from '../schemas.ts'
import { nameKey } from '../schemas.ts'
import { requireProject } from '../service.ts'
import type { MilestoneRecord, MilestoneTally, ProjectRow } from '../storage.ts'

export interface MilestoneFields {
  name?: string
  description?: string | null
  targetDate?: string | null
}

/** The milestone, if the caller may view its project; otherwise 404. */
export async function requireMilestone(ctx: OperationContext, milestoneId: MilestoneId): Promise<Milestone> {
  const { milestone, project } = await milestoneAndProject(ctx, milestoneId)
  return (await withStatus(ctx, project, [milestone]))[0]!
}

export async function listMilestones(
  ctx: OperationContext,
  projectId: ProjectId,
  query: { cursor?: string; limit?: number },
): Promise<Page<Milestone>> {
  const project = await requireProject(ctx, projectId)
  const page = await readPage(ctx, {
    scope: ['milestones.list', project.orgId, project.id],
    query,
    sort: 'position',
    direction: 'asc',
    keyOf: (m: MilestoneRecord) => m.position,
    fetch: (p) => ctx.store.milestones.list(project.orgId, project.id, p),
  })
  return { data: await withStatus(ctx, project, page.data), nextCursor: page.nextCursor }
}

export async function createMilestone(
  ctx: OperationContext,
  projectId: ProjectId,
  input: { name: string; description?: string | null; targetDate?: string | null },
): Promise<Milestone> {
  const project = await requireProject(ctx, projectId)
  if (project.archivedAt) throw new ProblemError('archived', 'The project is archived; restore it first.')
  await lockMilestones(ctx, project.id)
  await assertNameFree(ctx, project.id, input.name)
  const record: MilestoneRecord = {
    id: newId('MilestoneId'),
    orgId: project.orgId,
    projectId: project.id,
    name: input.name,
    description: input.description ?? null,
    targetDate: input.targetDate ?? null,
    position: await ctx.store.milestones.nextPosition(project.orgId, project.id),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.milestones.insert(record)
  const milestone = (await withStatus(ctx, project, [record]))[0]!
  await emitMilestone(ctx, 'milestone.created', project, { milestone })
  return milestone
}

export async function updateMilestone(
  ctx: OperationContext,
  milestoneId: MilestoneId,
  fields: MilestoneFields,
): Promise<Milestone> {
  const { milestone, project } = await milestoneAndProject(ctx, milestoneId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && milestone[k as keyof MilestoneRecord] !== v),
  ) as MilestoneFields
  if (Object.keys(changed).length === 0) return (await withStatus(ctx, project, [milestone]))[0]!
  if (changed.name !== undefined) {
    await lockMilestones(ctx, project.id)
    await assertNameFree(ctx, project.id, changed.name, milestone.id)
  }
  await ctx.store.milestones.update(milestone.orgId, milestone.id, { ...changed, updatedAt: ctx.now })
  const next = (await withStatus(ctx, project, [{ ...milestone, ...changed, updatedAt: ctx.now }]))[0]!
  await emitMilestone(ctx, 'milestone.updated', project, {
    milestone: next,
    changes: changesOf(milestone, changed),
  })
  return next
}

/** Deletes the milestone and the relations anchored on it; its tasks stay in the project, without a milestone. */
export async function deleteMilestone(ctx: OperationContext, milestoneId: MilestoneId): Promise<void> {
  const { milestone, project } = await milestoneAndProject(ctx, milestoneId)
  // Relations anchored on it go with it: falling back to the project could close a cycle.
  await ctx.store.locks.acquire(`project-relations:${milestone.orgId}`)
  const relationIds = await ctx.store.projectRelations.deleteTouching(milestone.orgId, {
    milestoneId: milestone.id,
  })
  const taskIds = await ctx.store.milestones.delete(milestone.orgId, milestone.id)
  await emitMilestone(ctx, 'milestone.deleted', project, {
    id: milestone.id,
    projectId: project.id,
    name: milestone.name,
    taskIds,
    relationIds,
  })
}

/**
 * Moves the milestone just before or just after another milestone of its project. Positions are
 * renumbered 0…n−1 in the new order, so `next` (the first milestone ahead) may change.
 */
export async function moveMilestone(
  ctx: OperationContext,
  milestoneId: MilestoneId,
  to: MoveTo,
): Promise<Milestone> {
  const { milestone, project } = await milestoneAndProject(ctx, milestoneId)
  await lockMilestones(ctx, project.id)
  const all = await ctx.store.milestones.all(project.orgId, project.id)
  const { order, moved } = placeMoved(all, milestone.id, to, 'another milestone of the same project')
  if (!moved) return (await withStatus(ctx, project, [milestone]))[0]!
  for (const [position, m] of order.entries()) {
    if (m.position !== position) {
      await ctx.store.milestones.update(project.orgId, m.id, { position, updatedAt: ctx.now })
    }
  }
  const position = order.findIndex((m) => m.id === milestone.id)
  const next = (await withStatus(ctx, project, [{ ...milestone, position, updatedAt: ctx.now }]))[0]!
  await emitMilestone(ctx, 'milestone.moved', project, {
    milestone: next,
    order: order.map((m) => m.id),
  })
  return next
}

async function milestoneAndProject(
  ctx: OperationContext,
  milestoneId: MilestoneId,
): Promise<{ milestone: MilestoneRecord; project: ProjectRow }> {
  const milestone = await ctx.store.milestones.get(currentOrg(ctx).id, milestoneId)
  if (!milestone) throw notFound('Milestone')
  const project = await ctx.store.projects.get(milestone.orgId, milestone.projectId, await ctx.scope())
  if (!project) throw notFound('Milestone')
  return { milestone, project }
}

/**
 * Derives each milestone's status and progress from the tasks the caller may view and today's date
 * (UTC); `next` depends on every milestone of the project, so all of them are read.
 */
export async function withStatus(
  ctx: OperationContext,
  project: ProjectRow,
  milestones: readonly MilestoneRecord[],
): Promise<Milestone[]> {
  if (milestones.length === 0) return []
  const scope = await ctx.scope()
  const tallies = new Map<string, MilestoneTally[]>()
  for (const t of await ctx.store.milestones.tallies(project.orgId, project.id, scope)) {
    tallies.set(t.milestoneId, [...(tallies.get(t.milestoneId) ?? []), t])
  }
  const progress = new Map<string, ProgressSummary>()
  const progressOf = (id: string) => {
    if (!progress.has(id)) progress.set(id, summarizeProgress(tallies.get(id) ?? []))
    return progress.get(id)!
  }
  const today = ctx.now.slice(0, 10)
  const all = await ctx.store.milestones.all(project.orgId, project.id)
  const next = all.find((m) => baseStatus(m, progressOf(m.id), today) === null)
  return milestones.map((m) => ({
    ...m,
    status: baseStatus(m, progressOf(m.id), today) ?? (m.id === next?.id ? 'next' : 'unstarted'),
    progress: progressOf(m.id),
  }))
}

/** `done` or `overdue` when the milestone is one of them; null when it is still ahead. */
export function baseStatus(
  milestone: Pick<MilestoneRecord, 'targetDate'>,
  progress: ProgressSummary,
  today: string,
): MilestoneStatus | null {
  const { total, byCategory } = progress
  const finished = byCategory.completed.tasks + byCategory.canceled.tasks
  if (total.tasks > 0 && finished === total.tasks) return 'done'
  if (milestone.targetDate && milestone.targetDate < today) return 'overdue'
  return null
}

async function emitMilestone(
  ctx: OperationContext,
  kind: string,
  project: ProjectRow,
  data: Record<string, unknown>,
) {
  const milestone = data.milestone as Milestone | undefined
  const id = milestone?.id ?? (data.id as MilestoneId)
  const gone = kind === 'milestone.deleted'
  const made = kind === 'milestone.created'
  await recordProjectHistory(ctx, project, [
    { field: 'milestones', before: made ? null : id, after: gone ? null : id },
  ])
  ctx.emit({
    kind,
    resourceType: 'milestone',
    resourceId: milestone?.id ?? (data.id as string),
    teamId: project.teamIds[0] as never,
    data,
  })
}

async function lockMilestones(ctx: OperationContext, projectId: ProjectId): Promise<void> {
  await ctx.store.locks.acquire(`milestones:${currentOrg(ctx).id}:${projectId}`)
}

async function assertNameFree(
  ctx: OperationContext,
  projectId: ProjectId,
  name: string,
  exceptId?: MilestoneId,
): Promise<void> {
  const taken = await ctx.store.milestones.findByName(currentOrg(ctx).id, projectId, name, exceptId)
  if (taken && nameKey(taken.name) === nameKey(name)) {
    throw new ProblemError('conflict', `The project already has a milestone named \`${taken.name}\`.`, {
      errors: [{ pointer: '/body/name', message: 'Already taken in this project' }],
    })
  }
}
