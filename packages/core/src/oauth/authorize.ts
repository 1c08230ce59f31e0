import { OAuthError } from './errors.ts'
import { matchesRegistered } from './redirect-uris.ts'
import type { OAuthClientRecord } from './store.ts'

export const SCOPE_NAMES = [
  'work:read',
  'work:write',
  'agents:run',
  'connectors:link',
  'offline_access',
] as const
const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/

/** A checked authorization request: the client and redirect URI are trusted from here on. */
export interface AuthorizeRequest {
  client: OAuthClientRecord
  redirectUri: string
  scopes: string[]
  state: string | null
  codeChallenge: string
  resource: string | null
  prompt: string | null
}

/** An error that may not be sent to the redirect URI (the client or the URI is not trusted): a page. */
export class AuthorizePageError extends OAuthError {}

/** An error answered by redirecting to the (trusted) redirect URI with `error`, `state` and `iss`. */
export class AuthorizeRedirectError extends OAuthError {
  readonly redirectUri: string
  readonly state: string | null
  constructor(error: string, description: string, request: { redirectUri: string; state: string | null }) {
    super(error, description)
    this.redirectUri = request.redirectUri
    this.state = request.state
  }
}

/**
 * Checks the query of `/oauth/authorize` in the order RFC 9700 asks: client and redirect URI first
 * (their failures are pages, never redirects), then everything else (redirected errors).
 */
export async function checkAuthorizeRequest(
  query: URLSearchParams,
  options: { findClient: (id: string) => Promise<OAuthClientRecord>; resources: readonly string[] },
): Promise<AuthorizeRequest> {
  const single = (name: string): string | null => {
    const values = query.getAll(name)
    if (values.length > 1) return '\u0000duplicate'
    return values[0] ?? null
  }
  const clientId = single('client_id')
  if (!clientId || clientId === '\u0000duplicate')
    throw new AuthorizePageError('invalid_request', 'The request needs exactly one client_id.')
  let client: OAuthClientRecord
  try {
    client = await options.findClient(clientId)
  } catch (error) {
    throw new AuthorizePageError('invalid_client', (error as Error).message)
  }
  const requested = single('redirect_uri')
  if (requested === '\u0000duplicate')
    throw new AuthorizePageError('invalid_request', 'redirect_uri is repeated.')
  let redirectUri: string
  if (requested === null) {
    if (client.redirectUris.length !== 1)
      throw new AuthorizePageError(
        'invalid_request',
        'The client registered several redirect URIs: name one.',
      )
    redirectUri = client.redirectUris[0]!
  } else if (matchesRegistered(requested, client.redirectUris)) {
    redirectUri = requested
  } else {
    throw new AuthorizePageError('invalid_request', 'The redirect_uri is not one the client registered.')
  }

  const stateValue = single('state')
  const state = stateValue === '\u0000duplicate' ? null : stateValue
  const fail = (error: string, description: string) =>
    new AuthorizeRedirectError(error, description, { redirectUri, state })
  if (stateValue === '\u0000duplicate') throw fail('invalid_request', 'state is repeated.')
  for (const name of [
    'response_type',
    'scope',
    'code_challenge',
    'code_challenge_method',
    'resource',
    'prompt',
  ])
    if (query.getAll(name).length > 1)
      throw fail(name === 'resource' ? 'invalid_target' : 'invalid_request', `${name} is repeated.`)

  if (query.get('response_type') !== 'code')
    throw fail('unsupported_response_type', 'Only response_type=code is supported.')
  const challenge = query.get('code_challenge')
  if (!challenge) throw fail('invalid_request', 'PKCE is required: send code_challenge with method S256.')
  if (query.get('code_challenge_method') !== 'S256')
    throw fail('invalid_request', 'code_challenge_method must be S256; plain is not supported.')
  if (!CHALLENGE.test(challenge)) throw fail('invalid_request', 'code_challenge is malformed.')

  const scopeText = query.get('scope') ?? 'work:read'
  const scopes = [...new Set(scopeText.split(' ').filter(Boolean))]
  if (scopes.length === 0) throw fail('invalid_scope', 'Ask for at least one scope.')
  const unknown = scopes.filter((s) => !(SCOPE_NAMES as readonly string[]).includes(s))
  if (unknown.length > 0) throw fail('invalid_scope', `Unknown scope: ${unknown.join(' ').slice(0, 200)}.`)
  if (scopes.includes('offline_access') && !client.grantTypes.includes('refresh_token'))
    throw fail('invalid_scope', 'offline_access needs a client registered for the refresh_token grant.')

  const resource = query.get('resource')
  if (resource !== null && !options.resources.includes(resource))
    throw fail('invalid_target', `The resource must be one of ${options.resources.join(', ')}.`)

  return {
    client,
    redirectUri,
    scopes,
    state,
    codeChallenge: challenge,
    resource,
    prompt: query.get('prompt'),
  }
}

/** Where the browser goes after the decision: the redirect URI with `code` or `error`, `state` and `iss` (RFC 9207). */
export function redirectWith(
  redirectUri: string,
  params: Record<string, string | null>,
  issuer: string,
): string {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value)
  url.searchParams.set('iss', issuer)
  return url.href
}
