import * as oauth from 'oauth4webapi'
import { ProblemError } from '../kernel/problems.ts'
import { type OutboundFetcher, OutboundRefused } from './outbound.ts'
import type { ProviderDefinition } from './providers.ts'

// workgraph as an OAuth client of another tool, with oauth4webapi; every request it makes goes
// through the host's hardened fetcher (customFetch), never through the global fetch.

/** What a token endpoint gave; the refresh token is kept only when the provider sent one. */
export interface TokenSet {
  accessToken: string
  refreshToken: string | null
  /** ISO time; null when the provider did not say. */
  expiresAt: string | null
  scope: string | null
}

export interface ProviderSession {
  provider: ProviderDefinition
  fetcher: OutboundFetcher
}

const NULL_BODY = new Set([101, 204, 205, 304])

function options(s: ProviderSession) {
  const policy = {
    allowLoopback: s.provider.allowLoopback === true,
    sameOriginRedirects: s.provider.allowSameOriginRedirects === true,
  }
  const customFetch = async (url: string, init: oauth.CustomFetchOptions<string, unknown>) => {
    const body = init.body === undefined || init.body === null ? undefined : String(init.body as string)
    const res = await s.fetcher.fetch(
      {
        url,
        method: init.method === 'POST' ? 'POST' : 'GET',
        headers: init.headers,
        ...(body ? { body } : {}),
      },
      policy,
    )
    return new Response(NULL_BODY.has(res.status) ? null : res.body, {
      status: res.status,
      headers: res.headers,
    })
  }
  return {
    [oauth.customFetch]: customFetch,
    ...(policy.allowLoopback ? { [oauth.allowInsecureRequests]: true } : {}),
  }
}

const client = (p: ProviderDefinition): oauth.Client => ({ client_id: p.clientId })
const clientAuth = (p: ProviderDefinition) =>
  p.clientSecret ? oauth.ClientSecretPost(p.clientSecret) : oauth.None()

/**
 * Runs an exchange with the provider and turns its failures into problems: a refused destination is
 * `outbound_refused`; an OAuth error answer is `onOAuthError`; anything else `provider_unavailable`.
 */
export async function talk<T>(
  s: ProviderSession,
  what: string,
  fn: () => Promise<T>,
  onOAuthError:
    | 'authorization_failed'
    | 'connection_inactive'
    | 'provider_unavailable' = 'provider_unavailable',
): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof ProblemError) throw error
    if (error instanceof OutboundRefused)
      throw new ProblemError('outbound_refused', `${s.provider.name}: ${error.message}.`)
    if (
      error instanceof oauth.ResponseBodyError ||
      error instanceof oauth.AuthorizationResponseError ||
      error instanceof oauth.WWWAuthenticateChallengeError
    ) {
      const code = 'error' in error && typeof error.error === 'string' ? ` (${error.error})` : ''
      throw new ProblemError(onOAuthError, `${s.provider.name} refused ${what}${code}.`)
    }
    throw new ProblemError(
      'provider_unavailable',
      `${s.provider.name} could not be reached for ${what}: ${(error as Error).message}`,
    )
  }
}

/** The provider's authorization server metadata: configured, or discovered (RFC 8414 / OIDC). */
export async function authorizationServer(s: ProviderSession): Promise<oauth.AuthorizationServer> {
  const p = s.provider
  if (p.metadata) return { issuer: p.issuer, ...p.metadata }
  const issuer = new URL(p.issuer)
  return talk(s, 'discovery', async () =>
    oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: p.discovery ?? 'oauth2', ...options(s) }),
    ),
  )
}

/** The URL the person's browser is sent to: authorization code with PKCE (S256), state and resource. */
export async function authorizationUrl(
  s: ProviderSession,
  as: oauth.AuthorizationServer,
  input: { redirectUri: string; state: string; codeVerifier: string },
): Promise<string> {
  if (!as.authorization_endpoint)
    throw new ProblemError('provider_unavailable', `${s.provider.name} has no authorization endpoint.`)
  const url = new URL(as.authorization_endpoint)
  url.searchParams.set('client_id', s.provider.clientId)
  url.searchParams.set('redirect_uri', input.redirectUri)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('scope', s.provider.scopes.join(' '))
  url.searchParams.set('state', input.state)
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(input.codeVerifier))
  url.searchParams.set('code_challenge_method', 'S256')
  if (s.provider.resource) url.searchParams.set('resource', s.provider.resource)
  return url.href
}

const resourceParams = (p: ProviderDefinition) =>
  p.resource ? { additionalParameters: { resource: p.resource } } : {}

function tokenSet(
  response: oauth.TokenEndpointResponse,
  now: Date,
  previousRefresh: string | null,
): TokenSet {
  return {
    accessToken: response.access_token,
    // A provider that does not rotate keeps the refresh token it gave before.
    refreshToken: response.refresh_token ?? previousRefresh,
    expiresAt:
      typeof response.expires_in === 'number'
        ? new Date(now.getTime() + response.expires_in * 1000).toISOString()
        : null,
    scope: typeof response.scope === 'string' ? response.scope : null,
  }
}

/** Checks the redirect's parameters (state, `iss` per RFC 9207, error) and redeems the code. */
export async function redeemCode(
  s: ProviderSession,
  as: oauth.AuthorizationServer,
  input: { callback: URLSearchParams; state: string; codeVerifier: string; redirectUri: string; now: Date },
): Promise<TokenSet> {
  return talk(
    s,
    'the authorization',
    async () => {
      const params = oauth.validateAuthResponse(as, client(s.provider), input.callback, input.state)
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client(s.provider),
        clientAuth(s.provider),
        params,
        input.redirectUri,
        input.codeVerifier,
        { ...resourceParams(s.provider), ...options(s) },
      )
      return tokenSet(
        await oauth.processAuthorizationCodeResponse(as, client(s.provider), response),
        input.now,
        null,
      )
    },
    'authorization_failed',
  )
}

/** A new access token from the refresh token; the provider may rotate the refresh token too. */
export async function refreshTokens(
  s: ProviderSession,
  as: oauth.AuthorizationServer,
  refreshToken: string,
  now: Date,
): Promise<TokenSet> {
  return talk(
    s,
    'the refresh token',
    async () => {
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client(s.provider),
        clientAuth(s.provider),
        refreshToken,
        { ...resourceParams(s.provider), ...options(s) },
      )
      return tokenSet(
        await oauth.processRefreshTokenResponse(as, client(s.provider), response),
        now,
        refreshToken,
      )
    },
    'connection_inactive',
  )
}

/** Revokes a token at the provider (RFC 7009); false when it offers no revocation endpoint. */
export async function revokeToken(
  s: ProviderSession,
  as: oauth.AuthorizationServer,
  token: string,
): Promise<boolean> {
  if (!as.revocation_endpoint) return false
  await talk(s, 'revocation', async () =>
    oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client(s.provider), clientAuth(s.provider), token, options(s)),
    ),
  )
  return true
}

/** GETs a resource with the access token; answers the status and the parsed JSON body (or null). */
export async function readResource(
  s: ProviderSession,
  accessToken: string,
  url: string,
): Promise<{ status: number; json: unknown }> {
  return talk(
    s,
    'the item',
    async () => {
      const headers = new Headers({ accept: 'application/json' })
      const response = await oauth.protectedResourceRequest(
        accessToken,
        'GET',
        new URL(url),
        headers,
        null,
        options(s),
      )
      const text = await response.text()
      let json: unknown = null
      try {
        json = JSON.parse(text)
      } catch {}
      return { status: response.status, json }
    },
    'connection_inactive',
  )
}
