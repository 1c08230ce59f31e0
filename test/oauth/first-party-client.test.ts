import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { authorizeAndAllow, authorizeUrl, pkce, register, signUp, tokenRequest } from './support.ts'

describeEachDatabase("the API reference's built-in client", (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let base: string
  beforeAll(async () => {
    server = await startTestServer(db, { oauth: { registrationsPerMinute: 1000 } })
    base = server.url
  })
  afterAll(() => server.drop())

  const authorize = (extra: Record<string, string>) => {
    const { verifier, challenge } = pkce()
    const url = authorizeUrl(base, {
      client_id: 'workgraph-api-reference',
      response_type: 'code',
      scope: 'work:read work:write',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    })
    return { url, verifier }
  }

  it('returns only to the reference on this server, and redeems its code with no secret', async () => {
    const person = await signUp(base)
    const callback = `${base}/v1/docs/oauth-callback`
    const { url, verifier } = authorize({ redirect_uri: callback })
    const location = await authorizeAndAllow(base, url, person.cookie)
    expect(`${location.origin}${location.pathname}`).toBe(callback)
    // What the reference sends: the client id in the form and an empty secret.
    const token = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: 'workgraph-api-reference',
      client_secret: '',
      redirect_uri: callback,
    })
    expect(token.status).toBe(200)
    expect(token.body.refresh_token).toBeUndefined()
    expect((await server.request('GET', '/v1/me', { token: token.body.access_token })).status).toBe(200)
    // The callback page itself is plain and inert.
    const page = await fetch(callback)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")

    // Anywhere else is refused on the server's own page, never redirected to.
    const elsewhere = await fetch(authorize({ redirect_uri: 'http://127.0.0.1:8976/callback' }).url, {
      headers: { cookie: person.cookie },
      redirect: 'manual',
    })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.headers.get('location')).toBeNull()
  })

  it('still refuses a confidential client that sends an empty secret', async () => {
    const client = (await register(base, { token_endpoint_auth_method: 'client_secret_post' })).body
    const res = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code: 'whatever',
      client_id: client.client_id,
      client_secret: '',
    })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe('invalid_client')
  })

  it('is named in the OpenAPI document as the oauth2 scheme of every operation', async () => {
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as any
    const flow = document.components.securitySchemes.oauth2.flows.authorizationCode
    expect(flow.authorizationUrl).toBe(`${base}/oauth/authorize`)
    expect(flow.tokenUrl).toBe(`${base}/oauth/token`)
    expect(Object.keys(flow.scopes)).toContain('work:write')
    expect(document.paths['/v1/me'].get.security).toEqual([
      { bearerAuth: ['work:read'] },
      { oauth2: ['work:read'] },
    ])
  })
})
