import type { ConsentId, UserId, WebSessionId } from '@workgraph/core'
import type {
  CodeRecord,
  ConsentRecord,
  GrantRecord,
  OAuthClientRecord,
  RefreshTokenRecord,
  SessionRecord,
} from '@workgraph/core/storage'
import type { ColumnType, Selectable } from 'kysely'
import { iso, isoOrNull } from '../normalize.ts'

type Ts = ColumnType<Date | string, string, string>
type NullableTs = ColumnType<Date | string | null, string | null, string | null>

/** The tables of migration 0002, as queries see them (CamelCasePlugin maps names). */
export interface OAuthTables {
  userPasswords: { userId: string; hash: string; updatedAt: Ts }
  accountTokens: {
    tokenHash: string
    purpose: string
    email: string
    name: string | null
    passwordHash: string | null
    returnTo: string | null
    createdAt: Ts
    expiresAt: Ts
  }
  webSessions: {
    id: string
    userId: string
    tokenHash: string
    userAgent: string | null
    createdAt: Ts
    expiresAt: Ts
  }
  oauthClients: {
    id: string
    secretHash: string | null
    name: string
    redirectUris: string
    grantTypes: string
    tokenEndpointAuthMethod: string
    logoUri: string | null
    clientUri: string | null
    createdAt: Ts
  }
  oauthConsents: {
    id: string
    userId: string
    clientId: string
    clientName: string
    scopes: string
    createdAt: Ts
    updatedAt: Ts
    lastUsedAt: NullableTs
  }
  oauthCodes: {
    codeHash: string
    clientId: string
    userId: string
    grantId: string
    redirectUri: string
    scopes: string
    resource: string | null
    codeChallenge: string
    createdAt: Ts
    expiresAt: Ts
    consumedAt: NullableTs
  }
  oauthRefreshTokens: {
    tokenHash: string
    grantId: string
    clientId: string
    userId: string
    scopes: string
    resource: string
    createdAt: Ts
    expiresAt: Ts
    rotatedAt: NullableTs
    replay: string | null
  }
}

/** Access tokens revoked one by one (RFC 7009), kept until they would have expired (migration 0009). */
export interface RevokedAccessTokensTable {
  revokedAccessTokens: { jti: string; expiresAt: Ts }
}

const words = (s: string) => s.split(' ').filter(Boolean)
type Row<T extends keyof OAuthTables> = Selectable<OAuthTables[T]>

/** Rows as the drivers return them, normalised into core's records. */
export const toSession = (r: Row<'webSessions'>): SessionRecord => ({
  id: r.id as WebSessionId,
  userId: r.userId as UserId,
  tokenHash: r.tokenHash,
  userAgent: r.userAgent,
  createdAt: iso(r.createdAt),
  expiresAt: iso(r.expiresAt),
})
export const toGrant = (r: Row<'oauthConsents'>): GrantRecord => ({
  id: r.id as ConsentId,
  userId: r.userId as UserId,
  clientId: r.clientId,
  clientName: r.clientName,
  scopes: words(r.scopes),
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
})
export const toConsent = (r: Row<'oauthConsents'>): ConsentRecord => ({
  ...toGrant(r),
  lastUsedAt: isoOrNull(r.lastUsedAt),
})
export const toCode = (r: Row<'oauthCodes'>): CodeRecord => ({
  ...r,
  userId: r.userId as UserId,
  grantId: r.grantId as ConsentId,
  scopes: words(r.scopes),
  createdAt: iso(r.createdAt),
  expiresAt: iso(r.expiresAt),
  consumedAt: isoOrNull(r.consumedAt),
})
export const toRefresh = (r: Row<'oauthRefreshTokens'>): RefreshTokenRecord => ({
  ...r,
  userId: r.userId as UserId,
  grantId: r.grantId as ConsentId,
  scopes: words(r.scopes),
  createdAt: iso(r.createdAt),
  expiresAt: iso(r.expiresAt),
  rotatedAt: isoOrNull(r.rotatedAt),
})
export const toClient = (r: Row<'oauthClients'>): OAuthClientRecord => ({
  ...r,
  tokenEndpointAuthMethod: r.tokenEndpointAuthMethod as OAuthClientRecord['tokenEndpointAuthMethod'],
  redirectUris: JSON.parse(r.redirectUris),
  grantTypes: JSON.parse(r.grantTypes),
  createdAt: iso(r.createdAt),
})
