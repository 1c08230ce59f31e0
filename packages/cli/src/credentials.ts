import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** What `workgraph login` keeps for one server: enough to refresh, never an access token. */
export interface Credentials {
  /** The server's origin, as given to `login` (`http://localhost:3000`). */
  server: string
  /** The authorization server's issuer, checked again on every refresh. */
  issuer: string
  /** The API resource the tokens are for (`…/v1`). */
  resource: string
  /** The client id this CLI registered on that server (dynamic registration, RFC 7591). */
  clientId: string
  /** The current refresh token; each refresh spends it and stores the next. */
  refreshToken: string
  scope: string
  savedAt: string
}

/** `$XDG_CONFIG_HOME/workgraph`, else `~/.config/workgraph`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(homedir(), '.config')
  return join(base, 'workgraph')
}

/** One file per server, named after its origin: `http://localhost:3000` → `http_localhost_3000.json`. */
export function credentialsPath(server: string, env: NodeJS.ProcessEnv = process.env): string {
  const name = new URL(server).origin.replace(/[^A-Za-z0-9.-]+/g, '_')
  return join(configDir(env), 'credentials', `${name}.json`)
}

export async function readCredentials(
  server: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Credentials | null> {
  try {
    return JSON.parse(await readFile(credentialsPath(server, env), 'utf8')) as Credentials
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/**
 * Writes the file with mode 0600 (its folder 0700) through a temporary file and a rename, so a
 * crash never leaves half a refresh token, and the token is never readable by others, not even
 * for a moment.
 */
export async function writeCredentials(
  credentials: Credentials,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const path = credentialsPath(credentials.server, env)
  const folder = join(configDir(env), 'credentials')
  await mkdir(folder, { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
  await chmod(temporary, 0o600)
  await rename(temporary, path)
  await writeDefaultServer(credentials.server, env)
  return path
}

export async function deleteCredentials(server: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await rm(credentialsPath(server, env), { force: true })
  await rm(accessTokenPath(server, env), { force: true })
}

/** An access token kept between commands, so `workgraph api` costs the request, not a refresh. */
export interface CachedAccessToken {
  accessToken: string
  /** The issuer the token came from, checked against the credentials before reuse. */
  issuer: string
  /** When the token expires (ISO 8601), read from its `exp`. */
  expiresAt: string
}

/** Beside the credentials: `http_localhost_3000.access.json`, mode 0600 like them. */
export function accessTokenPath(server: string, env: NodeJS.ProcessEnv = process.env): string {
  return credentialsPath(server, env).replace(/\.json$/, '.access.json')
}

export async function readAccessToken(
  server: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CachedAccessToken | null> {
  try {
    return JSON.parse(await readFile(accessTokenPath(server, env), 'utf8')) as CachedAccessToken
  } catch {
    return null
  }
}

export async function writeAccessToken(
  server: string,
  token: CachedAccessToken,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const path = accessTokenPath(server, env)
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(token)}\n`, { mode: 0o600 })
  await rename(temporary, path)
}

/** The server of the last login, used when neither `--server` nor `WORKGRAPH_SERVER` says. */
export async function defaultServer(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  try {
    const settings = JSON.parse(await readFile(join(configDir(env), 'config.json'), 'utf8'))
    return typeof settings.server === 'string' ? settings.server : null
  } catch {
    return null
  }
}

async function writeDefaultServer(server: string, env: NodeJS.ProcessEnv): Promise<void> {
  await writeFile(join(configDir(env), 'config.json'), `${JSON.stringify({ server }, null, 2)}\n`, {
    mode: 0o600,
  })
}
