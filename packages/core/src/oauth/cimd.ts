import { OAuthError } from './errors.ts'
import { redirectUriProblem } from './redirect-uris.ts'
import type { OAuthClientRecord } from './store.ts'

/**
 * The most a Client ID Metadata Document may weigh. The draft suggests 5 KB, but documents that
 * carry a JWKS, many redirect URIs or localized names pass it; 32 KiB serves them and still bounds
 * what one authorize request can make the server download and parse.
 */
export const CIMD_MAX_BYTES = 32 * 1024
const CACHE_MAX_ENTRIES = 256
const CACHE_DEFAULT_SECONDS = 300
const CACHE_MAX_SECONDS = 3600

export interface CimdResponse {
  status: number
  contentType: string | null
  cacheControl: string | null
  body: string
}

/**
 * Fetches a client's metadata document. The host's implementation decides where it may connect
 * (public addresses only, pinned), follows no redirect and caps size and time; it throws on any
 * refusal or network failure.
 */
export interface CimdFetcher {
  fetch(url: string): Promise<CimdResponse>
}

/** Whether a `client_id` names a metadata document rather than a registered client. */
export function isCimdClientId(clientId: string): boolean {
  return clientId.startsWith('https://') || /^https:/i.test(clientId)
}

/** Why a `client_id` URL is not acceptable as a metadata document address, or null. */
export function cimdUrlProblem(clientId: string): string | null {
  if (clientId.length > 2000) return 'is too long'
  if (/[\s\\\p{Cc}]/u.test(clientId)) return 'contains spaces, backslashes or control characters'
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return 'is not a URL'
  }
  if (url.protocol !== 'https:') return 'must use https'
  if (url.href !== clientId) return 'must be in canonical form (lowercase scheme and host, no default port)'
  if (url.username || url.password) return 'must not contain user information'
  if (url.hash || clientId.includes('#')) return 'must not contain a fragment'
  if (url.search) return 'must not contain a query'
  if (url.pathname === '/' || url.pathname === '') return 'must contain a path'
  if (/\/\.\.?(\/|$)|%2e|%2f|%5c/i.test(url.pathname))
    return 'must not contain dot segments or encoded separators'
  const host = url.hostname
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not name localhost'
  return null
}

/** Checks a fetched document and turns it into a client; throws `invalid_client` on any flaw. */
export function clientFromDocument(clientId: string, response: CimdResponse): OAuthClientRecord {
  const bad = (why: string) => new OAuthError('invalid_client', `The client metadata document ${why}.`)
  if (response.status !== 200) throw bad(`answered HTTP ${response.status}, not 200`)
  const type = (response.contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') throw bad('is not application/json')
  if (Buffer.byteLength(response.body) > CIMD_MAX_BYTES) throw bad(`is larger than ${CIMD_MAX_BYTES} bytes`)
  let doc: unknown
  try {
    doc = JSON.parse(response.body)
  } catch {
    throw bad('is not valid JSON')
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw bad('is not a JSON object')
  const d = doc as Record<string, unknown>
  if (d.client_id !== clientId) throw bad('names another client_id than its own URL')
  if (typeof d.client_name !== 'string' || d.client_name.trim() === '' || d.client_name.length > 200)
    throw bad('needs a client_name of 1 to 200 characters')
  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.length === 0 || d.redirect_uris.length > 20)
    throw bad('needs 1 to 20 redirect_uris')
  for (const uri of d.redirect_uris) {
    const problem = redirectUriProblem(uri)
    if (problem) throw bad(`has a redirect URI that ${problem}`)
  }
  if ('client_secret' in d || 'client_secret_expires_at' in d) throw bad('must not carry a client secret')
  const method = d.token_endpoint_auth_method ?? 'none'
  if (method !== 'none') throw bad('must use token_endpoint_auth_method "none"')
  const grants = (d.grant_types ?? ['authorization_code']) as unknown
  if (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
    throw bad('may only use the authorization_code and refresh_token grants')
  const responses = (d.response_types ?? ['code']) as unknown
  if (!Array.isArray(responses) || responses.some((r) => r !== 'code'))
    throw bad('may only use response type code')
  const httpsOrNull = (v: unknown, name: string): string | null => {
    if (v === undefined || v === null) return null
    if (typeof v !== 'string' || !v.startsWith('https://') || v.length > 2000)
      throw bad(`has a ${name} that is not https`)
    return v
  }
  return {
    id: clientId,
    secretHash: null,
    name: d.client_name.trim(),
    redirectUris: d.redirect_uris as string[],
    grantTypes: grants as string[],
    tokenEndpointAuthMethod: 'none',
    logoUri: httpsOrNull(d.logo_uri, 'logo_uri'),
    clientUri: httpsOrNull(d.client_uri, 'client_uri'),
    createdAt: new Date(0).toISOString(),
  }
}

/** Resolves CIMD clients: one fetch at a time per URL, valid documents cached within bounds. */
export function createCimdResolver(fetcher: CimdFetcher, clock: () => Date) {
  const cache = new Map<string, { client: OAuthClientRecord; expiresAt: number }>()
  const inflight = new Map<string, Promise<OAuthClientRecord>>()

  async function load(clientId: string): Promise<OAuthClientRecord> {
    const problem = cimdUrlProblem(clientId)
    if (problem) throw new OAuthError('invalid_client', `The client_id URL ${problem}.`)
    let response: CimdResponse
    try {
      response = await fetcher.fetch(clientId)
    } catch (error) {
      throw new OAuthError(
        'invalid_client',
        `The client metadata document could not be fetched: ${(error as Error).message}`,
      )
    }
    const client = clientFromDocument(clientId, response)
    const seconds = cacheSeconds(response.cacheControl)
    if (seconds > 0) {
      if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!)
      cache.set(clientId, { client, expiresAt: clock().getTime() + seconds * 1000 })
    }
    return client
  }

  return {
    async resolve(clientId: string): Promise<OAuthClientRecord> {
      const hit = cache.get(clientId)
      if (hit && hit.expiresAt > clock().getTime()) return hit.client
      cache.delete(clientId)
      const running = inflight.get(clientId)
      if (running) return running
      const promise = load(clientId).finally(() => inflight.delete(clientId))
      inflight.set(clientId, promise)
      return promise
    },
  }
}

function cacheSeconds(cacheControl: string | null): number {
  const value = (cacheControl ?? '').toLowerCase()
  if (/no-store|no-cache|private/.test(value)) return 0
  const maxAge = /max-age=(\d+)/.exec(value)
  const seconds = maxAge ? Number(maxAge[1]) : CACHE_DEFAULT_SECONDS
  return Math.min(seconds, CACHE_MAX_SECONDS)
}
