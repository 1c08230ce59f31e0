import { createUser } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

// A token accepted on one request is verified once and remembered: what it proves must still end
// with its lifetime, and its revocation must still refuse the next request.
describeEachDatabase('a token used again and again', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = Date.parse('2030-05-06T09:00:00.000Z')
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  afterAll(() => server.drop())

  async function token(email: string) {
    const user = await createUser(server.storage, { email, name: 'Reader' })
    return server.engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read'], ttlSeconds: 60 })
  }
  const me = (t: string) => server.request('GET', '/v1/me', { token: t })

  it('is refused once it expires, however often it was accepted before', async () => {
    const t = await token('expiring@example.com')
    for (let i = 0; i < 3; i++) expect((await me(t)).status).toBe(200)
    now += 59_000
    expect((await me(t)).status).toBe(200)
    now += 1_000
    const expired = await me(t)
    expect(expired.status).toBe(401)
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('is refused at once when revoked after it was accepted', async () => {
    const t = await token('revoked@example.com')
    expect((await me(t)).status).toBe(200)
    const { jti, exp } = JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString())
    await server.engine.storage.transaction((tx) =>
      tx.oauth.revokeAccessToken(jti, new Date(exp * 1000).toISOString()),
    )
    expect((await me(t)).status).toBe(401)
  })

  it('is not confused with another token of the same person', async () => {
    const t = await token('two-tokens@example.com')
    expect((await me(t)).status).toBe(200)
    const [h, p, s] = t.split('.') as [string, string, string]
    // The same claims under a signature one character off: verified on its own, and refused.
    const tampered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BA' : 'AA'}`
    expect((await me(tampered)).status).toBe(401)
    expect((await me(t)).status).toBe(200)
  })
})
