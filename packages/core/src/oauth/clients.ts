import type { Storage } from '../kernel/storage.ts'
import { type createCimdResolver, isCimdClientId } from './cimd.ts'
import { OAuthError } from './errors.ts'
import { redirectUriProblem } from './redirect-uris.ts'
import { hashToken, randomToken } from './secrets.ts'
import type { OAuthClientRecord } from './store.ts'

const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const
const GRANTS = ['authorization_code', 'refresh_token']

export interface RegistrationResponse {
  client_id: string
  client_id_issued_at: number
  client_secret?: string
  client_secret_expires_at?: number
  client_name: string
  redirect_uris: string[]
  grant_types: string[]
  response_types: string[]
  token_endpoint_auth_method: string
  logo_uri?: string
  client_uri?: string
}

/** Dynamic client registration (RFC 7591): checks the metadata and stores the client. */
export async function registerClient(
  storage: Storage,
  body: unknown,
  options: { now: Date; maxClients: number },
): Promise<RegistrationResponse> {
  const bad = (why: string, error = 'invalid_client_metadata') => new OAuthError(error, why)
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('Send the metadata as a JSON object.')
  const m = body as Record<string, unknown>
  if ('client_id' in m || 'client_secret' in m) throw bad('The server chooses client_id and client_secret.')
  if ('software_statement' in m) throw bad('Software statements are not accepted.')
  const uris = m.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10)
    throw bad('Give 1 to 10 redirect_uris.', 'invalid_redirect_uri')
  for (const uri of uris) {
    const problem = redirectUriProblem(uri)
    if (problem)
      throw bad(`The redirect URI ${JSON.stringify(uri).slice(0, 200)} ${problem}.`, 'invalid_redirect_uri')
  }
  const method = (m.token_endpoint_auth_method ?? 'client_secret_basic') as string
  if (!(AUTH_METHODS as readonly string[]).includes(method))
    throw bad(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`)
  const grants = (m.grant_types ?? ['authorization_code']) as unknown
  if (!Array.isArray(grants) || grants.length === 0 || grants.some((g) => !GRANTS.includes(g as string)))
    throw bad('grant_types may only hold authorization_code and refresh_token.')
  if (!grants.includes('authorization_code')) throw bad('grant_types must include authorization_code.')
  const responses = (m.response_types ?? ['code']) as unknown
  if (!Array.isArray(responses) || responses.some((r) => r !== 'code'))
    throw bad('response_types may only hold code.')
  const name = m.client_name ?? 'Unnamed client'
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200)
    throw bad('client_name must be 1 to 200 characters.')
  const link = (key: string): string | null => {
    const v = m[key]
    if (v === undefined || v === null) return null
    if (typeof v !== 'string' || !/^https:\/\/[^\s]+$/.test(v) || v.length > 2000)
      throw bad(`${key} must be an https URL.`)
    return v
  }
  const count = await storage.read((s) => s.oauth.countClients())
  if (count >= options.maxClients)
    throw bad('The server holds as many registered clients as it accepts.', 'invalid_request')

  const secret = method === 'none' ? null : randomToken()
  const client: OAuthClientRecord = {
    id: `wgc_${randomToken(18)}`,
    secretHash: secret ? hashToken(secret) : null,
    name: name.trim(),
    redirectUris: uris as string[],
    grantTypes: grants as string[],
    tokenEndpointAuthMethod: method as OAuthClientRecord['tokenEndpointAuthMethod'],
    logoUri: link('logo_uri'),
    clientUri: link('client_uri'),
    createdAt: options.now.toISOString(),
  }
  await storage.transaction((s) => s.oauth.insertClient(client))
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(options.now.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: method,
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
  }
}

/** A built-in, registered, or metadata-document client (fetched through the resolver). */
export async function findClient(
  storage: Storage,
  cimd: ReturnType<typeof createCimdResolver> | null,
  clientId: string,
  builtIn: ReadonlyMap<string, OAuthClientRecord> = new Map(),
): Promise<OAuthClientRecord> {
  const own = builtIn.get(clientId)
  if (own) return own
  if (isCimdClientId(clientId)) {
    if (!cimd) throw new OAuthError('invalid_client', 'This server does not fetch client metadata documents.')
    return cimd.resolve(clientId)
  }
  const client = clientId.length <= 200 ? await storage.read((s) => s.oauth.getClient(clientId)) : null
  if (!client) throw new OAuthError('invalid_client', 'The client is unknown.')
  return client
}
