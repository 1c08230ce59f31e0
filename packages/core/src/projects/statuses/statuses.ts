import { currentOrg } from '../../kernel/context.ts'
import { changesOf } from '../../kernel/history-entry.ts'
import { newId, type ProjectStatusId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../../kernel/ordering.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { archivedFilter } from '../../teams/service.ts'
import type { ProjectStatus, ProjectStatusCategory } from '../schemas.ts'

/** The set every org starts with, one per category, in this order. */
export const DEFAULT_PROJECT_STATUSES: ReadonlyArray<{
  name: string
  category: ProjectStatusCategory
  color: string
}> = [
  { name: 'Backlog', category: 'backlog', color: '#bec2c8' },
  { name: 'Planned', category: 'planned', color: '#95a2b3' },
  { name: 'In Progress', category: 'started', color: '#f2c94c' },
  { name: 'Paused', category: 'paused', color: '#e07b39' },
  { name: 'Completed', category: 'completed', color: '#5e6ad2' },
  { name: 'Canceled', category: 'canceled', color: '#6b6f76' },
]

/**
 * Creates the org's default statuses the first time anything reads or writes project statuses, so
 * orgs created before projects existed get them too. Race-safe: storage inserts each at most once.
 */
export async function ensureProjectStatuses(ctx: OperationContext): Promise<void> {
  const orgId = currentOrg(ctx).id
  if (await ctx.store.projectStatuses.isSeeded(orgId)) return
  await ctx.store.projectStatuses.seed(
    orgId,
    DEFAULT_PROJECT_STATUSES.map((s, position) => ({
      id: newId('ProjectStatusId'),
      orgId,
      name: s.name,
      category: s.category,
      color: s.color,
      description: null,
      position,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      archivedAt: null,
      seed: s.category,
    })),
  )
}

export async function requireProjectStatus(
  ctx: OperationContext,
  statusId: ProjectStatusId,
): Promise<ProjectStatus> {
  await ensureProjectStatuses(ctx)
  const status = await ctx.store.projectStatuses.get(currentOrg(ctx).id, statusId)
  if (!status) throw notFound('Project status')
  return status
}

export async function listProjectStatuses(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; archived?: 'exclude' | 'only' | 'include' },
): Promise<Page<ProjectStatus>> {
  await ensureProjectStatuses(ctx)
  const orgId = currentOrg(ctx).id
  const filter = { archived: archivedFilter(query.archived) }
  return readPage(ctx, {
    scope: ['projectStatuses.list', orgId, filter],
    query,
    sort: 'position',
    direction: 'asc',
    keyOf: (s: ProjectStatus) => s.position,
    fetch: (page) => ctx.store.projectStatuses.list(orgId, filter, page),
  })
}

export async function createProjectStatus(
  ctx: OperationContext,
  input: { name: string; category: ProjectStatusCategory; color?: string; description?: string | null },
): Promise<ProjectStatus> {
  await ensureProjectStatuses(ctx)
  const orgId = currentOrg(ctx).id
  await lockStatuses(ctx)
  await assertNameFree(ctx, input.name)
  const status: ProjectStatus = {
    id: newId('ProjectStatusId'),
    orgId,
    name: input.name,
    category: input.category,
    color: input.color ?? DEFAULT_PROJECT_STATUSES.find((s) => s.category === input.category)!.color,
    description: input.description ?? null,
    position: await ctx.store.projectStatuses.nextPosition(orgId),
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
  }
  await ctx.store.projectStatuses.insert(status)
  emitStatus(ctx, 'project_status.created', { status })
  return status
}

export async function updateProjectStatus(
  ctx: OperationContext,
  statusId: ProjectStatusId,
  fields: { name?: string; color?: string; description?: string | null },
): Promise<ProjectStatus> {
  const status = await requireProjectStatus(ctx, statusId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && status[k as keyof ProjectStatus] !== v),
  ) as Partial<ProjectStatus>
  if (Object.keys(changed).length === 0) return status
  if (changed.name !== undefined) {
    await lockStatuses(ctx)
    await assertNameFree(ctx, changed.name, status.id)
  }
  return changeStatus(ctx, status, changed, 'project_status.updated')
}

/**
 * Archives a status no project is in; each category keeps at least one active status, so a
 * project can always move to any category.
 */
export async function setProjectStatusArchived(
  ctx: OperationContext,
  statusId: ProjectStatusId,
  archived: boolean,
): Promise<ProjectStatus> {
  const status = await requireProjectStatus(ctx, statusId)
  if (Boolean(status.archivedAt) === archived) return status
  if (archived) {
    await lockStatuses(ctx)
    const active = await ctx.store.projectStatuses.active(status.orgId)
    if (!active.some((s) => s.id !== status.id && s.category === status.category)) {
      throw new ProblemError(
        'last_project_status',
        `This is the last active status in the \`${status.category}\` category.`,
      )
    }
    const count = await ctx.store.projectStatuses.countProjects(status.orgId, status.id)
    if (count > 0) {
      throw new ProblemError(
        'project_status_in_use',
        `${count} project(s) are in this status; move them to another status first.`,
        { extensions: { projectCount: count } },
      )
    }
  }
  return changeStatus(
    ctx,
    status,
    { archivedAt: archived ? ctx.now : null },
    archived ? 'project_status.archived' : 'project_status.restored',
  )
}

/**
 * Moves an active status just before or after another active status of the org; the org's active
 * statuses are renumbered from 0. A move that changes nothing writes and emits nothing.
 */
export async function moveProjectStatus(
  ctx: OperationContext,
  statusId: ProjectStatusId,
  to: MoveTo,
): Promise<ProjectStatus> {
  const status = await requireProjectStatus(ctx, statusId)
  if (status.archivedAt)
    throw new ProblemError('archived', 'The status is archived: restore it before moving it.')
  await lockStatuses(ctx)
  const active = await ctx.store.projectStatuses.active(status.orgId)
  const { order, moved } = placeMoved(active, status.id, to, 'another active project status of the org')
  if (!moved) return status
  for (const [position, s] of order.entries()) {
    if (s.position !== position)
      await ctx.store.projectStatuses.update(status.orgId, s.id, { position, updatedAt: ctx.now })
  }
  const next = { ...status, position: order.findIndex((s) => s.id === status.id), updatedAt: ctx.now }
  emitStatus(ctx, 'project_status.moved', { status: next, order: order.map((s) => s.id) })
  return next
}

async function changeStatus(
  ctx: OperationContext,
  status: ProjectStatus,
  changed: Partial<ProjectStatus>,
  kind: string,
): Promise<ProjectStatus> {
  await ctx.store.projectStatuses.update(status.orgId, status.id, { ...changed, updatedAt: ctx.now })
  const next = { ...status, ...changed, updatedAt: ctx.now }
  emitStatus(ctx, kind, { status: next, changes: changesOf(status, changed) })
  return next
}

/** Statuses are org-level records, visible to every member: their events carry no team. */
function emitStatus(
  ctx: OperationContext,
  kind: string,
  data: Record<string, unknown> & { status?: ProjectStatus },
  resourceId?: string,
): void {
  ctx.emit({
    kind,
    resourceType: data.status ? 'project_status' : 'org',
    resourceId: data.status?.id ?? resourceId!,
    teamId: null,
    data,
  })
}

/** Name checks, positions and the last-of-a-category rule run one writer at a time per org. */
async function lockStatuses(ctx: OperationContext): Promise<void> {
  await ctx.store.locks.acquire(`project-statuses:${currentOrg(ctx).id}`)
}

async function assertNameFree(ctx: OperationContext, name: string, exceptId?: ProjectStatusId) {
  const taken = await ctx.store.projectStatuses.findByName(currentOrg(ctx).id, name, exceptId)
  if (taken) {
    throw new ProblemError('conflict', `The org already has a project status named \`${taken.name}\`.`, {
      errors: [{ pointer: '/body/name', message: 'Already taken' }],
    })
  }
}
