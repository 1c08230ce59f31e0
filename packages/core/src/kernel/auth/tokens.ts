import { randomUUID } from 'node:crypto'
import {
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose'
import { isId, type UserId } from '../ids.ts'
import { ProblemError } from '../problems.ts'
import type { Storage, Store } from '../storage.ts'
import type { LiveCheck, Principal } from './principal.ts'
import { createVerifiedTokenCache, type VerifiedToken } from './verified-tokens.ts'

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
const ALG = 'ES256'
const KEY_PREFIX = 'signing-key:'
const JWKS_RELOAD_MS = 5 * 60 * 1000

export interface IssueAccessTokenOptions {
  userId: UserId
  scopes: readonly string[]
  /** The resource the token is for; defaults to the REST API (`{baseUrl}/v1`). */
  audience?: string
  clientId?: string
  grantId?: string
  ttlSeconds?: number
}

export interface TokenService {
  /** Signs an RFC 9068 JWT access token with the current key. */
  issueAccessToken(options: IssueAccessTokenOptions): Promise<string>
  /**
   * Verifies signature, issuer, audience, type and lifetime, and that the token is live (its consent
   * exists, it is not revoked); any failure is a 401 `unauthenticated`. With `deferLiveCheck`, the
   * liveness read is left to `engine.execute` (`Principal.liveCheck`), which folds it into the
   * request's first read: one statement fewer per request. A token verified before answers from a
   * bounded cache of verified claims (`VerifiedTokenCache`); its liveness and lifetime are checked anew.
   */
  verifyAccessToken(token: string, options?: { deferLiveCheck?: boolean }): Promise<Principal>
  /** Runs a deferred liveness check (nothing without one); a dead token is a 401 `unauthenticated`. */
  confirmLive(principal: Principal | null): Promise<void>
  /** The public keys, as published at the JWKS endpoint. */
  jwks(): Promise<{ keys: JWK[] }>
  /** Adds a new signing key (`signing-key:000N`) that signs from now on; older keys keep verifying. */
  rotateSigningKey(): Promise<string>
  readonly issuer: string
  readonly audiences: readonly string[]
}

interface StoredKey {
  kid: string
  publicJwk: JWK
  privateJwk: JWK
}

/**
 * Access tokens signed with asymmetric keys kept in storage, so that every instance signs and
 * verifies with the same set, and the public half can be published as a JWKS.
 */
export async function createTokenService(options: {
  storage: Storage
  /** Whether the token's consent (when it has one) exists and its `jti` is not revoked: the oauth group's read. */
  accessTokenIsLive(store: Store, jti: string, grantId: string | null): Promise<boolean>
  issuer: string
  audiences: readonly string[]
  clock?: () => Date
}): Promise<TokenService> {
  const clock = options.clock ?? (() => new Date())
  let keys = await loadKeys(options.storage)
  if (keys.length === 0) {
    // The first key has a fixed name, so instances starting together agree on one key.
    await insertKey(options.storage, 1, clock)
    keys = await loadKeys(options.storage)
  }
  let current = keys[0]!
  let signingKey = await importJWK(current.privateJwk, ALG)
  let verifier = createLocalJWKSet({ keys: keys.map((k) => k.publicJwk) })

  let loadedAt = clock().getTime()
  const verifiedTokens = createVerifiedTokenCache()
  // The consent still exists (revoking it in Connected apps fails the next call) and this token was
  // not revoked on its own (RFC 7009), in one read. Outside verification's catch: a database that
  // cannot be reached is a 503, not a token to throw away.
  async function confirm({ jti, grantId }: LiveCheck): Promise<void> {
    if (!(await options.storage.read((s) => options.accessTokenIsLive(s, jti, grantId)))) throw invalidToken()
  }

  async function refreshVerifier(): Promise<void> {
    keys = await loadKeys(options.storage)
    loadedAt = clock().getTime()
    verifier = createLocalJWKSet({ keys: keys.map((k) => k.publicJwk) })
    // A token verified under the old set is verified again under the new one.
    verifiedTokens.clear()
    if (keys[0]!.kid !== current.kid) {
      current = keys[0]!
      signingKey = await importJWK(current.privateJwk, ALG)
    }
  }

  /** Signature, issuer, audience, type, lifetime and claims; any failure is the one 401. */
  async function verify(token: string, now: Date): Promise<VerifiedToken> {
    const payload = await (async () => {
      const verifyJwt = () =>
        jwtVerify(token, verifier, {
          issuer: options.issuer,
          audience: [...options.audiences],
          algorithms: [ALG],
          typ: 'at+jwt',
          requiredClaims: ['exp', 'iat', 'sub', 'jti'],
          currentDate: now,
        })
      const { payload } = await verifyJwt().catch(async (error: unknown) => {
        // A key minted by another instance after this one loaded its set.
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error
        await refreshVerifier()
        return verifyJwt()
      })
      if (!isId('UserId', payload.sub)) throw new Error('bad subject')
      if (payload.gid !== undefined && typeof payload.gid !== 'string') throw new Error('bad consent')
      return payload
    })().catch(() => {
      throw invalidToken()
    })
    const verified: VerifiedToken = {
      principal: {
        userId: payload.sub as UserId,
        scopes: new Set(typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : []),
        ...(typeof payload.client_id === 'string' ? { clientId: payload.client_id } : {}),
        ...(typeof payload.gid === 'string' ? { grantId: payload.gid } : {}),
        ...(typeof payload.jti === 'string' ? { tokenId: payload.jti } : {}),
        ...(typeof payload.aud === 'string' ? { audience: payload.aud } : {}),
        ...(typeof payload.exp === 'number' ? { expiresAt: new Date(payload.exp * 1000).toISOString() } : {}),
      },
      liveCheck: { jti: payload.jti as string, grantId: (payload.gid as string | undefined) ?? null },
      notBefore: typeof payload.nbf === 'number' ? payload.nbf : Number.NEGATIVE_INFINITY,
      expires: payload.exp as number,
    }
    verifiedTokens.set(token, verified)
    return verified
  }

  return {
    issuer: options.issuer,
    audiences: options.audiences,
    async issueAccessToken(o) {
      const now = Math.floor(clock().getTime() / 1000)
      return new SignJWT({
        scope: o.scopes.join(' '),
        ...(o.clientId ? { client_id: o.clientId } : {}),
        ...(o.grantId ? { gid: o.grantId } : {}),
      })
        .setProtectedHeader({ alg: ALG, kid: current.kid, typ: 'at+jwt' })
        .setIssuer(options.issuer)
        .setAudience(o.audience ?? options.audiences[0]!)
        .setSubject(o.userId)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + (o.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS))
        .setJti(randomUUID())
        .sign(signingKey)
    },
    async verifyAccessToken(token, verifyOptions = {}) {
      const now = clock()
      const verified =
        verifiedTokens.get(token, Math.floor(now.getTime() / 1000)) ?? (await verify(token, now))
      // Checked on every request (`confirm`), here or with the request's first read.
      if (!verifyOptions.deferLiveCheck) await confirm(verified.liveCheck)
      return verifyOptions.deferLiveCheck
        ? { ...verified.principal, liveCheck: verified.liveCheck }
        : { ...verified.principal }
    },
    async confirmLive(principal) {
      if (principal?.liveCheck) await confirm(principal.liveCheck)
    },
    async jwks() {
      // Reload now and then, so keys added by other instances are published here too.
      if (clock().getTime() - loadedAt > JWKS_RELOAD_MS) await refreshVerifier()
      return { keys: keys.map((k) => k.publicJwk) }
    },
    async rotateSigningKey() {
      await refreshVerifier()
      const numbers = (await options.storage.read((s) => s.secrets.list(KEY_PREFIX))).map((r) =>
        Number(r.name.slice(KEY_PREFIX.length)),
      )
      // Under a race two instances may pick the same number: one insert wins, both then load it.
      await insertKey(options.storage, Math.max(0, ...numbers) + 1, clock)
      await refreshVerifier()
      return current.kid
    },
  }
}

async function insertKey(storage: Storage, n: number, clock: () => Date): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true })
  const kid = randomUUID()
  const value = JSON.stringify({
    kid,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' },
    privateJwk: await exportJWK(privateKey),
  })
  await storage.transaction((s) =>
    s.secrets.insert({
      name: `${KEY_PREFIX}${String(n).padStart(4, '0')}`,
      value,
      createdAt: clock().toISOString(),
    }),
  )
}

async function loadKeys(storage: Storage): Promise<StoredKey[]> {
  const rows = await storage.read((s) => s.secrets.list(KEY_PREFIX))
  // Highest name first: the newest key signs, every stored key verifies.
  return rows.sort((a, b) => (a.name < b.name ? 1 : -1)).map((row) => JSON.parse(row.value) as StoredKey)
}

/** The one answer to any token refused: bad, expired, revoked, or its consent withdrawn. */
export function invalidToken(): ProblemError {
  return new ProblemError('unauthenticated', 'The access token is invalid or expired.')
}
