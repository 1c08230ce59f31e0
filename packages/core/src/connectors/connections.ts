import { randomBytes } from 'node:crypto'
import type * as oauth from 'oauth4webapi'
import { currentOrg } from '../kernel/context.ts'
import { type ConnectionId, type MemberId, newId } from '../kernel/ids.ts'
import type { EngineConfig, OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import {
  authorizationServer,
  authorizationUrl,
  readResource,
  redeemCode,
  revokeToken,
  type TokenSet,
} from './oauth-client.ts'
import { enabledProviders, requireEnabledProvider } from './provider-settings.ts'
import type { Connection, ConnectionRecord, Provider } from './schemas.ts'
import { seal, unseal } from './secrets.ts'
import {
  connectorsOf,
  providerOf,
  publicConnection,
  saveRotation,
  sealedTokens,
  sessionOf,
  type TokensInUse,
  tokensOf,
  withAccessToken,
} from './use.ts'

/** Where providers send the browser back; register this redirect URI with each provider. */
export const callbackUrl = (config: EngineConfig) => `${config.baseUrl}/connectors/callback`
const PENDING_MS = 10 * 60_000

/** Connections are a person's own: agents have none. */
function personOf(ctx: OperationContext): MemberId {
  if (ctx.actor?.kind !== 'person')
    throw new ProblemError('capability_required', 'Only people connect other tools.', {
      extensions: { capability: 'contribute' },
    })
  return ctx.actor.id as MemberId
}

/** The caller's own connection; anyone else's is a 404, like a missing one. */
export async function requireConnection(ctx: OperationContext, id: ConnectionId): Promise<ConnectionRecord> {
  const found = await ctx.store.connections.get(currentOrg(ctx).id, personOf(ctx), id)
  if (!found) throw notFound('Connection')
  return found
}

export async function getConnection(ctx: OperationContext, id: ConnectionId): Promise<Connection> {
  return publicConnection(await requireConnection(ctx, id))
}

export async function listConnections(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Connection>> {
  const orgId = currentOrg(ctx).id
  const memberId = personOf(ctx)
  const page = await readPage(ctx, {
    scope: ['connections.list', orgId, memberId],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (c: ConnectionRecord) => c.id,
    fetch: (p) => ctx.store.connections.list(orgId, memberId, p),
  })
  return { data: page.data.map(publicConnection), nextCursor: page.nextCursor }
}

// connections.create: discover the provider (outside the transaction), then store the attempt.

export async function prepareStart(
  ctx: OperationContext,
  providerId: string,
): Promise<{ providerId: string }> {
  personOf(ctx)
  await requireEnabledProvider(ctx, providerId, '/body/providerId')
  return { providerId }
}

export async function sendStart(prepared: { providerId: string }, config: EngineConfig) {
  const session = sessionOf(config, providerOf(config, prepared.providerId)!)
  const as = await authorizationServer(session)
  const state = randomBytes(32).toString('base64url')
  const codeVerifier = randomBytes(32).toString('base64url')
  const url = await authorizationUrl(session, as, { redirectUri: callbackUrl(config), state, codeVerifier })
  return { state, codeVerifier, url }
}

export async function startConnection(
  ctx: OperationContext,
  providerId: string,
  sent: { state: string; codeVerifier: string; url: string },
) {
  const org = currentOrg(ctx)
  const id = newId('ConnectionId')
  const record: ConnectionRecord = {
    id,
    orgId: org.id,
    memberId: personOf(ctx),
    userId: ctx.principal!.userId,
    providerId,
    status: 'pending',
    scopes: [],
    createdAt: ctx.now,
    connectedAt: null,
    lastCheckedAt: null,
    lastError: null,
    state: sent.state,
    stateExpiresAt: new Date(Date.parse(ctx.now) + PENDING_MS).toISOString(),
    codeVerifier: seal(connectorsOf(ctx.config)!.encryptionKey, id, sent.codeVerifier),
    accessToken: null,
    refreshToken: null,
    tokenExpiresAt: null,
    tokenVersion: 0,
  }
  await ctx.store.connections.insert(record)
  emitConnection(ctx, 'connection.created', record)
  return { connection: publicConnection(record), authorizationUrl: sent.url }
}

function emitConnection(ctx: OperationContext, kind: string, r: ConnectionRecord) {
  // Only what a workspace's stream may show: never a token or the account at the provider.
  ctx.emit(
    {
      kind,
      resourceType: 'connection',
      resourceId: r.id,
      teamId: null,
      data: { connection: { id: r.id, memberId: r.memberId, providerId: r.providerId, status: r.status } },
    },
    r.orgId,
  )
}

// connectors.callback: the provider's redirect lands here with `state`, `code` (or `error`) and `iss`.

const failed = (why: string) => new ProblemError('authorization_failed', why)

export async function prepareCallback(ctx: OperationContext, query: Record<string, string>) {
  const pending = await ctx.store.connections.findPendingByState(query.state ?? '')
  if (!pending || Date.parse(pending.stateExpiresAt ?? '') < Date.parse(ctx.now))
    throw failed('No connection is waiting for this authorization, or it expired: connect again.')
  const key = connectorsOf(ctx.config)!.encryptionKey
  return { pending, codeVerifier: unseal(key, pending.id, pending.codeVerifier!), query }
}

export async function sendCallback(
  prepared: Awaited<ReturnType<typeof prepareCallback>>,
  config: EngineConfig,
): Promise<TokenSet> {
  const provider = providerOf(config, prepared.pending.providerId)
  if (!provider) throw failed('The provider is no longer configured.')
  const session = sessionOf(config, provider)
  const as: oauth.AuthorizationServer = await authorizationServer(session)
  return redeemCode(session, as, {
    callback: new URLSearchParams(prepared.query),
    state: prepared.pending.state!,
    codeVerifier: prepared.codeVerifier,
    redirectUri: callbackUrl(config),
    now: new Date(),
  })
}

export async function completeConnection(
  ctx: OperationContext,
  state: string,
  tokens: TokenSet,
): Promise<Connection> {
  const pending = await ctx.store.connections.findPendingByState(state)
  if (!pending) throw failed('This authorization was used already.')
  const patch = {
    ...sealedTokens(ctx, pending.id, tokens),
    status: 'active' as const,
    scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : [],
    connectedAt: ctx.now,
    state: null,
    stateExpiresAt: null,
    codeVerifier: null,
  }
  // Single use: of two redirects with the same state, one completes the connection.
  if (!(await ctx.store.connections.update(pending.orgId, pending.id, pending.tokenVersion, patch)))
    throw failed('This authorization was used already.')
  await ctx.store.connections.deleteForProvider(
    pending.orgId,
    pending.memberId,
    pending.providerId,
    pending.id,
  )
  const done: ConnectionRecord = { ...pending, ...patch, tokenVersion: pending.tokenVersion + 1 }
  emitConnection(ctx, 'connection.connected', done)
  return publicConnection(done)
}

// connections.test: read the provider's test URL with the connection's token.

export async function prepareTest(ctx: OperationContext, id: ConnectionId): Promise<TokensInUse> {
  const connection = await requireConnection(ctx, id)
  if (!(await enabledProviders(ctx)).some((p) => p.id === connection.providerId))
    throw new ProblemError('connection_inactive', 'The provider is disabled in this workspace.')
  return tokensOf(ctx, connection)
}

export async function sendTest(tokens: TokensInUse, config: EngineConfig) {
  try {
    const { result, rotated } = await withAccessToken(config, tokens, async (session, access) => {
      const url = session.provider.testUrl
      if (!url) return { status: 200 }
      return readResource(session, access, url)
    })
    return { tokens, status: result.status, rotated, error: null as string | null }
  } catch (error) {
    if (error instanceof ProblemError && error.code === 'connection_inactive')
      return { tokens, status: 401, rotated: null, error: error.message }
    throw error
  }
}

export async function recordTest(
  ctx: OperationContext,
  id: ConnectionId,
  sent: Awaited<ReturnType<typeof sendTest>>,
) {
  const current = await requireConnection(ctx, id)
  await saveRotation(ctx, sent.tokens, sent.rotated)
  const ok = sent.status >= 200 && sent.status < 300
  const error = ok ? null : (sent.error ?? `The provider answered HTTP ${sent.status}.`)
  const after = (await ctx.store.connections.get(current.orgId, current.memberId, id))!
  const patch = {
    lastCheckedAt: ctx.now,
    lastError: error,
    status: ok ? ('active' as const) : ('broken' as const),
  }
  await ctx.store.connections.update(after.orgId, id, after.tokenVersion, patch)
  emitConnection(ctx, 'connection.checked', { ...after, ...patch })
  return { ok, status: sent.status, connection: publicConnection({ ...after, ...patch }) }
}

// connections.delete: revoke at the provider when it offers RFC 7009, then forget the tokens.

export async function prepareDisconnect(ctx: OperationContext, id: ConnectionId) {
  const record = await requireConnection(ctx, id)
  return record.status === 'pending' || !record.accessToken ? null : tokensOf(ctx, record)
}

export async function sendDisconnect(tokens: TokensInUse | null, config: EngineConfig): Promise<boolean> {
  const provider = tokens && providerOf(config, tokens.providerId)
  if (!tokens || !provider) return false
  const session = sessionOf(config, provider)
  try {
    return await revokeToken(
      session,
      await authorizationServer(session),
      tokens.refreshToken ?? tokens.accessToken,
    )
  } catch {
    // The person asked to disconnect: the tokens are forgotten here even when the provider is unreachable.
    return false
  }
}

export async function disconnect(ctx: OperationContext, id: ConnectionId, revoked: boolean): Promise<void> {
  const record = await requireConnection(ctx, id)
  await ctx.store.connections.delete(record.orgId, record.id)
  ctx.emit(
    {
      kind: 'connection.deleted',
      resourceType: 'connection',
      resourceId: record.id,
      teamId: null,
      data: {
        connection: { id: record.id, memberId: record.memberId, providerId: record.providerId },
        revokedAtProvider: revoked,
      },
    },
    record.orgId,
  )
}
