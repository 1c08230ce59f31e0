import type { TokenService } from '../kernel/auth/tokens.ts'
import { ACCESS_TOKEN_TTL_SECONDS } from '../kernel/auth/tokens.ts'
import type { Storage } from '../kernel/storage.ts'
import { isCimdClientId } from './cimd.ts'
import { OAuthError } from './errors.ts'
import { hashToken, openReplay, randomToken, s256, safeEqual, sealReplay } from './secrets.ts'
import type { OAuthClientRecord, RefreshTokenRecord } from './store.ts'

export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  scope: string
  refresh_token?: string
}

export interface TokenEndpointOptions {
  storage: Storage
  tokens: TokenService
  clock: () => Date
  resources: readonly string[]
  refreshGraceSeconds: number
  /** Clients built into the server (oauth/first-party.ts), found before registered ones. */
  builtInClients?: ReadonlyMap<string, OAuthClientRecord>
}

/** The client that authenticates a token or revocation request (RFC 6749 §2.3, OAuth 2.1 §2.4). */
export async function authenticateClient(
  storage: Storage,
  form: URLSearchParams,
  authorization: string | null,
  builtIn: ReadonlyMap<string, OAuthClientRecord> = new Map(),
): Promise<OAuthClientRecord | { id: string; public: true }> {
  let id = form.get('client_id')
  // An empty secret is no secret (RFC 6749 §2.3.1 lets clients omit it): browser reference clients
  // send `client_secret=` or a Basic header with an empty password for public clients.
  let secret = form.get('client_secret') || null
  let viaBasic = false
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials.', 401)
    if (secret !== null) throw new OAuthError('invalid_request', 'Send client credentials one way only.')
    const basicId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '))
    if (id !== null && id !== basicId)
      throw new OAuthError('invalid_client', 'client_id differs from the Basic user.', 401)
    id = basicId
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) || null
    viaBasic = true
  }
  if (!id) throw new OAuthError('invalid_client', 'Name the client.', 401)
  if (isCimdClientId(id)) {
    if (secret !== null) throw new OAuthError('invalid_client', 'Metadata-document clients are public.', 401)
    return { id, public: true }
  }
  const client =
    builtIn.get(id) ?? (id.length <= 200 ? await storage.read((s) => s.oauth.getClient(id)) : null)
  if (!client) throw new OAuthError('invalid_client', 'The client is unknown.', 401)
  if (client.tokenEndpointAuthMethod === 'none') {
    if (secret !== null) throw new OAuthError('invalid_client', 'A public client sends no secret.', 401)
    return client
  }
  const expectedBasic = client.tokenEndpointAuthMethod === 'client_secret_basic'
  if (
    secret === null ||
    viaBasic !== expectedBasic ||
    !client.secretHash ||
    !safeEqual(hashToken(secret), client.secretHash)
  )
    throw new OAuthError('invalid_client', 'Client authentication failed.', 401)
  return client
}

/** `grant_type=authorization_code` and `grant_type=refresh_token`. */
export function createTokenEndpoint(options: TokenEndpointOptions) {
  const { storage, tokens, clock } = options

  async function mint(
    tx: Parameters<Parameters<Storage['transaction']>[0]>[0],
    grant: { grantId: RefreshTokenRecord['grantId']; userId: RefreshTokenRecord['userId']; clientId: string },
    scopes: string[],
    resource: string,
    /** The scopes the new refresh token keeps (the whole grant's), or null for none. */
    refreshScopes: string[] | null,
  ): Promise<{ response: TokenResponse; refreshToken: string | null }> {
    const accessToken = await tokens.issueAccessToken({
      userId: grant.userId,
      scopes: scopes.filter((s) => s !== 'offline_access'),
      audience: resource,
      clientId: grant.clientId,
      grantId: grant.grantId,
    })
    await tx.oauth.touchGrant(grant.grantId, clock().toISOString())
    const response: TokenResponse = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: scopes.join(' '),
    }
    if (!refreshScopes) return { response, refreshToken: null }
    const refreshToken = randomToken()
    const now = clock()
    await tx.oauth.insertRefreshToken({
      tokenHash: hashToken(refreshToken),
      ...grant,
      scopes: refreshScopes,
      resource,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
      rotatedAt: null,
      replay: null,
    })
    return { response: { ...response, refresh_token: refreshToken }, refreshToken }
  }

  function pickResource(requested: string | null, bound: string | null): string {
    if (requested !== null && !options.resources.includes(requested))
      throw new OAuthError('invalid_target', `The resource must be one of ${options.resources.join(', ')}.`)
    if (bound !== null && requested !== null && requested !== bound)
      throw new OAuthError('invalid_target', 'The resource differs from the one authorized.')
    return requested ?? bound ?? options.resources[0]!
  }

  async function exchangeCode(
    clientId: string,
    form: URLSearchParams,
    refreshAllowed: boolean,
  ): Promise<TokenResponse> {
    const code = form.get('code')
    const verifier = form.get('code_verifier')
    if (!code) throw new OAuthError('invalid_request', 'code is required.')
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE).')
    if (!VERIFIER.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier is malformed.')
    const now = clock()
    const outcome = await storage.transaction(async (tx) => {
      // Redemptions of one code run one at a time: the losers' revocations cannot deadlock.
      await tx.locks.acquire(`oauth-code:${hashToken(code)}`)
      const row = await tx.oauth.consumeCode(hashToken(code), now.toISOString())
      if (!row) return { error: 'The code is unknown.' }
      if (row.consumedAt !== null) {
        // A second use means the code leaked: everything issued from it goes (RFC 9700 §4.5.3).
        await tx.oauth.deleteGrant(row.grantId)
        return { error: 'The code was already used; the tokens issued from it are revoked.' }
      }
      if (row.clientId !== clientId) return { error: 'The code was issued to another client.' }
      if (Date.parse(row.expiresAt) <= now.getTime()) return { error: 'The code has expired.' }
      const redirect = form.get('redirect_uri')
      if (redirect !== null && redirect !== row.redirectUri)
        return { error: 'redirect_uri differs from the authorization request.' }
      if (!safeEqual(s256(verifier), row.codeChallenge))
        return { error: 'The code_verifier does not match the challenge.' }
      if (!(await tx.oauth.grantIsLive(row.grantId))) return { error: 'The consent was revoked.' }
      const resource = pickResource(form.get('resource'), row.resource)
      const grant = { grantId: row.grantId, userId: row.userId, clientId: row.clientId }
      const withRefresh = refreshAllowed && row.scopes.includes('offline_access')
      return { ok: (await mint(tx, grant, row.scopes, resource, withRefresh ? row.scopes : null)).response }
    })
    if ('error' in outcome) throw new OAuthError('invalid_grant', outcome.error!)
    return outcome.ok
  }

  async function refresh(clientId: string, form: URLSearchParams): Promise<TokenResponse> {
    const token = form.get('refresh_token')
    if (!token) throw new OAuthError('invalid_request', 'refresh_token is required.')
    const hash = hashToken(token)
    const now = clock()
    const outcome = await storage.transaction(async (tx) => {
      // Uses of one refresh token run one at a time, for the same reason.
      await tx.locks.acquire(`oauth-refresh:${hash}`)
      const row = await tx.oauth.getRefreshToken(hash)
      if (!row || row.clientId !== clientId) return { error: 'The refresh token is unknown.' }
      if (Date.parse(row.expiresAt) <= now.getTime()) return { error: 'The refresh token has expired.' }
      // Checked before rotating, so a refused request leaves the token usable.
      const requested = form.get('scope')
      const scopes = requested === null ? row.scopes : [...new Set(requested.split(' ').filter(Boolean))]
      if (scopes.length === 0 || scopes.some((s) => !row.scopes.includes(s)))
        return { scopeError: 'The scope may only narrow what was granted.' }
      if (!(await tx.oauth.rotateRefreshToken(hash, now.toISOString()))) {
        const current = await tx.oauth.getRefreshToken(hash)
        const rotatedAt = current?.rotatedAt ? Date.parse(current.rotatedAt) : 0
        const replay = current?.replay ? openReplay(token, current.replay) : null
        // A client that lost the answer retries: within the grace window it gets the same answer.
        if (replay && now.getTime() - rotatedAt <= options.refreshGraceSeconds * 1000)
          return { ok: JSON.parse(replay) as TokenResponse }
        await tx.oauth.deleteGrant(row.grantId)
        return { error: 'The refresh token was already used; the grant is revoked.' }
      }
      if (!(await tx.oauth.grantIsLive(row.grantId))) return { error: 'The consent was revoked.' }
      const resource = pickResource(form.get('resource'), null)
      const grant = { grantId: row.grantId, userId: row.userId, clientId: row.clientId }
      const { response: answer } = await mint(tx, grant, scopes, resource, row.scopes)
      await tx.oauth.setRefreshReplay(hash, sealReplay(token, JSON.stringify(answer)))
      return { ok: answer }
    })
    if ('scopeError' in outcome) throw new OAuthError('invalid_scope', outcome.scopeError!)
    if ('error' in outcome) throw new OAuthError('invalid_grant', outcome.error!)
    return outcome.ok
  }

  return {
    async token(form: URLSearchParams, authorization: string | null): Promise<TokenResponse> {
      for (const [key] of form)
        if (form.getAll(key).length > 1) throw new OAuthError('invalid_request', `${key} is repeated.`)
      const client = await authenticateClient(storage, form, authorization, options.builtInClients)
      const grantTypes = 'public' in client ? ['authorization_code', 'refresh_token'] : client.grantTypes
      const type = form.get('grant_type')
      if (type === 'authorization_code')
        return exchangeCode(client.id, form, grantTypes.includes('refresh_token'))
      if (type === 'refresh_token') {
        if (!grantTypes.includes('refresh_token'))
          throw new OAuthError('unauthorized_client', 'The client may not refresh.')
        return refresh(client.id, form)
      }
      throw new OAuthError('unsupported_grant_type', 'Use authorization_code or refresh_token.')
    },

    /**
     * RFC 7009: a refresh token of the caller ends its grant's refresh tokens; an access token of
     * the caller is denied until it expires. Anything else (unknown, expired, another client's) is
     * ignored, and the answer is the same.
     */
    async revoke(form: URLSearchParams, authorization: string | null): Promise<void> {
      const client = await authenticateClient(storage, form, authorization, options.builtInClients)
      const token = form.get('token')
      if (!token) throw new OAuthError('invalid_request', 'token is required.')
      const revokedRefresh = await storage.transaction(async (tx) => {
        const row = await tx.oauth.getRefreshToken(hashToken(token))
        if (!row || row.clientId !== client.id) return false
        await tx.oauth.deleteRefreshTokens(row.grantId)
        return true
      })
      if (revokedRefresh || token.split('.').length !== 3) return
      const access = await tokens.verifyAccessToken(token).catch(() => null)
      if (access?.tokenId && access.expiresAt && access.clientId === client.id) {
        const { tokenId, expiresAt } = access
        await storage.transaction((tx) => tx.oauth.revokeAccessToken(tokenId, expiresAt))
      }
    },
  }
}
