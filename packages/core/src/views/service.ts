import { currentOrg } from '../kernel/context.ts'
import type { MemberId, TeamId, ViewId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { canonicalJson } from '../kernel/pipeline/canonical.ts'
import { notFound } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { checkFilter, LIST_OF } from './filter.ts'
import type { View, ViewFilter, ViewModel } from './schemas.ts'

async function viewer(ctx: OperationContext) {
  return { memberId: ctx.actor!.id as MemberId, scope: await ctx.scope() }
}

/** A view the caller can see: their own personal views and the team views of teams they can view. */
export async function requireView(ctx: OperationContext, viewId: ViewId): Promise<View> {
  const view = await ctx.store.views.get(currentOrg(ctx).id, viewId, await viewer(ctx))
  if (!view) throw notFound('View')
  return view
}

export async function listViews(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<View>> {
  const orgId = currentOrg(ctx).id
  const who = await viewer(ctx)
  return readPage(ctx, {
    scope: ['views.list', orgId, who.memberId],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (v: View) => v.id,
    fetch: (page) => ctx.store.views.list(orgId, who, page),
  })
}

/** Sharing with a team is contributing to it: `contribute` on the team (404 when it cannot be seen). */
async function requireShareable(ctx: OperationContext, teamId: TeamId): Promise<void> {
  await ctx.require('contribute', { type: 'team', id: teamId, pointer: '/body/teamId' })
}

/** Its owner changes a view; so does whoever manages the team it is shared with. */
export async function requireEditable(ctx: OperationContext, view: View): Promise<void> {
  if (view.ownerId === ctx.actor!.id) return
  await ctx.require('manage', { type: 'team', id: view.teamId! })
}

/** Only team views are in the workspace log: a personal view belongs to its owner (docs/me.md). */
function emitShared(
  ctx: OperationContext,
  kind: string,
  teamId: TeamId | null,
  data: Record<string, unknown>,
) {
  if (!teamId) return
  ctx.emit({ kind, resourceType: 'view', resourceId: data.id as string, teamId, data })
}

export async function createView(
  ctx: OperationContext,
  input: {
    name: string
    description?: string | null
    model?: ViewModel
    filter: ViewFilter
    teamId?: TeamId | null
  },
): Promise<View> {
  const model = input.model ?? 'tasks'
  const filter = checkFilter(ctx, model, input.filter)
  if (input.teamId) await requireShareable(ctx, input.teamId)
  const view: View = {
    id: newId('ViewId'),
    orgId: currentOrg(ctx).id,
    name: input.name,
    description: input.description ?? null,
    model,
    filter,
    visibility: input.teamId ? 'team' : 'personal',
    teamId: input.teamId ?? null,
    ownerId: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.views.insert(view)
  emitShared(ctx, 'view.created', view.teamId, { id: view.id, view })
  return view
}

export async function updateView(
  ctx: OperationContext,
  viewId: ViewId,
  patch: { name?: string; description?: string | null; filter?: ViewFilter; teamId?: TeamId | null },
): Promise<View> {
  const view = await requireView(ctx, viewId)
  await requireEditable(ctx, view)
  const next: Partial<View> = { ...patch }
  if (patch.filter) next.filter = checkFilter(ctx, view.model, patch.filter)
  if (patch.teamId !== undefined) {
    if (patch.teamId && patch.teamId !== view.teamId) await requireShareable(ctx, patch.teamId)
    next.visibility = patch.teamId ? 'team' : 'personal'
  }
  const changes = Object.fromEntries(
    Object.entries(next)
      .filter(([k, after]) => canonicalJson(after) !== canonicalJson(view[k as keyof View]))
      .map(([k, after]) => [k, { before: view[k as keyof View], after }]),
  )
  if (Object.keys(changes).length === 0) return view
  await ctx.store.views.update(view.orgId, view.id, { ...next, updatedAt: ctx.now })
  const updated = await requireViewUnscoped(ctx, view)
  if (updated.teamId) emitShared(ctx, 'view.updated', updated.teamId, { id: view.id, view: updated, changes })
  // Made personal again: the team it left learns only that it is gone from them.
  if (view.teamId && view.teamId !== updated.teamId)
    emitShared(ctx, 'view.unshared', view.teamId, { id: view.id })
  return updated
}

// A manager may make a view personal, after which only its owner could read it: read it as storage.
async function requireViewUnscoped(ctx: OperationContext, view: View): Promise<View> {
  const read = await ctx.store.views.get(view.orgId, view.id, { memberId: view.ownerId, scope: UNSCOPED })
  if (!read) throw notFound('View')
  return read
}

export async function deleteView(ctx: OperationContext, viewId: ViewId): Promise<void> {
  const view = await requireView(ctx, viewId)
  await requireEditable(ctx, view)
  await ctx.store.views.delete(view.orgId, view.id)
  emitShared(ctx, 'view.deleted', view.teamId, { id: view.id, name: view.name })
}

/**
 * Runs the view's filter through its list operation as the caller: the same permission predicate,
 * sort and keyset pages as calling `tasks.list` (or `projects.list`) with that query yourself.
 */
export async function viewResults(
  ctx: OperationContext,
  viewId: ViewId,
  query: { cursor?: string; limit?: number },
): Promise<{ model: ViewModel; data: unknown[]; nextCursor: string | null }> {
  const view = await requireView(ctx, viewId)
  const paging = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined))
  // A tasks view runs `tasks.query` with its filter as the body; a projects view `projects.list`.
  const request = { ...view.filter, ...paging }
  const page = (await ctx.invoke(
    LIST_OF[view.model],
    view.model === 'tasks'
      ? { params: {}, query: {}, body: request }
      : { params: {}, query: request, body: undefined },
    ctx.actor!,
  )) as Page<unknown>
  return { model: view.model, data: page.data, nextCursor: page.nextCursor }
}
