import * as oauth from 'oauth4webapi'
import { CliError } from '../errors.ts'
import { type DiscoveredServer, exchangeCode, registerClient } from '../oauth/server.ts'
import type { Mailbox } from './mailbox.ts'

/** A demo teammate's account: what the seed prints so a person can sign in as them. */
export interface TeammateAccount {
  name: string
  email: string
  password: string
}

// offline_access only because the CLI's code exchange insists on a refresh token; the seed drops it.
const SCOPE = 'work:read work:write agents:run offline_access'
/** Never listened on: the seed reads the code from the redirect's Location header. */
const REDIRECT_URI = 'http://127.0.0.1/callback'

/**
 * Plays a teammate's browser against the server's own pages, as a new person would: signs in, or
 * signs up and opens the link mailed to them (read from `mailbox`), then allows the seed's client
 * on the consent screen. Answers an access token for that person.
 */
export function createTeammateSession(server: DiscoveredServer, mailbox: Mailbox) {
  let clientId: Promise<string> | undefined
  const origin = server.origin

  async function post(path: string, body: unknown, cookie?: string): Promise<Response> {
    return fetch(`${origin}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
      redirect: 'manual',
    })
  }

  const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0] ?? ''

  /**
   * A session cookie for the person: a new account made from the link mailed on sign-up, or, when
   * the address has one already (a resumed run), a sign-in with its password. Signing up first costs
   * one password hash on a fresh run, where trying to sign in first would cost two.
   */
  async function signIn(person: TeammateAccount): Promise<string> {
    const started = await post('/api/auth/sign-up/email', person)
    if (started.status !== 202)
      throw new CliError(`Signing ${person.email} up answered ${started.status}: ${await started.text()}`)
    const link = new URL(await mailbox.link(person.email, ['/sign-up/confirm', '/reset-password']))
    if (link.pathname === '/sign-up/confirm') {
      const confirmed = await post('/api/auth/sign-up/confirm', { token: link.searchParams.get('token') })
      if (confirmed.ok) return cookieOf(confirmed)
    }
    const known = await post('/api/auth/sign-in/email', { email: person.email, password: person.password })
    if (!known.ok)
      throw new CliError(`Signing ${person.email} in answered ${known.status}: ${await known.text()}`)
    return cookieOf(known)
  }

  /** Authorizes the seed's client as the signed-in person: the consent screen, then Allow. */
  async function authorize(cookie: string): Promise<string> {
    clientId ??= registerClient(server, REDIRECT_URI, 'workgraph seed (demo teammates)')
    const client = { client_id: await clientId }
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: server.resource,
    })
    const endpoint = server.as.authorization_endpoint!
    let answer = await fetch(`${endpoint}?${query}`, { headers: { cookie }, redirect: 'manual' })
    if (answer.status === 200) {
      const csrf = /name="csrf" value="([^"]*)"/.exec(await answer.text())?.[1]
      if (!csrf) throw new CliError(`The consent screen of ${origin} has no form the seed recognises`)
      query.set('csrf', csrf)
      query.set('decision', 'allow')
      answer = await fetch(endpoint, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: query,
        redirect: 'manual',
      })
    }
    const location = answer.headers.get('location')
    if (answer.status !== 303 || !location)
      throw new CliError(`Authorizing the demo teammate answered ${answer.status}: ${await answer.text()}`)
    const callback = oauth.validateAuthResponse(server.as, client, new URL(location), state)
    const tokens = await exchangeCode(server, {
      clientId: client.client_id,
      callback,
      redirectUri: REDIRECT_URI,
      verifier,
      scope: SCOPE,
    })
    return tokens.accessToken
  }

  return {
    async accessToken(person: TeammateAccount): Promise<string> {
      return authorize(await signIn(person))
    },
  }
}
