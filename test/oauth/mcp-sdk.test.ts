import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { authorizeAndAllow, memoryAuthProvider, signUp } from './support.ts'

describeEachDatabase('the MCP SDK auth() helper', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('discovers, registers, authorizes and exchanges the code for an /mcp token', async () => {
    const base = server.url
    const { provider, state } = memoryAuthProvider('MCP SDK client')

    const serverUrl = `${base}/mcp`
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT')
    expect(state.info?.client_id).toMatch(/^wgc_/)
    expect(state.authorizationUrl!.searchParams.get('resource')).toBe(serverUrl)
    const { cookie } = await signUp(base)
    const callback = await authorizeAndAllow(base, state.authorizationUrl!.href, cookie)
    const code = callback.searchParams.get('code')!
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED')
    const payload = JSON.parse(Buffer.from(state.tokens!.access_token.split('.')[1]!, 'base64url').toString())
    expect(payload.aud).toBe(serverUrl)
    // One resource server: the /mcp token is accepted by this server's API too.
    expect((await server.request('GET', '/v1/orgs', { token: state.tokens!.access_token })).status).toBe(200)
  })
})
