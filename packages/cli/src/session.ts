// The instance file alone: the CLI's start must not load the database drivers.
import { liveServerOn } from '@workgraph/kysely/instance-file'
import {
  type Credentials,
  defaultServer,
  readAccessToken,
  readCredentials,
  writeAccessToken,
  writeCredentials,
} from './credentials.ts'
import { CliError } from './errors.ts'
import { type DiscoveredServer, discover, normalizeServer, refresh } from './oauth/server.ts'

export const DEFAULT_SERVER = 'http://localhost:3000'

/**
 * `--server`, else `WORKGRAPH_SERVER`, else the server running on this folder's SQLite file, else
 * the server of the last login, else localhost:3000.
 */
export async function resolveServer(flag: string | undefined): Promise<string> {
  return normalizeServer(
    flag || process.env.WORKGRAPH_SERVER || localServer() || (await defaultServer()) || DEFAULT_SERVER,
  )
}

/**
 * The public URL a live reference server wrote beside the SQLite file that `DATABASE_URL` (or the
 * default `./.workgraph/workgraph.db`) names, so the CLI finds a server started on any port.
 */
export function localServer(): string | undefined {
  const url = process.env.DATABASE_URL || './.workgraph/workgraph.db'
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? undefined : liveServerOn(url)?.url
}

export async function requireCredentials(server: string): Promise<Credentials> {
  const credentials = await readCredentials(server)
  if (!credentials) throw new CliError(`Not signed in to ${server}. Run: workgraph login --server ${server}`)
  return credentials
}

export interface FreshToken {
  server: DiscoveredServer
  credentials: Credentials
  accessToken: string
}

/**
 * A new access token from the stored refresh token. The server rotates refresh tokens, so the next
 * one is written before the access token is handed out: losing it would end the sign-in.
 */
export async function freshAccessToken(serverFlag: string | undefined): Promise<FreshToken> {
  const origin = await resolveServer(serverFlag)
  const credentials = await requireCredentials(origin)
  const server = await discover(origin)
  if (server.as.issuer !== credentials.issuer) {
    throw new CliError(
      `${origin} now names issuer ${server.as.issuer}, not ${credentials.issuer}; run workgraph login again`,
    )
  }
  const tokens = await refresh(server, credentials)
  const next = { ...credentials, refreshToken: tokens.refreshToken, scope: tokens.scope, savedAt: now() }
  await writeCredentials(next)
  return { server, credentials: next, accessToken: tokens.accessToken }
}

export const now = () => new Date().toISOString()

/** A cached token is used while it has at least this long to live. */
const MARGIN_MS = 60_000

/**
 * An access token for `serverFlag`'s server: the one kept from an earlier command while it has a
 * minute left (no discovery, no refresh: the call costs only itself), else a fresh one, kept for
 * the next command. `stale` forces a fresh one (the server refused the cached token).
 */
export async function accessTokenFor(
  serverFlag: string | undefined,
  options: { stale?: boolean } = {},
): Promise<{ origin: string; accessToken: string; cached: boolean }> {
  const origin = await resolveServer(serverFlag)
  const credentials = await requireCredentials(origin)
  const kept = options.stale ? null : await readAccessToken(origin)
  if (kept && kept.issuer === credentials.issuer && Date.parse(kept.expiresAt) - Date.now() > MARGIN_MS)
    return { origin, accessToken: kept.accessToken, cached: true }
  const { accessToken } = await freshAccessToken(serverFlag)
  await writeAccessToken(origin, {
    accessToken,
    issuer: credentials.issuer,
    expiresAt: expiryOf(accessToken),
  })
  return { origin, accessToken, cached: false }
}

/** The `exp` of a JWT, read without verifying it: only to know when to stop reusing it. */
function expiryOf(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'))
    if (typeof payload.exp === 'number') return new Date(payload.exp * 1000).toISOString()
  } catch {}
  return new Date(0).toISOString()
}
