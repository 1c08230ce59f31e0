import { createHmac } from 'node:crypto'
import { SCOPES } from '../kernel/auth/principal.ts'
import { sharedSecret } from '../kernel/auth/shared-secret.ts'
import { newId, type UserId } from '../kernel/ids.ts'
import type { EngineBase as Engine } from '../kernel/pipeline/engine.ts'
import { createRateLimiter } from '../kernel/pipeline/rate-limit.ts'
import { createAccounts } from './accounts.ts'
import { type AuthorizeRequest, checkAuthorizeRequest, redirectWith, SCOPE_NAMES } from './authorize.ts'
import { type CimdFetcher, createCimdResolver } from './cimd.ts'
import { findClient, registerClient } from './clients.ts'
import { OAuthError } from './errors.ts'
import { firstPartyClients } from './first-party.ts'
import { hashToken, randomToken, safeEqual } from './secrets.ts'
import type { ConsentId, GrantRecord } from './store.ts'
import { createTokenEndpoint, REFRESH_TOKEN_TTL_SECONDS } from './tokens-endpoint.ts'

export interface OAuthServerOptions {
  /** Fetches Client ID Metadata Documents; without one, URL client ids are refused. */
  cimdFetcher?: CimdFetcher
  clock?: () => Date
  /** How long a rotated refresh token still replays its answer (default 30 s). */
  refreshGraceSeconds?: number
  /** Sign-in attempts per address and per email in a minute (default 20). */
  signInAttemptsPerMinute?: number
  /** Registrations per address in a minute (default 20) and in total (default 10 000). */
  registrationsPerMinute?: number
  maxClients?: number
  /**
   * The cost of new password hashes, as log2 of scrypt's N: 17 (OWASP's floor) by default, 10 to 20.
   * Stored hashes keep the cost they were made with.
   */
  passwordCost?: number
}

const CODE_TTL_SECONDS = 60

/** The OAuth 2.1 authorization server's logic; the h3 adapter maps it onto endpoints and pages. */
export function createOAuthServer(engine: Engine, options: OAuthServerOptions = {}) {
  const { storage, tokens } = engine
  const clock = options.clock ?? (() => new Date())
  const issuer = engine.config.baseUrl
  const resources = tokens.audiences
  let csrfKey: Promise<string> | undefined
  const cimd = options.cimdFetcher ? createCimdResolver(options.cimdFetcher, clock) : null
  const accounts = createAccounts({
    storage,
    clock,
    mailer: engine.mailer,
    baseUrl: issuer,
    passwordCost: options.passwordCost,
    // The engine's counters: with a shared store, sign-in and registration limits hold across instances.
    limiter: createRateLimiter({
      limit: options.signInAttemptsPerMinute ?? 20,
      windowSeconds: 60,
      store: engine.rateLimitStore,
      now: () => clock().getTime(),
    }),
  })
  const registrations = createRateLimiter({
    limit: options.registrationsPerMinute ?? 20,
    windowSeconds: 60,
    store: engine.rateLimitStore,
    now: () => clock().getTime(),
  })
  const builtInClients = firstPartyClients(issuer)
  const endpoint = createTokenEndpoint({
    storage,
    builtInClients,
    tokens,
    clock,
    resources,
    refreshGraceSeconds: options.refreshGraceSeconds ?? 30,
  })
  const lookupClient = (id: string) => findClient(storage, cimd, id, builtInClients)

  /** Binds a consent form to the session and the exact request, so no other page can submit it. */
  async function consentToken(sessionHash: string, query: URLSearchParams): Promise<string> {
    csrfKey ??= sharedSecret(storage, 'consent-key', clock)
    const sorted = [...query]
      .filter(([k]) => k !== 'csrf' && k !== 'decision')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return createHmac('sha256', await csrfKey)
      .update(`${sessionHash}\n${JSON.stringify(sorted)}`)
      .digest('base64url')
  }

  return {
    issuer,
    resources,
    accounts,
    endpoints: {
      authorization: `${issuer}/oauth/authorize`,
      token: `${issuer}/oauth/token`,
      registration: `${issuer}/api/auth/mcp/register`,
      revocation: `${issuer}/oauth/revoke`,
      jwks: `${issuer}/.well-known/jwks.json`,
    },

    /** RFC 8414. */
    authorizationServerMetadata() {
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        registration_endpoint: `${issuer}/api/auth/mcp/register`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        scopes_supported: [...SCOPE_NAMES],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        client_id_metadata_document_supported: cimd !== null,
        authorization_response_iss_parameter_supported: true,
        resource_indicators_supported: true,
        service_documentation: `${issuer}/v1/docs`,
      }
    },

    /** RFC 9728, for one of this server's resources. */
    protectedResourceMetadata(resource: string) {
      return {
        resource,
        authorization_servers: [issuer],
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        scopes_supported: SCOPE_NAMES.filter((s) => s !== 'offline_access'),
        bearer_methods_supported: ['header'],
        resource_signing_alg_values_supported: ['ES256'],
        resource_documentation: `${issuer}/v1/docs`,
      }
    },

    async register(body: unknown, ip: string) {
      const decision = await registrations.consume(`register:${ip}`)
      if (!decision.allowed)
        throw new OAuthError(
          'invalid_request',
          `Too many registrations; retry in ${decision.resetSeconds} s.`,
          429,
        )
      return registerClient(storage, body, { now: clock(), maxClients: options.maxClients ?? 10_000 })
    },

    checkAuthorizeRequest: (query: URLSearchParams) =>
      checkAuthorizeRequest(query, { findClient: lookupClient, resources }),

    /** Whether the person already consented to at least these scopes for this client. */
    async hasConsent(userId: UserId, request: AuthorizeRequest): Promise<boolean> {
      const grant = await storage.read((s) => s.oauth.getGrant(userId, request.client.id))
      return grant !== null && request.scopes.every((s) => grant.scopes.includes(s))
    },

    consentToken,
    async checkConsentToken(sessionHash: string, query: URLSearchParams): Promise<boolean> {
      const sent = query.get('csrf') ?? ''
      return safeEqual(sent, await consentToken(sessionHash, query))
    },

    /** Records (or widens) the consent and returns the redirect carrying a fresh code. */
    async approve(userId: UserId, request: AuthorizeRequest): Promise<string> {
      const code = randomToken()
      const now = clock()
      await storage.transaction(async (tx) => {
        const existing = await tx.oauth.getGrant(userId, request.client.id)
        const grant = await tx.oauth.upsertGrant({
          id: existing?.id ?? (newId('ConsentId') as ConsentId),
          userId,
          clientId: request.client.id,
          clientName: request.client.name,
          scopes: [...new Set([...(existing?.scopes ?? []), ...request.scopes])],
          createdAt: existing?.createdAt ?? now.toISOString(),
          updatedAt: now.toISOString(),
        })
        await tx.oauth.insertCode({
          codeHash: hashToken(code),
          clientId: request.client.id,
          userId,
          grantId: grant.id,
          redirectUri: request.redirectUri,
          scopes: request.scopes,
          resource: request.resource,
          codeChallenge: request.codeChallenge,
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
          consumedAt: null,
        })
      })
      return redirectWith(request.redirectUri, { code, state: request.state }, issuer)
    },

    deny(request: AuthorizeRequest, error = 'access_denied', description = 'The person declined.'): string {
      return redirectWith(
        request.redirectUri,
        { error, error_description: description, state: request.state },
        issuer,
      )
    },

    redirectError(redirectUri: string, state: string | null, error: OAuthError): string {
      return redirectWith(
        redirectUri,
        { error: error.error, error_description: error.message, state },
        issuer,
      )
    },

    token: endpoint.token,
    revoke: endpoint.revoke,

    async consents(userId: UserId): Promise<GrantRecord[]> {
      return storage.read((s) => s.oauth.listGrants(userId))
    },
    async revokeConsent(userId: UserId, id: ConsentId): Promise<boolean> {
      return storage.transaction((s) => s.oauth.deleteGrant(id, userId))
    },

    scopeMeanings: SCOPES,
    hashSession: hashToken,
    refreshTokenTtlSeconds: REFRESH_TOKEN_TTL_SECONDS,

    /** Deletes expired sessions, codes and refresh tokens; hosts call it now and then. */
    async prune(): Promise<number> {
      return storage.transaction((s) => s.oauth.prune(clock().toISOString()))
    },
  }
}

export type OAuthServer = ReturnType<typeof createOAuthServer>
