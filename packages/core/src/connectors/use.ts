import type { EngineConfig, OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { ConnectorsConfig } from './config.ts'
import { authorizationServer, type ProviderSession, refreshTokens, type TokenSet } from './oauth-client.ts'
import type { ProviderDefinition } from './providers.ts'
import type { Connection, ConnectionRecord } from './schemas.ts'
import { seal, unseal } from './secrets.ts'

/** The server's connector settings; without them no provider exists. */
export function connectorsOf(config: EngineConfig): ConnectorsConfig | null {
  return config.connectors ?? null
}

export function providerOf(config: EngineConfig, providerId: string): ProviderDefinition | null {
  return connectorsOf(config)?.providers.find((p) => p.id === providerId) ?? null
}

export function sessionOf(config: EngineConfig, provider: ProviderDefinition): ProviderSession {
  return { provider, fetcher: connectorsOf(config)!.fetcher }
}

/** The API's view of a connection: never a token, a verifier or a state. */
export function publicConnection(r: ConnectionRecord): Connection {
  return {
    id: r.id,
    orgId: r.orgId,
    memberId: r.memberId,
    providerId: r.providerId,
    status: r.status,
    scopes: r.scopes,
    createdAt: r.createdAt,
    connectedAt: r.connectedAt,
    lastCheckedAt: r.lastCheckedAt,
    lastError: r.lastError,
  }
}

/** A connection's tokens, unsealed in memory for one outbound exchange. */
export interface TokensInUse {
  providerId: string
  connectionId: ConnectionRecord['id']
  version: number
  accessToken: string
  refreshToken: string | null
  expiresAt: string | null
}

export function tokensOf(ctx: OperationContext, r: ConnectionRecord): TokensInUse {
  if (r.status === 'pending' || !r.accessToken)
    throw new ProblemError('connection_inactive', 'The connection is still waiting for authorization.')
  const key = connectorsOf(ctx.config)!.encryptionKey
  return {
    providerId: r.providerId,
    connectionId: r.id,
    version: r.tokenVersion,
    accessToken: unseal(key, r.id, r.accessToken),
    refreshToken: r.refreshToken ? unseal(key, r.id, r.refreshToken) : null,
    expiresAt: r.tokenExpiresAt,
  }
}

/**
 * Calls the provider with a fresh access token: refreshes it first when it expires within a minute.
 * Answers the rotated tokens for `saveRotation` to store.
 */
export async function withAccessToken<T>(
  config: EngineConfig,
  tokens: TokensInUse,
  fn: (session: ProviderSession, accessToken: string) => Promise<T>,
): Promise<{ result: T; rotated: TokenSet | null }> {
  const provider = providerOf(config, tokens.providerId)
  if (!provider) throw new ProblemError('connection_inactive', 'The provider is no longer configured.')
  const session = sessionOf(config, provider)
  const now = new Date()
  let rotated: TokenSet | null = null
  if (tokens.refreshToken && tokens.expiresAt && Date.parse(tokens.expiresAt) - now.getTime() < 60_000) {
    rotated = await refreshTokens(session, await authorizationServer(session), tokens.refreshToken, now)
  }
  return { result: await fn(session, rotated?.accessToken ?? tokens.accessToken), rotated }
}

/** The sealed columns of a token set. */
export function sealedTokens(ctx: OperationContext, connectionId: string, tokens: TokenSet) {
  const key = connectorsOf(ctx.config)!.encryptionKey
  return {
    accessToken: seal(key, connectionId, tokens.accessToken),
    refreshToken: tokens.refreshToken ? seal(key, connectionId, tokens.refreshToken) : null,
    tokenExpiresAt: tokens.expiresAt,
  }
}

/**
 * Stores tokens a refresh rotated. When another request rotated them first (the version moved on),
 * its tokens are the newer ones and are kept.
 */
export async function saveRotation(
  ctx: OperationContext,
  tokens: TokensInUse,
  rotated: TokenSet | null,
): Promise<void> {
  if (!rotated) return
  await ctx.store.connections.update(
    ctx.org!.id,
    tokens.connectionId,
    tokens.version,
    sealedTokens(ctx, tokens.connectionId, rotated),
  )
}
