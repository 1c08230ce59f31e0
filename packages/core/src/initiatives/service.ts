import { currentOrg } from '../kernel/context.ts'
import { type InitiativeId, type LabelId, type MemberId, newId } from '../kernel/ids.ts'
import { EMPTY_STAMPS, lifecycleStamps } from '../kernel/lifecycle.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { autoFollow } from '../projects/followers.ts'
import { archivedFilter } from '../teams/service.ts'
import type { UpdateHealth } from '../updates/schemas.ts'
import { recordHistory } from './history/history.ts'
import { initiativeFieldChanges } from './history/schemas.ts'
import { checkNesting } from './nesting.ts'
import type { Initiative, InitiativeStatus } from './schemas.ts'
import type { InitiativeFilter, InitiativeRecord } from './storage.ts'

export interface InitiativeFields {
  name?: string
  description?: string | null
  ownerId?: MemberId | null
  status?: InitiativeStatus
  targetDate?: string | null
  parentId?: InitiativeId | null
}

/** The lifecycle category each status stands for, so stamps follow the kernel's rule for tasks and projects. */
const CATEGORY: Record<InitiativeStatus, string> = {
  planned: 'planned',
  active: 'started',
  completed: 'completed',
  canceled: 'canceled',
}

/** The initiative as the caller may see it; 404 otherwise. */
export async function requireInitiative(ctx: OperationContext, id: InitiativeId): Promise<Initiative> {
  const initiative = await ctx.store.initiatives.get(currentOrg(ctx).id, id, await ctx.scope())
  if (!initiative) throw notFound('Initiative')
  return initiative
}

export async function listInitiatives(
  ctx: OperationContext,
  query: {
    cursor?: string
    limit?: number
    status?: InitiativeStatus
    ownerId?: string
    parentId?: string
    health?: UpdateHealth | 'none'
    labelId?: LabelId
    targetBefore?: string
    targetAfter?: string
    archived?: 'exclude' | 'only' | 'include'
  },
): Promise<Page<Initiative>> {
  const orgId = currentOrg(ctx).id
  const filter: InitiativeFilter = { archived: archivedFilter(query.archived) }
  if (query.status) filter.status = query.status
  if (query.ownerId) filter.ownerId = query.ownerId === 'none' ? null : (query.ownerId as MemberId)
  if (query.parentId) filter.parentId = query.parentId === 'none' ? null : (query.parentId as InitiativeId)
  if (query.health) filter.health = query.health === 'none' ? null : query.health
  if (query.labelId) filter.labelId = query.labelId
  if (query.targetBefore) filter.targetBefore = query.targetBefore
  if (query.targetAfter) filter.targetAfter = query.targetAfter
  return readPage(ctx, {
    scope: ['initiatives.list', orgId, filter],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (i: Initiative) => i.createdAt,
    fetch: async (page) => ctx.store.initiatives.list(orgId, filter, page, await ctx.scope()),
  })
}

export async function createInitiative(
  ctx: OperationContext,
  input: InitiativeFields & { name: string },
): Promise<Initiative> {
  const orgId = currentOrg(ctx).id
  if (input.ownerId) await activeMember(ctx, input.ownerId)
  const parentId = input.parentId ?? null
  if (parentId) {
    await ctx.store.locks.acquire(`initiative-tree:${orgId}`)
    const parent = await requireParent(ctx, parentId)
    await checkNesting(ctx, null, parent)
  }
  const status = input.status ?? 'planned'
  const record: InitiativeRecord = {
    id: newId('InitiativeId'),
    orgId,
    name: input.name,
    description: input.description ?? null,
    ownerId: input.ownerId ?? null,
    status,
    targetDate: input.targetDate ?? null,
    parentId,
    creatorId: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    ...EMPTY_STAMPS,
    ...lifecycleStamps(null, CATEGORY[status], EMPTY_STAMPS, ctx.now),
    archivedAt: null,
  }
  await ctx.store.initiatives.insert(record)
  // The creator and the owner follow the initiative: they hear of its status updates.
  await autoFollow(ctx, 'initiative', record.id, ctx.actor!.id)
  if (record.ownerId) await autoFollow(ctx, 'initiative', record.id, record.ownerId)
  const initiative = await unscoped(ctx, record.id)
  await recordHistory(ctx, initiative.id, { action: 'created', changes: {} })
  emitInitiative(ctx, 'initiative.created', initiative, { initiative })
  return initiative
}

/**
 * Edits fields; a status change keeps `startedAt`, `completedAt` and `canceledAt`. Moving it under
 * another parent needs `manage` on it (what is nested widens who holds it) and is refused when it
 * would close a cycle or nest deeper than the limit.
 */
export async function updateInitiative(
  ctx: OperationContext,
  id: InitiativeId,
  fields: InitiativeFields,
): Promise<Initiative> {
  const initiative = await requireInitiative(ctx, id)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && initiative[k as keyof Initiative] !== v),
  ) as InitiativeFields
  if (Object.keys(changed).length === 0) return initiative
  if (changed.ownerId) await activeMember(ctx, changed.ownerId)
  const { parentId, ...rest } = changed
  if (parentId !== undefined) {
    await ctx.require('manage', { type: 'initiative', id: initiative.id })
    await ctx.store.locks.acquire(`initiative-tree:${initiative.orgId}`)
    const parent = parentId ? await requireParent(ctx, parentId) : null
    if (parent) await checkNesting(ctx, initiative, parent)
    await ctx.store.initiatives.move(initiative.orgId, initiative.id, parentId)
  }
  const stamps = rest.status
    ? lifecycleStamps(CATEGORY[initiative.status], CATEGORY[rest.status], initiative, ctx.now)
    : {}
  await ctx.store.initiatives.update(initiative.orgId, initiative.id, {
    ...rest,
    ...stamps,
    updatedAt: ctx.now,
  })
  const next = await unscoped(ctx, initiative.id)
  const changes = initiativeFieldChanges(initiative, { ...changed, ...stamps })
  await recordHistory(ctx, initiative.id, { action: 'updated', changes })
  emitInitiative(ctx, 'initiative.updated', next, { initiative: next, changes })
  return requireInitiative(ctx, initiative.id)
}

export async function setInitiativeArchived(
  ctx: OperationContext,
  id: InitiativeId,
  archived: boolean,
): Promise<Initiative> {
  const initiative = await requireInitiative(ctx, id)
  if (Boolean(initiative.archivedAt) === archived) return initiative
  await ctx.store.initiatives.update(initiative.orgId, initiative.id, {
    archivedAt: archived ? ctx.now : null,
    updatedAt: ctx.now,
  })
  const next = await unscoped(ctx, initiative.id)
  await recordHistory(ctx, initiative.id, { action: archived ? 'archived' : 'restored', changes: {} })
  emitInitiative(ctx, archived ? 'initiative.archived' : 'initiative.restored', next, { initiative: next })
  return next
}

/** Deletes it with its links, members, history and status updates; its sub-initiatives move up to its parent. */
export async function deleteInitiative(ctx: OperationContext, id: InitiativeId): Promise<void> {
  const initiative = await requireInitiative(ctx, id)
  await ctx.store.locks.acquire(`initiative-tree:${initiative.orgId}`)
  const movedChildIds = await ctx.store.initiatives.delete(initiative.orgId, initiative.id)
  // Grants on the initiative go with it (its sub-initiatives move up and keep their own).
  await ctx.store.access.deleteGrantsOf(initiative.orgId, initiative.id)
  emitInitiative(ctx, 'initiative.deleted', initiative, {
    id: initiative.id,
    name: initiative.name,
    parentId: initiative.parentId,
    movedChildIds,
  })
}

/** A record for events and checks, whatever the caller sees; never answered as such. */
export async function unscoped(ctx: OperationContext, id: InitiativeId): Promise<Initiative> {
  const initiative = await ctx.store.initiatives.get(currentOrg(ctx).id, id, UNSCOPED)
  if (!initiative) throw notFound('Initiative')
  return initiative
}

/**
 * Initiatives are org-level records: their events carry no team, so readers with org-wide view get
 * them and team-scoped readers do not.
 */
export function emitInitiative(
  ctx: OperationContext,
  kind: string,
  initiative: Initiative,
  data: Record<string, unknown>,
): void {
  ctx.emit({ kind, resourceType: 'initiative', resourceId: initiative.id, teamId: null, data })
}

/** Refuses a write on an archived initiative. */
export function usable(initiative: Initiative): void {
  if (initiative.archivedAt) {
    throw new ProblemError('archived', 'The initiative is archived; restore it first.')
  }
}

async function requireParent(ctx: OperationContext, parentId: InitiativeId): Promise<Initiative> {
  const parent = await ctx.store.initiatives.get(currentOrg(ctx).id, parentId, await ctx.scope())
  if (!parent) {
    throw referenceNotFound(
      '/body/parentId',
      'The parent is not an initiative you can view.',
      'Not an initiative you can view',
    )
  }
  return parent
}

export async function activeMember(ctx: OperationContext, memberId: MemberId, pointer = '/body/ownerId') {
  const member = await ctx.store.members.get(currentOrg(ctx).id, memberId)
  if (member?.status !== 'active') {
    throw referenceNotFound(
      pointer,
      'Not an active member of this workspace.',
      'Not an active member of this workspace',
    )
  }
}
