import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { authorizeAndAllow, signUp } from './support.ts'

describeEachDatabase('the MCP SDK auth() helper', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('discovers, registers, authorizes and exchanges the code for an /mcp token', async () => {
    const base = server.url
    const redirect = 'http://127.0.0.1:8976/callback'
    let info: OAuthClientInformationMixed | undefined
    let tokens: OAuthTokens | undefined
    let verifier = ''
    let authorizationUrl: URL | undefined
    const provider: OAuthClientProvider = {
      redirectUrl: redirect,
      clientMetadata: {
        client_name: 'MCP SDK client',
        redirect_uris: [redirect],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      clientInformation: () => info,
      saveClientInformation: (i) => {
        info = i
      },
      tokens: () => tokens,
      saveTokens: (t) => {
        tokens = t
      },
      redirectToAuthorization: (url) => {
        authorizationUrl = url
      },
      saveCodeVerifier: (v) => {
        verifier = v
      },
      codeVerifier: () => verifier,
    }

    const serverUrl = `${base}/mcp`
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT')
    expect(info?.client_id).toMatch(/^wgc_/)
    expect(authorizationUrl!.searchParams.get('resource')).toBe(serverUrl)
    const { cookie } = await signUp(base)
    const callback = await authorizeAndAllow(base, authorizationUrl!.href, cookie)
    const code = callback.searchParams.get('code')!
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED')
    const payload = JSON.parse(Buffer.from(tokens!.access_token.split('.')[1]!, 'base64url').toString())
    expect(payload.aud).toBe(serverUrl)
    // One resource server: the /mcp token is accepted by this server's API too.
    expect((await server.request('GET', '/v1/orgs', { token: tokens!.access_token })).status).toBe(200)
  })
})
