import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { authorizeAndAllow, signUp } from './support.ts'

describeEachDatabase('OAuth end to end with oauth4webapi', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('discovers, registers, authorizes with sign-in and consent, calls, refreshes, and stops after revocation', async () => {
    const insecure = { [oauth.allowInsecureRequests]: true }
    const base = server.url

    // 1. An unauthenticated call points at the protected-resource metadata.
    const first = await fetch(`${base}/v1/orgs`)
    expect(first.status).toBe(401)
    const challenge = first.headers.get('www-authenticate')!
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!
    expect(metadataUrl).toBe(`${base}/.well-known/oauth-protected-resource/v1`)

    // 2. Discovery: the resource, then its authorization server.
    const resourceId = new URL(`${base}/v1`)
    const rs = await oauth.processResourceDiscoveryResponse(
      resourceId,
      await oauth.resourceDiscoveryRequest(resourceId, insecure),
    )
    expect(rs.bearer_methods_supported).toEqual(['header'])
    const issuer = new URL(rs.authorization_servers![0]!)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    )
    expect(as.issuer).toBe(base)
    expect(as.code_challenge_methods_supported).toEqual(['S256'])
    expect(as.authorization_response_iss_parameter_supported).toBe(true)

    // 3. Dynamic registration as a public client.
    const redirectUri = 'http://127.0.0.1:8976/callback'
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'oauth4webapi e2e',
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        insecure,
      ),
    )
    expect(client.client_id.startsWith('https://')).toBe(false)

    // 4. Authorize: no session → sign-in page, then consent.
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'work:read work:write offline_access',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: resourceId.href,
    }).toString()
    const anonymous = await fetch(url, { redirect: 'manual' })
    expect(anonymous.status).toBe(303)
    const signIn = new URL(anonymous.headers.get('location')!, base)
    expect(signIn.pathname).toBe('/sign-in')
    expect(signIn.searchParams.get('return_to')).toBe(`${url.pathname}${url.search}`)
    const person = await signUp(base)
    const callback = await authorizeAndAllow(base, url.href, person.cookie)
    const params = oauth.validateAuthResponse(as, client, callback, state)

    // 5. Code exchange with PKCE and resource.
    const clientAuth = oauth.None()
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, {
        additionalParameters: { resource: resourceId.href },
        ...insecure,
      }),
    )
    expect(tokens.token_type).toBe('bearer')
    expect(tokens.expires_in).toBe(900)
    expect(tokens.refresh_token).toBeTruthy()

    // 6. An API call.
    const call = (token: string, path = '/v1/orgs') =>
      oauth.protectedResourceRequest(token, 'GET', new URL(`${base}${path}`), undefined, undefined, insecure)
    expect((await call(tokens.access_token)).status).toBe(200)
    const created = await fetch(`${base}/v1/orgs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made with OAuth' }),
    })
    expect(created.status).toBe(201)

    // 7. Refresh: a new pair; the new access token works.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, {
        additionalParameters: { resource: resourceId.href },
        ...insecure,
      }),
    )
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect((await call(refreshed.access_token)).status).toBe(200)

    // 8. Revocation in Connected apps (the API form), then every token of the grant fails.
    const connections = await server.as(refreshed.access_token).get('/v1/me/consents')
    expect(connections.status).toBe(200)
    const mine = connections.body.data.find((c: any) => c.clientId === client.client_id)
    expect(mine).toMatchObject({ clientName: 'oauth4webapi e2e' })
    expect(mine.scopes).toEqual(['work:read', 'work:write', 'offline_access'])
    expect((await server.as(refreshed.access_token).delete(`/v1/me/consents/${mine.id}`)).status).toBe(204)

    // oauth4webapi surfaces the 401 as its challenge error.
    const refused = await call(refreshed.access_token).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError)
    expect((refused as oauth.WWWAuthenticateChallengeError).cause[0]).toMatchObject({
      scheme: 'bearer',
      parameters: { error: 'invalid_token', resource_metadata: metadataUrl },
    })
    expect((await server.request('GET', '/v1/orgs', { token: tokens.access_token })).status).toBe(401)
    const deadRefresh = await oauth.refreshTokenGrantRequest(
      as,
      client,
      clientAuth,
      refreshed.refresh_token!,
      insecure,
    )
    expect(deadRefresh.status).toBe(400)
    expect(((await deadRefresh.json()) as any).error).toBe('invalid_grant')

    // 9. The client must ask again: the consent screen shows up once more.
    const again = await fetch(url, { headers: { cookie: person.cookie }, redirect: 'manual' })
    expect(again.status).toBe(200)
    expect(await again.text()).toContain('Allow oauth4webapi e2e')
  })
})
