import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { type LinkId, newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../kernel/ordering.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { linkParent } from './parents.ts'
import type { Link, LinkParentType } from './schemas.ts'

export interface LinkFields {
  url?: string
  title?: string | null
}

/** The parent's links in position order; 404 when the caller cannot view the parent. */
export async function listLinks(
  ctx: OperationContext,
  parentType: LinkParentType,
  parentId: string,
  query: { cursor?: string; limit?: number },
): Promise<Page<Link>> {
  const parent = await linkParent(ctx.hook, parentType).require(ctx, parentId)
  const orgId = currentOrg(ctx).id
  return readPage(ctx, {
    scope: ['links.list', orgId, parentType, parent.id],
    query,
    sort: 'position' as const,
    direction: 'asc',
    keyOf: (l: Link) => l.position,
    fetch: (page) => ctx.store.links.list(orgId, parentType, parent.id, page),
  })
}

/** Adds a URL to the parent, last. */
export async function createLink(
  ctx: OperationContext,
  parentType: LinkParentType,
  parentId: string,
  input: LinkFields & { url: string },
): Promise<Link> {
  const parent = await linkParent(ctx.hook, parentType).require(ctx, parentId)
  const orgId = currentOrg(ctx).id
  await lockLinks(ctx, parentType, parent.id)
  const last = await ctx.store.links.lastPosition(orgId, parentType, parent.id)
  const link: Link = {
    id: newId('LinkId'),
    orgId,
    parentType,
    parentId: parent.id,
    url: input.url,
    title: input.title ?? null,
    position: last === null ? 0 : Math.floor(last) + 1,
    createdBy: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.links.insert(link)
  await linkParent(ctx.hook, parentType).changed?.(ctx, null, link)
  await emitLink(ctx, 'created', link, { link })
  return link
}

/** The link, if the caller may view its parent; otherwise 404, as if it did not exist. */
export async function requireLink(ctx: OperationContext, id: LinkId): Promise<Link> {
  const link = await ctx.store.links.get(currentOrg(ctx).id, id)
  if (!link) throw notFound('Link')
  try {
    await linkParent(ctx.hook, link.parentType).require(ctx, link.parentId)
  } catch (e) {
    if (e instanceof ProblemError && e.code === 'not_found') throw notFound('Link')
    throw e
  }
  return link
}

export async function updateLink(ctx: OperationContext, id: LinkId, input: LinkFields): Promise<Link> {
  const link = await requireLink(ctx, id)
  const changed = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && link[k as keyof Link] !== v),
  ) as LinkFields
  if (Object.keys(changed).length === 0) return link
  await ctx.store.links.update(link.orgId, link.id, { ...changed, updatedAt: ctx.now })
  const next = { ...link, ...changed, updatedAt: ctx.now }
  await linkParent(ctx.hook, link.parentType).changed?.(ctx, link, next)
  await emitLink(ctx, 'updated', next, { link: next, changes: changesOf(link, changed) })
  return next
}

/**
 * Puts the link just before or just after another link of the same parent; the parent's positions
 * are renumbered 0…n−1 in the new order. A move that changes nothing emits nothing.
 */
export async function moveLink(ctx: OperationContext, id: LinkId, to: MoveTo): Promise<Link> {
  const link = await requireLink(ctx, id)
  await lockLinks(ctx, link.parentType, link.parentId)
  const all = await ctx.store.links.all(link.orgId, link.parentType, link.parentId)
  const { order, moved } = placeMoved(all, link.id, to, `another link of the same ${link.parentType}`)
  if (!moved) return link
  for (const [position, l] of order.entries()) {
    if (l.position !== position)
      await ctx.store.links.update(link.orgId, l.id, { position, updatedAt: ctx.now })
  }
  const position = order.findIndex((l) => l.id === link.id)
  const next = { ...link, position, updatedAt: ctx.now }
  await emitLink(ctx, 'moved', next, { link: next, order: order.map((l) => l.id) })
  return next
}

/** Removes the link; on a task, someone else's link needs `manage` on it (your own, `contribute`). */
export async function deleteLink(ctx: OperationContext, id: LinkId): Promise<void> {
  const link = await requireLink(ctx, id)
  const parent = linkParent(ctx.hook, link.parentType)
  if (parent.othersNeedManage && link.createdBy !== ctx.actor!.id)
    await ctx.require('manage', { type: 'link', id: link.id })
  await ctx.store.links.delete(link.orgId, link.id)
  await parent.changed?.(ctx, link, null)
  await emitLink(ctx, 'deleted', link, { id: link.id, parentType: link.parentType, parentId: link.parentId })
}

async function lockLinks(ctx: OperationContext, parentType: LinkParentType, parentId: string): Promise<void> {
  await ctx.store.locks.acquire(`links:${currentOrg(ctx).id}:${parentType}:${parentId}`)
}

/** Filed where the parent's own events are, so only readers who can view the parent get them. */
async function emitLink(
  ctx: OperationContext,
  action: 'created' | 'updated' | 'moved' | 'deleted',
  link: Link,
  data: Record<string, unknown>,
): Promise<void> {
  ctx.emit({
    kind: `link.${action}`,
    resourceType: 'link',
    resourceId: link.id,
    teamId: await linkParent(ctx.hook, link.parentType).eventTeam(ctx.store, link.orgId, link.parentId),
    data: { parentType: link.parentType, ...data },
  })
}
