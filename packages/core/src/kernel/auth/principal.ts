import type { UserId } from '../ids.ts'

export const SCOPES = {
  'work:read': 'view tasks, projects, programs, initiatives and cycles',
  'work:write': 'create tasks; update and organize projects; post comments and status updates; archive work',
  'agents:run': 'start and cancel agent work sessions; approve or reject actions an agent proposes',
  'connectors:link': 'connect other tools and link their items to work',
  offline_access: "keep working on the user's behalf without a new sign-in",
} as const
export type Scope = keyof typeof SCOPES

/** Who is calling, as established by a verified access token (or by a host acting for a local user). */
export interface Principal {
  userId: UserId
  scopes: ReadonlySet<string>
  /** The OAuth client the token was issued to, when there is one. */
  clientId?: string
  /** The consent (grant) the token rests on; checked on every request once consents exist. */
  grantId?: string
  /** The token's own id (`jti`), for logs and revocation. */
  tokenId?: string
  /** The resource the token was issued for (`aud`): `{baseUrl}/v1` or `{baseUrl}/mcp`. */
  audience?: string
  /** When the token stops being valid (ISO time); long-lived streams end then. */
  expiresAt?: string
  /**
   * Set when the token's liveness (its consent exists, its `jti` not revoked) is not checked yet
   * (`verifyAccessToken(token, { deferLiveCheck: true })`): `engine.execute` checks it with the
   * request's first read, or on its own before anything else when the request has no such read.
   */
  liveCheck?: LiveCheck
}

/** What a deferred token check reads: the token's `jti` and the consent it rests on (null: none). */
export interface LiveCheck {
  jti: string
  grantId: string | null
}
