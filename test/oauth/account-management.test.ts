import { type ConsentId, newId, type Principal, type UserId, type WebSessionId } from '@workgraph/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEngine, newPerson, type TestEngine } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { authorizeAndAllow, authorizeUrl, pkce, redeem, register, signUp } from './support.ts'

/** The same person authorizes a new app; returns the app's client id and access token. */
async function connectApp(base: string, cookie: string): Promise<{ clientId: string; token: string }> {
  const client = (await register(base)).body
  const { verifier, challenge } = pkce()
  const redirectUri = 'http://127.0.0.1:8976/callback'
  const location = await authorizeAndAllow(
    base,
    authorizeUrl(base, {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'work:read work:write',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${base}/v1`,
    }),
    cookie,
  )
  const code = location.searchParams.get('code')!
  const tokens = await redeem(base, { client, person: null as never, verifier, code, redirectUri })
  return { clientId: client.client_id as string, token: tokens.body.access_token as string }
}

describeEachDatabase('managing the account is for first-party apps', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('refuses a third-party app that signs the person out or disconnects another app, and changes nothing', async () => {
    const person = await signUp(server.url)
    const [first, second] = [
      await connectApp(server.url, person.cookie),
      await connectApp(server.url, person.cookie),
    ]
    const app = server.as(first.token)
    const connections = (await app.get('/v1/me/consents')).body.data
    expect(connections).toHaveLength(2)
    const sessions = (await app.get('/v1/me/sessions')).body.data
    expect(sessions).toHaveLength(1)

    const other = connections.find((c: any) => c.clientId === second.clientId)
    const refused = await app.delete(`/v1/me/consents/${other.id}`)
    expect(refused.body).toMatchObject({ code: 'first_party_only', status: 403 })
    expect((await server.as(second.token).get('/v1/me/consents')).body.data).toHaveLength(2)

    const signOut = await app.delete(`/v1/me/sessions/${sessions[0].id}`)
    expect(signOut.body).toMatchObject({ code: 'first_party_only', status: 403 })
    expect((await app.get('/v1/me/sessions')).body.data).toHaveLength(1)
  })

  it('shows one connection with its scopes and last use; another app may not read it', async () => {
    const person = await signUp(server.url)
    const { clientId, token } = await connectApp(server.url, person.cookie)
    const app = server.as(token)
    const [own] = (await app.get('/v1/me/consents')).body.data
    const one = await app.get(`/v1/me/consents/${own.id}`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual(own)
    expect(one.body).toMatchObject({ clientId, scopes: ['work:read', 'work:write'] })
    expect(Date.parse(one.body.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(one.body.createdAt))
    expect(one.headers.get('etag')).toBeTruthy()

    const other = await connectApp(server.url, person.cookie)
    const denied = await server.as(other.token).get(`/v1/me/consents/${own.id}`)
    expect(denied).toMatchObject({ status: 403, body: { code: 'first_party_only' } })
    const missing = await app.get('/v1/me/consents/cns_01JD3Q2R4S5T6V7W8X9YZABCDE')
    expect(missing.status).toBe(403)
  })

  it('lets an app disconnect itself, after which its token stops working', async () => {
    const person = await signUp(server.url)
    const { token } = await connectApp(server.url, person.cookie)
    const app = server.as(token)
    const [own] = (await app.get('/v1/me/consents')).body.data
    expect((await app.delete(`/v1/me/consents/${own.id}`)).status).toBe(204)
    expect((await app.get('/v1/me/consents')).status).toBe(401)
  })
})

describeEachDatabase('first-party clients named in config', (db) => {
  let t: TestEngine
  beforeAll(async () => {
    t = await createTestEngine(db, { firstPartyClients: ['workgraph-cli'] })
  })
  afterAll(() => t.close())

  async function world() {
    const person = await newPerson(t.engine)
    const userId = person.user.id as UserId
    const now = new Date()
    const sessionId = newId('WebSessionId') as WebSessionId
    const grantId = newId('ConsentId') as ConsentId
    await t.storage.transaction(async (s) => {
      await s.oauth.insertSession({
        id: sessionId,
        userId,
        tokenHash: `hash-${sessionId}`,
        userAgent: 'test',
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
      })
      await s.oauth.upsertGrant({
        id: grantId,
        userId,
        clientId: 'some-app',
        clientName: 'Some app',
        scopes: ['work:read'],
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
    })
    const as = (clientId?: string): Principal => ({
      userId,
      scopes: new Set(['work:read', 'work:write']),
      ...(clientId ? { clientId } : {}),
    })
    return { sessionId, grantId, as }
  }

  describe('a listed client and a host-minted token (no client) may manage the account', () => {
    for (const clientId of ['workgraph-cli', undefined]) {
      it(`${clientId ?? 'no client'}: signs a session out and disconnects an app`, async () => {
        const { sessionId, grantId, as } = await world()
        const principal = as(clientId)
        await t.engine.execute('me.sessions.revoke', { params: { sessionId } }, principal)
        const seen = await t.engine.execute('me.consents.get', { params: { consentId: grantId } }, principal)
        expect(seen.body).toMatchObject({ id: grantId, clientName: 'Some app', lastUsedAt: null })
        await t.engine.execute('me.consents.revoke', { params: { consentId: grantId } }, principal)
        await expect(
          t.engine.execute('me.consents.get', { params: { consentId: grantId } }, principal),
        ).rejects.toMatchObject({ code: 'not_found' })
        const left = await t.engine.execute('me.consents.list', {}, principal)
        expect(left.body).toEqual({ data: [] })
      })
    }
  })

  it('an unlisted client gets first_party_only', async () => {
    const { sessionId, as } = await world()
    await expect(
      t.engine.execute('me.sessions.revoke', { params: { sessionId } }, as('some-app')),
    ).rejects.toMatchObject({ code: 'first_party_only' })
  })
})
