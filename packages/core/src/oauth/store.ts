import type { Id, UserId } from '../kernel/ids.ts'

export type WebSessionId = Id<'WebSessionId'>
export type ConsentId = Id<'ConsentId'>

/** A web session. Only the SHA-256 of the cookie value is stored. */
export interface SessionRecord {
  id: WebSessionId
  userId: UserId
  tokenHash: string
  userAgent: string | null
  createdAt: string
  expiresAt: string
}

export interface OAuthClientRecord {
  id: string
  /** SHA-256 of the secret, for confidential clients; null for public ones. */
  secretHash: string | null
  name: string
  redirectUris: string[]
  grantTypes: string[]
  tokenEndpointAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post'
  logoUri: string | null
  clientUri: string | null
  createdAt: string
}

/** A consent: a person allowed a client these scopes. One per person and client. */
export interface GrantRecord {
  id: ConsentId
  userId: UserId
  clientId: string
  /** The client's name when the person consented, shown in Connected apps. */
  clientName: string
  scopes: string[]
  createdAt: string
  updatedAt: string
}

/** A consent as Connected apps shows it: with when the app last obtained an access token. */
export interface ConsentRecord extends GrantRecord {
  lastUsedAt: string | null
}

export interface CodeRecord {
  codeHash: string
  clientId: string
  userId: UserId
  grantId: ConsentId
  redirectUri: string
  scopes: string[]
  /** The `resource` of the authorization request, or null when it named none. */
  resource: string | null
  codeChallenge: string
  createdAt: string
  expiresAt: string
  consumedAt: string | null
}

export interface RefreshTokenRecord {
  tokenHash: string
  grantId: ConsentId
  clientId: string
  userId: UserId
  scopes: string[]
  resource: string
  createdAt: string
  expiresAt: string
  /** When it was exchanged for a new pair; null while it is the live one. */
  rotatedAt: string | null
  /** The response it was exchanged for, encrypted with a key only its holder can derive. */
  replay: string | null
}

/** A single-use link sent by mail: finishing a sign-up, or resetting a password. */
export interface AccountTokenRecord {
  /** Only the hash is stored; the link carries the token. */
  tokenHash: string
  purpose: 'sign_up' | 'password_reset'
  email: string
  /** A sign-up's name and password hash, chosen on the form; null for a reset. */
  name: string | null
  passwordHash: string | null
  /** Where the person goes once the link is used (a same-site path). */
  returnTo: string | null
  createdAt: string
  expiresAt: string
}

/** Accounts, web sessions and the OAuth state every server instance must share. */
export interface OAuthStore {
  /** The scrypt hash of a user's password, or null when the user has none. */
  getPasswordHash(userId: UserId): Promise<string | null>
  setPasswordHash(userId: UserId, hash: string, at: string): Promise<void>

  insertSession(session: SessionRecord): Promise<void>
  /** The session with this cookie hash, if it has not expired by `now`. */
  findSession(tokenHash: string, now: string): Promise<SessionRecord | null>
  listSessions(userId: UserId, now: string): Promise<SessionRecord[]>
  /** Returns false when the user has no such session. */
  deleteSession(userId: UserId, id: WebSessionId): Promise<boolean>
  deleteSessionByHash(tokenHash: string): Promise<void>
  /** Ends every web session of the person (after a password reset). */
  deleteSessionsOf(userId: UserId): Promise<void>
  /** Ends every web session of the person but `keep`; returns how many ended. */
  deleteSessionsExcept(userId: UserId, keep: WebSessionId): Promise<number>

  /** Stores a mailed link, and forgets links that expired before `now`. */
  insertAccountToken(record: AccountTokenRecord, now: string): Promise<void>
  /** Deletes and returns the live link with this hash and purpose: each works once, before it expires. */
  takeAccountToken(
    tokenHash: string,
    purpose: AccountTokenRecord['purpose'],
    now: string,
  ): Promise<AccountTokenRecord | null>

  insertClient(client: OAuthClientRecord): Promise<void>
  getClient(id: string): Promise<OAuthClientRecord | null>
  countClients(): Promise<number>

  getGrant(userId: UserId, clientId: string): Promise<GrantRecord | null>
  /** Whether the grant exists: a revoked consent is deleted, so its tokens fail at once. */
  grantIsLive(id: ConsentId): Promise<boolean>
  /**
   * Whether an access token may still be used, in one read: its consent (when it has one) exists,
   * and its `jti` has not been revoked.
   */
  accessTokenIsLive(jti: string, grantId: ConsentId | null): Promise<boolean>
  /**
   * `grantIsLive` and `accessTokenIsLive` for many credentials in one read (a stream round checks
   * every token it delivers to): which of the consents exist, and which of the jtis are revoked.
   */
  credentialStates(
    grantIds: readonly ConsentId[],
    jtis: readonly string[],
  ): Promise<{ liveGrants: Set<ConsentId>; revokedJtis: Set<string> }>
  /** Denies the access token `jti` until `expiresAt` (RFC 7009); revoking twice changes nothing. */
  revokeAccessToken(jti: string, expiresAt: string): Promise<void>
  /**
   * Creates the consent or widens its scopes. Under concurrent calls for one person and client,
   * every caller ends with the same grant id (the unique key on person and client decides).
   */
  upsertGrant(grant: GrantRecord): Promise<GrantRecord>
  listGrants(userId: UserId): Promise<ConsentRecord[]>
  /** The person's consent with this id; null for another person's. */
  findGrant(userId: UserId, id: ConsentId): Promise<ConsentRecord | null>
  /**
   * Records that the app obtained an access token on the consent (a code exchange or a refresh).
   * Tokens live 15 minutes, so this is the last use to within that, without a write per request.
   */
  touchGrant(id: ConsentId, at: string): Promise<void>
  /** Deletes the consent with its codes and refresh tokens. Returns false when there was none. */
  deleteGrant(id: ConsentId, userId?: UserId): Promise<boolean>

  insertCode(code: CodeRecord): Promise<void>
  /**
   * Marks the code used and returns it. Under concurrent calls exactly one caller receives the
   * row with `consumedAt: null` (as it was before); every other caller receives it with the time
   * of the first use, which tells a replay. Unknown codes give null.
   */
  consumeCode(codeHash: string, now: string): Promise<CodeRecord | null>

  insertRefreshToken(token: RefreshTokenRecord): Promise<void>
  getRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null>
  /**
   * Marks a live refresh token rotated. Under concurrent calls exactly one caller gets true; the
   * others get false and find the winner's `replay` once its transaction has committed.
   */
  rotateRefreshToken(tokenHash: string, now: string): Promise<boolean>
  setRefreshReplay(tokenHash: string, replay: string): Promise<void>
  /** Deletes every refresh token of the grant (the consent itself stays). */
  deleteRefreshTokens(grantId: ConsentId): Promise<number>

  /** Deletes expired sessions, codes, refresh tokens and access-token denials. */
  prune(now: string): Promise<number>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Passwords, web sessions, OAuth clients, consents, codes and refresh tokens. */
    oauth: OAuthStore
  }
}
