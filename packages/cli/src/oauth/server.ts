import * as oauth from 'oauth4webapi'
import { CliError } from '../errors.ts'

/** A server as the CLI sees it: its resource (`…/v1`) and its authorization server's metadata. */
export interface DiscoveredServer {
  origin: string
  resource: string
  as: oauth.AuthorizationServer
  /** oauth4webapi options: plain http is allowed only on loopback. */
  http: { [oauth.allowInsecureRequests]?: boolean }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `localhost:3000` → `http://localhost:3000`; refuses plain http anywhere but this machine. */
export function normalizeServer(input: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `http://${input}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new CliError(`${input} is not a server address; try http://localhost:3000`)
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new CliError(`${url.origin}: tokens travel only over https (plain http only on this machine)`)
  }
  return url.origin
}

/** RFC 9728 then RFC 8414: the resource names its authorization server, whose metadata lists the endpoints. */
export async function discover(origin: string): Promise<DiscoveredServer> {
  const http = new URL(origin).protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {}
  const resourceUrl = new URL(`${origin}/v1`)
  let response: Response
  try {
    response = await oauth.resourceDiscoveryRequest(resourceUrl, http)
  } catch (error) {
    throw new CliError(
      `Could not reach ${origin}: ${(error as Error).message}. Is the server running? ` +
        'Start it (npx -y pnpm@10.34.8 start), or name it: --server URL or WORKGRAPH_SERVER=URL.',
    )
  }
  const rs = await oauth.processResourceDiscoveryResponse(resourceUrl, response)
  const issuer = rs.authorization_servers?.[0]
  if (!issuer) throw new CliError(`${origin} names no authorization server`)
  const issuerUrl = new URL(issuer)
  const as = await oauth.processDiscoveryResponse(
    issuerUrl,
    await oauth.discoveryRequest(issuerUrl, { algorithm: 'oauth2', ...http }),
  )
  return { origin, resource: rs.resource, as, http }
}

/** Registers this CLI as a public client (RFC 7591) with a loopback redirect. */
export async function registerClient(
  server: DiscoveredServer,
  redirectUri: string,
  clientName = 'workgraph CLI',
): Promise<string> {
  if (!server.as.registration_endpoint) {
    throw new CliError(`${server.origin} does not offer dynamic client registration`)
  }
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      server.as,
      {
        client_name: clientName,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      server.http,
    ),
  )
  return client.client_id
}

export interface TokenSet {
  accessToken: string
  refreshToken: string
  scope: string
  expiresIn: number
}

function tokenSet(response: oauth.TokenEndpointResponse, previousScope: string): TokenSet {
  if (!response.refresh_token) {
    throw new CliError('The server issued no refresh token (offline_access was not granted)')
  }
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    scope: response.scope ?? previousScope,
    expiresIn: response.expires_in ?? 0,
  }
}

export async function exchangeCode(
  server: DiscoveredServer,
  input: {
    clientId: string
    callback: URLSearchParams
    redirectUri: string
    verifier: string
    scope: string
  },
): Promise<TokenSet> {
  const client = { client_id: input.clientId }
  const response = await oauth.authorizationCodeGrantRequest(
    server.as,
    client,
    oauth.None(),
    input.callback,
    input.redirectUri,
    input.verifier,
    { additionalParameters: { resource: server.resource }, ...server.http },
  )
  return tokenSet(await oauth.processAuthorizationCodeResponse(server.as, client, response), input.scope)
}

/** Spends the refresh token for a new access token and the next refresh token (rotation). */
export async function refresh(
  server: DiscoveredServer,
  input: { clientId: string; refreshToken: string; scope: string },
): Promise<TokenSet> {
  const client = { client_id: input.clientId }
  const response = await oauth.refreshTokenGrantRequest(server.as, client, oauth.None(), input.refreshToken, {
    additionalParameters: { resource: server.resource },
    ...server.http,
  })
  try {
    return tokenSet(await oauth.processRefreshTokenResponse(server.as, client, response), input.scope)
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant') {
      throw new CliError(
        `Your sign-in to ${server.origin} has ended (expired, revoked, or disconnected in Connected apps). Run: workgraph login --server ${server.origin}`,
      )
    }
    throw error
  }
}

/** RFC 7009: ends the refresh token, and with it every token of the consent. */
export async function revoke(server: DiscoveredServer, input: { clientId: string; token: string }) {
  if (!server.as.revocation_endpoint) throw new CliError(`${server.origin} has no revocation endpoint`)
  const client = { client_id: input.clientId }
  await oauth.processRevocationResponse(
    await oauth.revocationRequest(server.as, client, oauth.None(), input.token, {
      additionalParameters: { token_type_hint: 'refresh_token' },
      ...server.http,
    }),
  )
}
