import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshCode, redeem } from '../oauth/support.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { openSse } from '../support/sse.ts'

describeEachDatabase('a live stream whose consent or token is revoked', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, {
      config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 }, streams: { pingSeconds: 0.2 } },
    })
  })
  afterAll(() => server.drop())

  it('ends with consent_revoked once the person revokes the app in Connected apps, and the token stops working', async () => {
    const tokens = await redeem(server.url, await freshCode(server.url))
    const app = server.as(tokens.body.access_token as string)
    const org = await app.post('/v1/orgs', { name: 'Consented' })
    expect(org.status).toBe(201)
    const client = await openSse(`${server.url}/v1/stream/sse?orgId=${org.body.id}`, {
      token: tokens.body.access_token as string,
    })
    await client.until((f) => f.some((x) => x.event === 'stream-event'))

    const connections = await app.get('/v1/me/consents')
    expect(connections.body.data).toHaveLength(1)
    const revoked = await app.delete(`/v1/me/consents/${connections.body.data[0].id}`)
    expect(revoked.status).toBe(204)

    await client.ended
    const last = client.frames.at(-1)!
    expect(last.event).toBe('stream-end')
    expect(JSON.parse(last.data).reason).toBe('consent_revoked')
    expect((await app.get(`/v1/orgs/${org.body.id}`)).status).toBe(401)
  })
  it('ends with consent_revoked at the next ping once its own access token is revoked (RFC 7009)', async () => {
    const c = await freshCode(server.url)
    const tokens = await redeem(server.url, c)
    const token = tokens.body.access_token as string
    const org = await server.as(token).post('/v1/orgs', { name: 'Revoked token' })
    const client = await openSse(`${server.url}/v1/stream/sse?orgId=${org.body.id}`, { token })
    await client.until((f) => f.some((x) => x.event === 'stream-event'))

    const revoke = await fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: c.client.client_id }),
    })
    expect(revoke.status).toBe(200)
    await client.ended
    expect(JSON.parse(client.frames.at(-1)!.data).reason).toBe('consent_revoked')
  })
})
