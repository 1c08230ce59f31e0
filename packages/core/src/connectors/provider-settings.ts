import { currentOrg } from '../kernel/context.ts'
import type { MemberId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT, type Page, toPage } from '../kernel/pagination.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import type { ProviderDefinition } from './providers.ts'
import type { Provider } from './schemas.ts'
import { connectorsOf } from './use.ts'

function toProvider(p: ProviderDefinition, enabled: boolean): Provider {
  return {
    id: p.id,
    name: p.name,
    issuer: p.issuer,
    scopes: [...p.scopes],
    itemTypes: [...new Set(p.items.map((i) => i.type))],
    items: p.items.map((i) => ({ type: i.type, pattern: i.pattern })),
    enabled,
  }
}

/** The configured providers the workspace has not disabled: the only ones connected or read through. */
export async function enabledProviders(ctx: OperationContext): Promise<ProviderDefinition[]> {
  const providers = connectorsOf(ctx.config)?.providers ?? []
  if (providers.length === 0) return []
  const disabled = new Set(await ctx.store.connectorSettings.disabled(currentOrg(ctx).id))
  return providers.filter((p) => !disabled.has(p.id))
}

/** Every configured provider, with whether this workspace uses it. */
export async function listProviders(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Provider>> {
  const enabled = new Set((await enabledProviders(ctx)).map((p) => p.id))
  const scope = 'connectors.providers.list'
  const after = query.cursor ? ctx.cursors.decode(scope, query.cursor).id : null
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  // The providers are configuration, not rows: paged in memory, by id, as storage pages a table.
  const rows = [...(connectorsOf(ctx.config)?.providers ?? [])]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((p) => after === null || p.id > after)
    .slice(0, limit + 1)
    .map((p) => toProvider(p, enabled.has(p.id)))
  return toPage(rows, limit, (last) => ctx.cursors.encode(scope, { value: last.id, id: last.id }))
}

export async function getProvider(ctx: OperationContext, providerId: string): Promise<Provider> {
  const provider = connectorsOf(ctx.config)?.providers.find((p) => p.id === providerId)
  if (!provider) throw notFound('Provider')
  const enabled = (await enabledProviders(ctx)).some((p) => p.id === providerId)
  return toProvider(provider, enabled)
}

/**
 * Turns a provider on or off for the workspace. Connections to it stay (their owners may still
 * disconnect them) but are not used while it is off; linked items keep what was last read.
 */
export async function updateProvider(
  ctx: OperationContext,
  providerId: string,
  input: { enabled: boolean },
): Promise<Provider> {
  const before = await getProvider(ctx, providerId)
  const org = currentOrg(ctx)
  const changed = await ctx.store.connectorSettings.setEnabled(
    org.id,
    providerId,
    input.enabled,
    ctx.actor!.id as MemberId,
    ctx.now,
  )
  const provider = { ...before, enabled: input.enabled }
  if (changed)
    ctx.emit({
      kind: 'connector_provider.updated',
      resourceType: 'connector_provider',
      resourceId: providerId,
      teamId: null,
      data: { providerId, enabled: input.enabled },
    })
  return provider
}

/** A provider the caller may connect or read through now; a disabled one is refused. */
export async function requireEnabledProvider(
  ctx: OperationContext,
  providerId: string,
  pointer: string,
): Promise<ProviderDefinition> {
  const provider = (await enabledProviders(ctx)).find((p) => p.id === providerId)
  if (provider) return provider
  const configured = connectorsOf(ctx.config)?.providers.some((p) => p.id === providerId)
  throw new ProblemError(
    'reference_not_found',
    configured
      ? `The provider \`${providerId}\` is disabled in this workspace.`
      : `No provider \`${providerId}\` is configured.`,
    {
      errors: [{ pointer, message: configured ? 'Disabled in this workspace' : 'Not a configured provider' }],
    },
  )
}
