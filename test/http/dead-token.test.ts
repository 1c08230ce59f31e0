import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshCode, redeem } from '../oauth/support.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

// The REST routes check a token's revocation with the request's first read (the org's standing),
// not on its own before it: whatever the request, a revoked token or a withdrawn consent is still
// a 401 before anything else is answered, as when the check came first.
describeEachDatabase('a revoked token or consent is refused first, on every kind of request', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let otherOrg: string
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
    const other = await redeem(server.url, await freshCode(server.url))
    otherOrg = (await server.as(other.body.access_token as string).post('/v1/orgs', { name: 'Not theirs' }))
      .body.id
  })
  afterAll(() => server.drop())

  /** A person's consented token, their org with a team made under an Idempotency-Key, and the requests. */
  async function person(scope?: string) {
    const c = await freshCode(server.url, scope ? { scope } : {})
    const token = (await redeem(server.url, c)).body.access_token as string
    const app = server.as(token)
    const owner = server.as(
      (await redeem(server.url, await freshCode(server.url))).body.access_token as string,
    )
    const org = scope
      ? // A read-only token cannot create an org: the org is made by someone else, who invites no one;
        // the requests below then meet a 404 (not a member) or a 403 (scope) while the token lives.
        (await owner.post('/v1/orgs', { name: 'Read only' })).body.id
      : (await app.post('/v1/orgs', { name: 'Mine' })).body.id
    const key = { 'idempotency-key': `team-${org}` }
    if (!scope)
      expect((await app.post(`/v1/orgs/${org}/teams`, { name: 'Core', key: 'CORE' }, key)).status).toBe(201)
    const requests = {
      'a page of the org': () => app.get(`/v1/orgs/${org}/tasks`),
      'another org': () => app.get(`/v1/orgs/${otherOrg}`),
      'a body the schema refuses': () => app.post(`/v1/orgs/${org}/teams`, { nope: true }),
      'a replayed Idempotency-Key': () =>
        app.post(`/v1/orgs/${org}/teams`, { name: 'Core', key: 'CORE' }, key),
      'a route outside orgs': () => app.get('/v1/me'),
    }
    return { c, token, app, requests }
  }

  async function statuses(requests: Record<string, () => Promise<{ status: number; headers: Headers }>>) {
    const out: Record<string, number | string> = {}
    for (const [name, send] of Object.entries(requests)) {
      const res = await send()
      out[name] = res.status === 401 ? (res.headers.get('www-authenticate') ?? 'no challenge') : res.status
    }
    return out
  }

  const refused = (names: string[]) =>
    Object.fromEntries(names.map((n) => [n, expect.stringContaining('error="invalid_token"')]))

  it('its own access token revoked (RFC 7009)', async () => {
    const { c, token, requests } = await person()
    expect(await statuses(requests)).toEqual({
      'a page of the org': 200,
      'another org': 404,
      'a body the schema refuses': 400,
      'a replayed Idempotency-Key': 201,
      'a route outside orgs': 200,
    })
    const revoke = await fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: c.client.client_id, token_type_hint: 'access_token' }),
    })
    expect(revoke.status).toBe(200)
    expect(await statuses(requests)).toEqual(refused(Object.keys(requests)))
  })

  it('its consent withdrawn in Connected apps', async () => {
    const { app, requests } = await person()
    const consents = await app.get('/v1/me/consents')
    expect((await app.delete(`/v1/me/consents/${consents.body.data[0].id}`)).status).toBe(204)
    expect(await statuses(requests)).toEqual(refused(Object.keys(requests)))
  })

  it('a read-only token: 403 for a write while it lives, 401 once revoked', async () => {
    const { c, token, requests } = await person('work:read')
    const write = { 'a write without the scope': requests['a replayed Idempotency-Key'] }
    expect(await statuses(write)).toEqual({ 'a write without the scope': 403 })
    await fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: c.client.client_id }),
    })
    expect(await statuses({ ...write, 'a page of an org': requests['a page of the org'] })).toEqual(
      refused(['a write without the scope', 'a page of an org']),
    )
  })

  it('a token minted by the host (no consent) revoked by its jti', async () => {
    const { app } = await person()
    const org = (await app.post('/v1/orgs', { name: 'Host' })).body.id
    const me = await app.get('/v1/me')
    const token = await server.engine.tokens.issueAccessToken({
      userId: me.body.user.id,
      scopes: ['work:read'],
    })
    const host = server.as(token)
    expect((await host.get(`/v1/orgs/${org}/tasks`)).status).toBe(200)
    const { jti, exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    await server.engine.storage.transaction((tx) =>
      tx.oauth.revokeAccessToken(jti, new Date(exp * 1000).toISOString()),
    )
    const denied = await host.get(`/v1/orgs/${org}/tasks`)
    expect(denied.status).toBe(401)
    expect(denied.headers.get('www-authenticate')).toContain('invalid_token')
  })
})
