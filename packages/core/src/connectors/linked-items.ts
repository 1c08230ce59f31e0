import { currentOrg } from '../kernel/context.ts'
import {
  type LinkedItemId,
  type MemberId,
  newId,
  type ProjectId,
  type TaskId,
  type TeamId,
} from '../kernel/ids.ts'
import type { EngineConfig, OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { requireProject } from '../projects/service.ts'
import { requireTask } from '../tasks/require-task.ts'
import { readResource } from './oauth-client.ts'
import { enabledProviders } from './provider-settings.ts'
import { type MatchedItem, matchItemUrl, readItemFields } from './providers.ts'
import type { LinkedItem, LinkedItemPreview } from './schemas.ts'
import type { LinkedItemHolder } from './storage.ts'
import { connectorsOf, saveRotation, type TokensInUse, tokensOf, withAccessToken } from './use.ts'

type Fields = Pick<
  LinkedItem,
  'itemType' | 'title' | 'state' | 'assignee' | 'externalUpdatedAt' | 'fetchedAt'
>

/** What a link needs from outside: the URL, the provider that reads it, the caller's tokens for it. */
interface Plan {
  url: string
  match: (Pick<MatchedItem, 'apiUrl'> & { providerId: string; allowLoopback: boolean; index: number }) | null
  tokens: TokensInUse | null
}

/**
 * The one form a URL is stored and compared in (WHATWG URL serialisation: scheme and host in lower
 * case, default port dropped, dot segments resolved, percent-encoding made uniform).
 */
export function normalizeUrl(raw: string, pointer = '/body/url'): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    url = new URL('invalid:')
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
    throw new ProblemError('rule_violated', 'Link an http or https URL without credentials.', {
      errors: [{ pointer, message: 'Not an http(s) URL' }],
    })
  return url.href
}

async function plan(ctx: OperationContext, url: string): Promise<Plan> {
  // A provider the workspace disabled reads nothing: its URLs are plain links.
  const providers = await enabledProviders(ctx)
  const found = matchItemUrl(providers, url)
  if (!found) return { url, match: null, tokens: null }
  const connection = await ctx.store.connections.findForProvider(
    currentOrg(ctx).id,
    ctx.actor!.id as MemberId,
    found.provider.id,
  )
  return {
    url,
    match: {
      apiUrl: found.apiUrl,
      providerId: found.provider.id,
      allowLoopback: found.provider.allowLoopback === true,
      index: found.provider.items.indexOf(found.item),
    },
    tokens: connection && connection.status !== 'pending' ? tokensOf(ctx, connection) : null,
  }
}

/** Reads the item through the caller's connection; with none, checks only where the URL points. */
async function fetchItem(p: Plan, config: EngineConfig) {
  const connectors = connectorsOf(config)
  if (!connectors) return { fields: null, rotated: null }
  const refusal = await connectors.fetcher.refusal(p.url, { allowLoopback: p.match?.allowLoopback ?? false })
  if (refusal) throw new ProblemError('outbound_refused', `The URL is refused: ${refusal}.`)
  if (!p.match || !p.tokens) return { fields: null, rotated: null }
  const match = p.match
  const { result, rotated } = await withAccessToken(config, p.tokens, (session, access) =>
    readResource(session, access, match.apiUrl),
  )
  if (result.status === 401)
    throw new ProblemError(
      'connection_inactive',
      'The provider refused the connection’s token: test or reconnect it.',
    )
  if ([403, 404, 410].includes(result.status))
    throw new ProblemError(
      'external_item_not_found',
      `The provider answered HTTP ${result.status} for this item.`,
    )
  if (result.status < 200 || result.status >= 300)
    throw new ProblemError('provider_unavailable', `The provider answered HTTP ${result.status}.`)
  const item = connectors.providers.find((p) => p.id === match.providerId)!.items[match.index]!
  const read = readItemFields(item, result.json)
  const fields: Omit<Fields, 'fetchedAt'> = {
    itemType: item.type,
    title: read.title,
    state: read.state,
    assignee: read.assignee,
    externalUpdatedAt: read.updatedAt,
  }
  return { fields, rotated }
}

/** What an item is linked to, as the caller may see it: a hidden task or project is 404. */
interface Holder {
  orgId: LinkedItem['orgId']
  ref: LinkedItemHolder
  teamId: TeamId
  name: 'task' | 'project'
}

async function requireHolder(ctx: OperationContext, ref: LinkedItemHolder): Promise<Holder> {
  if (ref.type === 'task') {
    const task = await requireTask(ctx, ref.id as TaskId)
    return { orgId: task.orgId, ref, teamId: task.teamId, name: 'task' }
  }
  const project = await requireProject(ctx, ref.id as ProjectId)
  return { orgId: project.orgId, ref, teamId: project.teamIds[0] as TeamId, name: 'project' }
}

export async function prepareLink(
  ctx: OperationContext,
  ref: LinkedItemHolder,
  rawUrl: string,
): Promise<Plan> {
  const holder = await requireHolder(ctx, ref)
  const url = normalizeUrl(rawUrl)
  if (await ctx.store.linkedItems.findByUrl(holder.orgId, holder.ref, url))
    throw new ProblemError('already_exists', `This URL is linked to the ${holder.name} already.`)
  return plan(ctx, url)
}

/** The outbound step of linking and refreshing: the plan travels on to the write. */
export const sendLink = async (p: Plan, config: EngineConfig) => ({
  plan: p,
  got: await fetchItem(p, config),
})
type Fetched = Awaited<ReturnType<typeof fetchItem>>

export async function linkItem(
  ctx: OperationContext,
  ref: LinkedItemHolder,
  p: Plan,
  got: Fetched,
): Promise<LinkedItem> {
  const holder = await requireHolder(ctx, ref)
  if (await ctx.store.linkedItems.findByUrl(holder.orgId, holder.ref, p.url))
    throw new ProblemError('already_exists', `This URL is linked to the ${holder.name} already.`)
  const item: LinkedItem = {
    id: newId('LinkedItemId'),
    orgId: holder.orgId,
    taskId: ref.type === 'task' ? (ref.id as TaskId) : null,
    projectId: ref.type === 'project' ? (ref.id as ProjectId) : null,
    url: p.url,
    providerId: p.match?.providerId ?? null,
    itemType: got.fields?.itemType ?? null,
    title: got.fields?.title ?? null,
    state: got.fields?.state ?? null,
    assignee: got.fields?.assignee ?? null,
    externalUpdatedAt: got.fields?.externalUpdatedAt ?? null,
    fetchedAt: got.fields ? ctx.now : null,
    creatorId: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
  }
  await ctx.store.linkedItems.insert(item)
  if (p.tokens) await saveRotation(ctx, p.tokens, got.rotated)
  ctx.emit({
    kind: 'linked_item.created',
    resourceType: 'linked_item',
    resourceId: item.id,
    teamId: holder.teamId,
    data: { linkedItem: item },
  })
  return item
}

/** What a linked item is linked to: its task or its project. */
function holderOf(item: LinkedItem): LinkedItemHolder {
  return item.taskId ? { type: 'task', id: item.taskId } : { type: 'project', id: item.projectId! }
}

/**
 * A linked item of a task or project the caller can view, whichever it is linked to; an item of a
 * hidden or deleted record is a 404, as a missing one.
 */
export async function requireLinkedItem(
  ctx: OperationContext,
  id: LinkedItemId,
): Promise<{ item: LinkedItem; holder: Holder }> {
  const item = await ctx.store.linkedItems.get(currentOrg(ctx).id, id)
  if (!item) throw notFound('Linked item')
  try {
    return { item, holder: await requireHolder(ctx, holderOf(item)) }
  } catch (e) {
    if (e instanceof ProblemError && e.code === 'not_found') throw notFound('Linked item')
    throw e
  }
}

export async function listLinkedItems(
  ctx: OperationContext,
  ref: LinkedItemHolder,
  query: { cursor?: string; limit?: number },
): Promise<Page<LinkedItem>> {
  const holder = await requireHolder(ctx, ref)
  return readPage(ctx, {
    scope: ['linkedItems.list', holder.orgId, ref.type, ref.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (i: LinkedItem) => i.id,
    fetch: (page) => ctx.store.linkedItems.list(holder.orgId, holder.ref, page),
  })
}

export async function prepareRefresh(ctx: OperationContext, id: LinkedItemId): Promise<Plan> {
  const { item } = await requireLinkedItem(ctx, id)
  const p = await plan(ctx, item.url)
  if (!p.match)
    throw new ProblemError('connection_required', 'No provider enabled in this workspace reads this URL.')
  if (!p.tokens)
    throw new ProblemError('connection_required', `Connect \`${p.match.providerId}\` to refresh this item.`)
  return p
}

export async function refreshLinkedItem(
  ctx: OperationContext,
  id: LinkedItemId,
  p: Plan,
  got: Fetched,
): Promise<LinkedItem> {
  const { item, holder } = await requireLinkedItem(ctx, id)
  const patch = { ...got.fields!, fetchedAt: ctx.now }
  await ctx.store.linkedItems.update(item.orgId, item.id, patch)
  await saveRotation(ctx, p.tokens!, got.rotated)
  const updated = { ...item, ...patch }
  ctx.emit({
    kind: 'linked_item.refreshed',
    resourceType: 'linked_item',
    resourceId: item.id,
    teamId: holder.teamId,
    data: { linkedItem: updated },
  })
  return updated
}

export async function unlinkItem(ctx: OperationContext, id: LinkedItemId): Promise<void> {
  const { item, holder } = await requireLinkedItem(ctx, id)
  await ctx.store.linkedItems.delete(item.orgId, item.id)
  ctx.emit({
    kind: 'linked_item.deleted',
    resourceType: 'linked_item',
    resourceId: item.id,
    teamId: holder.teamId,
    data: { linkedItem: item },
  })
}

/** One linked item of a task or project the caller can view. */
export async function getLinkedItem(ctx: OperationContext, id: LinkedItemId): Promise<LinkedItem> {
  return (await requireLinkedItem(ctx, id)).item
}

/** The items linking this URL on the tasks and projects the caller can view; nothing else shows. */
export async function lookupLinkedItems(
  ctx: OperationContext,
  query: { url: string; cursor?: string; limit?: number },
): Promise<Page<LinkedItem>> {
  const orgId = currentOrg(ctx).id
  const url = normalizeUrl(query.url, '/query/url')
  const scope = await ctx.scope()
  return readPage(ctx, {
    scope: ['linkedItems.lookup', orgId, url],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (i: LinkedItem) => i.id,
    fetch: (page) => ctx.store.linkedItems.lookup(orgId, url, scope, page),
  })
}

// linkedItems.preview: read a URL as linking it would, and keep nothing.

export async function preparePreview(ctx: OperationContext, rawUrl: string): Promise<Plan> {
  return plan(ctx, normalizeUrl(rawUrl))
}

export async function previewLinkedItem(
  ctx: OperationContext,
  p: Plan,
  got: Fetched,
): Promise<LinkedItemPreview> {
  // Reading may have rotated the connection's tokens: those are kept, the item is not.
  if (p.tokens) await saveRotation(ctx, p.tokens, got.rotated)
  return {
    url: p.url,
    providerId: p.match?.providerId ?? null,
    connected: got.fields !== null,
    itemType: got.fields?.itemType ?? null,
    title: got.fields?.title ?? null,
    state: got.fields?.state ?? null,
    assignee: got.fields?.assignee ?? null,
    externalUpdatedAt: got.fields?.externalUpdatedAt ?? null,
    fetchedAt: got.fields ? ctx.now : null,
  }
}
