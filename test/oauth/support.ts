import { createHash, randomBytes } from 'node:crypto'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { latestLink } from '../support/outbox.ts'

/** Helpers that play the browser and the client against a running server, with plain fetch. */

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

let people = 0

/** Signs a new person up through the API; returns the session cookie (`name=value`). */
export async function signUp(base: string): Promise<{ cookie: string; email: string; password: string }> {
  const email = `oauth${++people}.${Date.now()}@example.com`
  const password = 'correct horse battery staple'
  const started = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name: 'Oauth Person' }),
  })
  if (started.status !== 202) throw new Error(`sign-up answered ${started.status}: ${await started.text()}`)
  // The person opens the mailed link; its token finishes the sign-up and signs in.
  const token = new URL(latestLink(email, '/sign-up/confirm')).searchParams.get('token')
  const res = await fetch(`${base}/api/auth/sign-up/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  })
  if (res.status !== 200) throw new Error(`sign-up confirmation answered ${res.status}: ${await res.text()}`)
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, email, password }
}

export async function register(base: string, metadata: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/api/auth/mcp/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test client',
      redirect_uris: ['http://127.0.0.1:8976/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}

export function authorizeUrl(base: string, params: Record<string, string>): string {
  return `${base}/oauth/authorize?${new URLSearchParams(params)}`
}

/** The hidden fields of the page's decision form (not its "sign out" form), as the browser would post them. */
export function consentFields(page: string): URLSearchParams {
  const html =
    page.split('<form').find((form) => !form.includes('action="/sign-out"') && form.includes('hidden')) ?? ''
  const decode = (v: string) => v.replace(/&#(\d+);/g, (_m, n) => String.fromCharCode(Number(n)))
  return new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m): [string, string] => [
      decode(m[1]!),
      decode(m[2]!),
    ]),
  )
}

/** GET the authorize URL as a signed-in browser and allow; returns the final redirect location. */
export async function authorizeAndAllow(base: string, url: string, cookie: string): Promise<URL> {
  const page = await fetch(url, { headers: { cookie }, redirect: 'manual' })
  if (page.status === 303) return new URL(page.headers.get('location')!)
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${await page.text()}`)
  const form = consentFields(await page.text())
  form.set('decision', 'allow')
  const post = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  })
  if (post.status !== 303) throw new Error(`consent answered ${post.status}: ${await post.text()}`)
  return new URL(post.headers.get('location')!)
}

export interface TokenResult {
  status: number
  headers: Headers
  body: Record<string, any>
}

export async function tokenRequest(
  base: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TokenResult> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }
}

/** A code for a fresh person and client, with everything needed to redeem it. */
export async function freshCode(base: string, options: { scope?: string; resource?: string } = {}) {
  const client = (await register(base)).body
  const person = await signUp(base)
  const { verifier, challenge } = pkce()
  const redirectUri = 'http://127.0.0.1:8976/callback'
  const location = await authorizeAndAllow(
    base,
    authorizeUrl(base, {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: options.scope ?? 'work:read work:write offline_access',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: options.resource ?? `${base}/v1`,
    }),
    person.cookie,
  )
  const code = location.searchParams.get('code')
  if (!code) throw new Error(`no code in ${location}`)
  return { client, person, verifier, code, redirectUri }
}

export function redeem(
  base: string,
  c: Awaited<ReturnType<typeof freshCode>>,
  extra: Record<string, string> = {},
): Promise<TokenResult> {
  return tokenRequest(base, {
    grant_type: 'authorization_code',
    code: c.code,
    code_verifier: c.verifier,
    client_id: c.client.client_id,
    redirect_uri: c.redirectUri,
    resource: `${base}/v1`,
    ...extra,
  })
}

/**
 * The MCP SDK's `OAuthClientProvider` kept in memory, as a public client on a loopback redirect;
 * `state` exposes what the SDK saved (client, tokens) and where it sent the browser.
 */
export function memoryAuthProvider(clientName: string) {
  const redirect = 'http://127.0.0.1:8976/callback'
  const state: {
    info?: OAuthClientInformationMixed
    tokens?: OAuthTokens
    authorizationUrl?: URL
    verifier: string
  } = { verifier: '' }
  const provider: OAuthClientProvider = {
    redirectUrl: redirect,
    clientMetadata: {
      client_name: clientName,
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientInformation: () => state.info,
    saveClientInformation: (info) => {
      state.info = info
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens
    },
    redirectToAuthorization: (url) => {
      state.authorizationUrl = url
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier
    },
    codeVerifier: () => state.verifier,
  }
  return { provider, state }
}
