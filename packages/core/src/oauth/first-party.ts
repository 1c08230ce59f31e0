import type { OAuthClientRecord } from './store.ts'

/** The interactive reference's client: the page at `/v1/docs` signs people in through it. */
export const API_REFERENCE_CLIENT_ID = 'workgraph-api-reference'

/** Where the reference's sign-in window returns; the page reads the code from it (same origin). */
export function apiReferenceRedirectUri(issuer: string): string {
  return `${issuer}/v1/docs/oauth-callback`
}

/**
 * Clients built into the server rather than registered: public (PKCE, no secret), redirecting only to
 * this server's own pages, so nobody else can act as them. They hold no row; consents name them.
 */
export function firstPartyClients(issuer: string): ReadonlyMap<string, OAuthClientRecord> {
  const reference: OAuthClientRecord = {
    id: API_REFERENCE_CLIENT_ID,
    secretHash: null,
    name: 'workgraph API reference',
    redirectUris: [apiReferenceRedirectUri(issuer)],
    // The page keeps its access token in memory and signs in again when it expires: no refresh token.
    grantTypes: ['authorization_code'],
    tokenEndpointAuthMethod: 'none',
    logoUri: null,
    clientUri: `${issuer}/v1/docs`,
    createdAt: '1970-01-01T00:00:00.000Z',
  }
  return new Map([[reference.id, reference]])
}
