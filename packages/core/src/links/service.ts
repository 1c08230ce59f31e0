import { newId, type ResourceLinkId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { changesOf, currentOrg } from '../orgs/service.ts'
import { LINK_PARENTS } from './parents.ts'
import type { LinkParentType, ResourceLink } from './schemas.ts'

export interface LinkFields {
  url?: string
  title?: string | null
  position?: number
}

/** The container's links in position order; 404 when the caller cannot view the container. */
export async function listLinks(
  ctx: OperationContext,
  parentType: LinkParentType,
  parentId: string,
  query: { cursor?: string; limit?: number },
): Promise<Page<ResourceLink>> {
  const parent = await LINK_PARENTS[parentType].require(ctx, parentId)
  const orgId = currentOrg(ctx).id
  return readPage(ctx, {
    scope: ['links.list', orgId, parentType, parent.id],
    query,
    sort: 'position' as const,
    direction: 'asc',
    keyOf: (l: ResourceLink) => l.position,
    fetch: (page) => ctx.store.resourceLinks.list(orgId, parentType, parent.id, page),
  })
}

/** Adds a URL to the container, last unless `position` says otherwise. */
export async function createLink(
  ctx: OperationContext,
  parentType: LinkParentType,
  parentId: string,
  input: LinkFields & { url: string },
): Promise<ResourceLink> {
  const parent = await LINK_PARENTS[parentType].require(ctx, parentId)
  const orgId = currentOrg(ctx).id
  const last = await ctx.store.resourceLinks.lastPosition(orgId, parentType, parent.id)
  const link: ResourceLink = {
    id: newId('ResourceLinkId'),
    orgId,
    parentType,
    parentId: parent.id,
    url: input.url,
    title: input.title ?? null,
    position: input.position ?? (last === null ? 0 : Math.floor(last) + 1),
    createdBy: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.resourceLinks.insert(link)
  await emitLink(ctx, 'created', link, { link })
  return link
}

/** The link, if the caller may view its container; otherwise 404, as if it did not exist. */
export async function requireLink(ctx: OperationContext, id: ResourceLinkId): Promise<ResourceLink> {
  const link = await ctx.store.resourceLinks.get(currentOrg(ctx).id, id)
  if (!link) throw notFound('Link')
  try {
    await LINK_PARENTS[link.parentType].require(ctx, link.parentId)
  } catch (e) {
    if (e instanceof ProblemError && e.code === 'not_found') throw notFound('Link')
    throw e
  }
  return link
}

export async function updateLink(
  ctx: OperationContext,
  id: ResourceLinkId,
  input: LinkFields,
): Promise<ResourceLink> {
  const link = await requireLink(ctx, id)
  const changed = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && link[k as keyof ResourceLink] !== v),
  ) as LinkFields
  if (Object.keys(changed).length === 0) return link
  await ctx.store.resourceLinks.update(link.orgId, link.id, { ...changed, updatedAt: ctx.now })
  const next = { ...link, ...changed, updatedAt: ctx.now }
  await emitLink(ctx, 'updated', next, { link: next, changes: changesOf(link, changed) })
  return next
}

export async function deleteLink(ctx: OperationContext, id: ResourceLinkId): Promise<void> {
  const link = await requireLink(ctx, id)
  await ctx.store.resourceLinks.delete(link.orgId, link.id)
  await emitLink(ctx, 'deleted', link, { id: link.id, parentType: link.parentType, parentId: link.parentId })
}

/** Filed where the container's own events are, so only readers who can view the container get them. */
async function emitLink(
  ctx: OperationContext,
  action: 'created' | 'updated' | 'deleted',
  link: ResourceLink,
  data: Record<string, unknown>,
): Promise<void> {
  ctx.emit({
    kind: `link.${action}`,
    resourceType: 'link',
    resourceId: link.id,
    teamId: await LINK_PARENTS[link.parentType].eventTeam(ctx.store, link.orgId, link.parentId),
    data: { parentType: link.parentType, ...data },
  })
}
