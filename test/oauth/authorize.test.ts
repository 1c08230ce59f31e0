import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { authorizeUrl, consentFields, pkce, register, signUp } from './support.ts'

const REDIRECT = 'https://app.example.com/cb'

describeEachDatabase('OAuth authorize endpoint, registration and pages', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let base: string
  let client: Record<string, any>
  let cookie: string
  const { challenge } = pkce()
  const params = (over: Record<string, string | null> = {}) => {
    const all: Record<string, string | null> = {
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'work:read',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...over,
    }
    return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null)) as Record<string, string>
  }
  const get = (query: Record<string, string>, headers: Record<string, string> = { cookie }) =>
    fetch(authorizeUrl(base, query), { headers, redirect: 'manual' })

  beforeAll(async () => {
    server = await startTestServer(db)
    base = server.url
    client = (await register(base, { redirect_uris: [REDIRECT, 'http://127.0.0.1:7000/cb'] })).body
    cookie = (await signUp(base)).cookie
  })
  afterAll(() => server.drop())

  describe('discovery', () => {
    it('publishes RFC 8414 and RFC 9728 metadata with the exact issuer', async () => {
      const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as any
      expect(as.issuer).toBe(base)
      expect(as).toMatchObject({
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        authorization_response_iss_parameter_supported: true,
        registration_endpoint: `${base}/api/auth/mcp/register`,
      })
      expect(as.token_endpoint_auth_methods_supported).toContain('none')
      for (const path of ['mcp', 'v1']) {
        const prm = (await (
          await fetch(`${base}/.well-known/oauth-protected-resource/${path}`)
        ).json()) as any
        expect(prm.resource).toBe(`${base}/${path}`)
        expect(prm.authorization_servers).toEqual([base])
        expect(prm.scopes_supported).not.toContain('offline_access')
      }
      const config = await server.request('GET', '/v1/config')
      expect(config.body.auth.tokenEndpoint).toBe(`${base}/oauth/token`)
    })
  })

  describe('registration', () => {
    it.each([
      ['javascript:alert(1)'],
      ['http://app.example.com/cb'],
      ['https://app.example.com/cb#frag'],
      ['https://*.example.com/cb'],
      ['https://user@app.example.com/cb'],
      ['data:text/html,hi'],
      ['http://localhost.evil.com/cb'],
    ])('refuses the redirect URI %s', async (uri) => {
      const res = await register(base, { redirect_uris: [uri] })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('invalid_redirect_uri')
    })

    it('refuses implicit or password grants, a chosen client_id and unknown auth methods', async () => {
      for (const bad of [
        { grant_types: ['implicit'] },
        { grant_types: ['authorization_code', 'password'] },
        { client_id: 'https://mine.example/x' },
        { token_endpoint_auth_method: 'private_key_jwt' },
        { response_types: ['token'] },
      ]) {
        const res = await register(base, bad)
        expect(res.status, JSON.stringify(bad)).toBe(400)
        expect(res.body.error).toBe('invalid_client_metadata')
      }
    })

    it('rate limits registrations per address', async () => {
      const limited = await startTestServer(db, { oauth: { registrationsPerMinute: 2 } })
      try {
        const statuses = []
        for (let i = 0; i < 3; i++) statuses.push((await register(limited.url)).status)
        expect(statuses).toEqual([201, 201, 429])
      } finally {
        await limited.drop()
      }
    })

    it('shows a confidential client its secret once and never issues an https client_id', async () => {
      const res = await register(base, { token_endpoint_auth_method: 'client_secret_basic' })
      expect(res.status).toBe(201)
      expect(res.body.client_secret).toMatch(/^[\w-]{40,}$/)
      expect(res.body.client_id.startsWith('https://')).toBe(false)
      const stored = await server.storage.read((s) => s.oauth.getClient(res.body.client_id))
      expect(stored!.secretHash).not.toBe(res.body.client_secret)
    })
  })

  describe('redirect URI checks answer with a page, never a redirect', () => {
    it.each([
      ['case of the host', 'https://APP.example.com/cb'],
      ['trailing slash', 'https://app.example.com/cb/'],
      ['explicit :443', 'https://app.example.com:443/cb'],
      ['added query', 'https://app.example.com/cb?x=1'],
      ['fragment', 'https://app.example.com/cb#x'],
      ['userinfo', 'https://app.example.com@evil.example/cb'],
      ['suffix host', 'https://app.example.com.evil.example/cb'],
      ['path trick', 'https://app.example.com/cb/../evil'],
      ['http instead of https', 'http://app.example.com/cb'],
      ['another loopback path', 'http://127.0.0.1:7000/other'],
      ['localhost for a 127.0.0.1 registration', 'http://localhost:7000/cb'],
    ])('%s', async (_name, uri) => {
      const res = await get(params({ redirect_uri: uri }))
      expect(res.status).toBe(400)
      expect(res.headers.get('location')).toBeNull()
      expect(res.headers.get('content-type')).toContain('text/html')
    })

    it('unknown, missing or repeated client_id', async () => {
      expect((await get(params({ client_id: 'wgc_nope' }))).status).toBe(400)
      expect((await get(params({ client_id: null }))).status).toBe(400)
      const twice = `${authorizeUrl(base, params())}&client_id=${client.client_id}`
      expect((await fetch(twice, { headers: { cookie }, redirect: 'manual' })).status).toBe(400)
    })

    it('a loopback registration accepts another port', async () => {
      const res = await get(params({ redirect_uri: 'http://127.0.0.1:51234/cb' }))
      expect(res.status).toBe(200)
    })
  })

  describe('other errors redirect with error, state and iss', () => {
    it.each([
      ['no PKCE', { code_challenge: null, code_challenge_method: null }, 'invalid_request'],
      ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['missing method', { code_challenge_method: null }, 'invalid_request'],
      ['short challenge', { code_challenge: 'abc' }, 'invalid_request'],
      ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
      ['unknown scope', { scope: 'work:read admin' }, 'invalid_scope'],
      ['scope case variant', { scope: 'WORK:READ' }, 'invalid_scope'],
      ['unknown resource', { resource: 'https://elsewhere.example/v1' }, 'invalid_target'],
      ['resource with trailing slash', { resource: 'RESOURCE/' }, 'invalid_target'],
    ])('%s', async (_name, over, error) => {
      const query = params(over as Record<string, string | null>)
      if (query.resource === 'RESOURCE/') query.resource = `${base}/v1/`
      const res = await get(query)
      expect(res.status).toBe(303)
      const location = new URL(res.headers.get('location')!)
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT)
      expect(location.searchParams.get('error')).toBe(error)
      expect(location.searchParams.get('state')).toBe('s1')
      expect(location.searchParams.get('iss')).toBe(base)
    })

    it('prompt=none without a session is login_required', async () => {
      const res = await get(params({ prompt: 'none' }), {})
      expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('login_required')
    })
  })

  describe('consent', () => {
    it('cannot be framed, refuses a cross-site or forged decision, and redirects with 303', async () => {
      const page = await get(params())
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(page.headers.get('x-frame-options')).toBe('DENY')
      const html = await page.text()
      expect(html).toContain('view tasks, projects, programs, initiatives and cycles')
      expect(html).not.toContain('<script')
      const form = consentFields(html)
      form.set('decision', 'allow')
      const post = (headers: Record<string, string>, body = form) =>
        fetch(`${base}/oauth/authorize`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body,
          redirect: 'manual',
        })
      expect((await post({ origin: 'https://evil.example' })).status).toBe(403)
      expect((await post({})).status).toBe(403)
      expect((await post({ origin: base, 'sec-fetch-site': 'cross-site' })).status).toBe(403)
      const forged = new URLSearchParams(form)
      forged.set('scope', 'work:read work:write')
      expect((await post({ origin: base }, forged)).status).toBe(403)
      const other = await signUp(base)
      const stolen = await fetch(`${base}/oauth/authorize`, {
        method: 'POST',
        headers: { cookie: other.cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        redirect: 'manual',
      })
      expect(stolen.status).toBe(403)
      const ok = await post({ origin: base })
      expect(ok.status).toBe(303)
      expect(new URL(ok.headers.get('location')!).searchParams.get('code')).toBeTruthy()

      // Remembered: the same scope skips the screen, a wider one asks again.
      const again = await get(params({ state: 's2' }))
      expect(again.status).toBe(303)
      expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy()
      expect((await get(params({ scope: 'work:read work:write' }))).status).toBe(200)
    })

    it('deny redirects with access_denied', async () => {
      const person = await signUp(base)
      const html = await (await get(params(), { cookie: person.cookie })).text()
      const form = consentFields(html)
      form.set('decision', 'deny')
      const res = await fetch(`${base}/oauth/authorize`, {
        method: 'POST',
        headers: { cookie: person.cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        redirect: 'manual',
      })
      expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('access_denied')
    })
  })

  describe('accounts', () => {
    // Nine password hashes: on a busy 2-core machine they alone can outlast the default 30 s.
    it('answers a wrong email and a wrong password alike, and honours only same-origin return_to', async () => {
      const person = await signUp(base)
      const signIn = (body: unknown) =>
        fetch(`${base}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const wrongPassword = await signIn({ email: person.email, password: 'not the password' })
      const wrongEmail = await signIn({ email: `x${person.email}`, password: person.password })
      expect(wrongPassword.status).toBe(401)
      expect(wrongEmail.status).toBe(401)
      expect(((await wrongPassword.json()) as any).detail).toBe(((await wrongEmail.json()) as any).detail)
      const ok = await signIn({ email: person.email, password: person.password })
      expect(ok.status).toBe(200)
      expect(ok.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/)

      const form = (returnTo: string) =>
        fetch(`${base}/sign-in`, {
          method: 'POST',
          headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: person.email, password: person.password, return_to: returnTo }),
          redirect: 'manual',
        })
      for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example'])
        expect((await form(evil)).headers.get('location')).toBe('/welcome')
      expect((await form('/oauth/authorize?x=1')).headers.get('location')).toBe('/oauth/authorize?x=1')
      const crossSite = await fetch(`${base}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ email: person.email, password: person.password }),
      })
      expect(crossSite.status).toBe(400)
    }, 90_000)

    it('rate limits sign-in attempts', async () => {
      // A fixed clock: the window is a fixed minute, and a real one could turn between two attempts.
      const limited = await startTestServer(db, {
        oauth: { signInAttemptsPerMinute: 3, clock: () => new Date('2030-01-15T10:00:10.000Z') },
      })
      try {
        const person = await signUp(limited.url)
        const statuses = []
        for (let i = 0; i < 4; i++) {
          const res = await fetch(`${limited.url}/api/auth/sign-in/email`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: person.email, password: 'wrong wrong' }),
          })
          statuses.push(res.status)
        }
        expect(statuses).toEqual([401, 401, 401, 429])
      } finally {
        await limited.drop()
      }
    })

    it('lists and revokes web sessions through /v1/me/sessions; the session cookie is not an API credential', async () => {
      const person = await signUp(base)
      const me = await server.storage.read((s) => s.users.getByEmail(person.email))
      const token = await server.engine.tokens.issueAccessToken({
        userId: me!.id,
        scopes: ['work:read', 'work:write'],
      })
      const list = await server.as(token).get('/v1/me/sessions')
      expect(list.status).toBe(200)
      expect(list.body.data).toHaveLength(1)
      expect(
        (await server.request('GET', '/v1/me/sessions', { headers: { cookie: person.cookie } })).status,
      ).toBe(401)
      expect((await server.as(token).delete(`/v1/me/sessions/${list.body.data[0].id}`)).status).toBe(204)
      const session = await fetch(`${base}/api/auth/session`, { headers: { cookie: person.cookie } })
      expect(session.status).toBe(401)
    })
  })
})
