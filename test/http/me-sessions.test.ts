import { newId, type UserId, type WebSessionId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

describeEachDatabase('me.sessions.revokeOthers', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  async function sessionsOf(userId: string, n: number): Promise<WebSessionId[]> {
    const ids = Array.from({ length: n }, () => newId('WebSessionId') as WebSessionId)
    const now = Date.now()
    await server.storage.transaction(async (s) => {
      for (const id of ids)
        await s.oauth.insertSession({
          id,
          userId: userId as UserId,
          tokenHash: `hash-${id}`,
          userAgent: 'test',
          createdAt: new Date(now).toISOString(),
          expiresAt: new Date(now + 3_600_000).toISOString(),
        })
    })
    return ids
  }

  it("ends every other session of the caller, none of anyone else's, and refuses a session that is not theirs", async () => {
    const me = await newPerson(server.engine, { scopes: ['work:read', 'work:write'] })
    const other = await newPerson(server.engine, { scopes: ['work:read', 'work:write'] })
    const [keep, ...rest] = await sessionsOf(me.user.id, 3)
    const [theirs] = await sessionsOf(other.user.id, 1)
    const api = server.as(me.token)

    const foreign = await api.post('/v1/me/sessions/revoke-others', { keep: theirs })
    expect(foreign.status).toBe(404)
    expect((await api.get('/v1/me/sessions')).body.data).toHaveLength(3)

    const done = await api.post('/v1/me/sessions/revoke-others', { keep })
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ revoked: rest.length })
    expect((await api.get('/v1/me/sessions')).body.data.map((s: any) => s.id)).toEqual([keep])
    expect((await server.as(other.token).get('/v1/me/sessions')).body.data.map((s: any) => s.id)).toEqual([
      theirs,
    ])
    // Again: nothing left to end.
    expect((await api.post('/v1/me/sessions/revoke-others', { keep })).body).toEqual({ revoked: 0 })
    expect((await api.post('/v1/me/sessions/revoke-others', {})).status).toBe(400)
  })

  it('is refused to a third-party app', async () => {
    const me = await newPerson(server.engine, { scopes: ['work:read', 'work:write'] })
    const [keep] = await sessionsOf(me.user.id, 2)
    const app = await server.engine.tokens.issueAccessToken({
      userId: me.user.id as UserId,
      scopes: ['work:read', 'work:write'],
      clientId: 'third-party-app',
    })
    const refused = await server.as(app).post('/v1/me/sessions/revoke-others', { keep })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('first_party_only')
    expect((await server.as(me.token).get('/v1/me/sessions')).body.data).toHaveLength(2)
  })
})
