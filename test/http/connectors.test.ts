import { randomBytes } from 'node:crypto'
import { githubProvider, workgraphProvider } from '@workgraph/core'
import { createOutboundFetcher } from '@workgraph/h3'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { unseal } from '../../packages/core/src/connectors/secrets.ts'
import { authorizeAndAllow, register, signUp, tokenRequest } from '../oauth/support.ts'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { freePort } from '../support/processes.ts'
import { newWorkspace } from '../support/workspace.ts'

const LINK = ['work:read', 'work:write', 'connectors:link']

// Two real workgraph servers on loopback: A connects to B as an OAuth client and links B's tasks.
describeEachDatabase('connectors between two workgraph servers', (db) => {
  type Server = Awaited<ReturnType<typeof startTestServer>>
  let a: Server
  let b: Server
  let clientId = ''
  const key = randomBytes(32).toString('base64url')
  const logged: string[] = []

  beforeAll(async () => {
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const original = console[level].bind(console)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((x) => (x instanceof Error ? `${x.message} ${x.stack}` : String(x))).join(' '))
        original(...args)
      })
    }
    b = await startTestServer(db)
    const portA = await freePort()
    const client = await register(b.url, {
      client_name: 'workgraph A',
      redirect_uris: [`http://127.0.0.1:${portA}/connectors/callback`],
    })
    expect(client.status).toBe(201)
    clientId = client.body.client_id
    a = await startTestServer(db, {
      port: portA,
      config: {
        connectors: {
          encryptionKey: key,
          fetcher: createOutboundFetcher(),
          providers: [
            workgraphProvider({ id: 'peer', baseUrl: b.url, clientId, allowLoopback: true }),
            githubProvider({ clientId: 'gh-client' }),
          ],
        },
      },
    })
  })
  afterAll(async () => {
    await a?.drop()
    await b?.drop()
    vi.restoreAllMocks()
  })

  /** A person at B (signed in through the web) with a task; and a workspace at A with a task. */
  async function world() {
    const person = await signUp(b.url)
    const userB = (await b.storage.read((s) => s.users.getByEmail(person.email)))!
    const apiB = b.as(
      await b.engine.tokens.issueAccessToken({ userId: userB.id, scopes: ['work:read', 'work:write'] }),
    )
    const orgB = (await apiB.post('/v1/orgs', { name: 'Beta' })).body.id
    const teamB = (await apiB.post(`/v1/orgs/${orgB}/teams`, { name: 'Ops', key: 'OPS' })).body.id
    const taskB = (await apiB.post(`/v1/orgs/${orgB}/tasks`, { teamId: teamB, title: 'Rotate keys' })).body
    const ws = await newWorkspace(a)
    const api = a.as(await a.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: LINK }))
    const taskA = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Audit' }))
      .body
    return { person, apiB, orgB, teamB, taskB, ws, api, taskA }
  }

  /** Connects A's owner to B through the real authorization code flow; answers the connection. */
  async function connect(w: Awaited<ReturnType<typeof world>>) {
    const started = await w.api.post(`/v1/orgs/${w.ws.orgId}/connections`, { providerId: 'peer' })
    expect(started.status).toBe(201)
    expect(started.body.connection.status).toBe('pending')
    const authorization = new URL(started.body.authorizationUrl)
    expect(authorization.origin).toBe(b.url)
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorization.searchParams.get('resource')).toBe(`${b.url}/v1`)
    // The person consents at B in their browser; B redirects the browser to A's callback.
    const back = await authorizeAndAllow(b.url, started.body.authorizationUrl, w.person.cookie)
    expect(`${back.origin}${back.pathname}`).toBe(`${a.url}/connectors/callback`)
    const landed = await a.request('GET', `${back.pathname}${back.search}`)
    expect(landed.status).toBe(200)
    expect(landed.body).toMatchObject({ id: started.body.connection.id, status: 'active' })
    expect(landed.body.scopes).toEqual(expect.arrayContaining(['work:read', 'offline_access']))
    // Single use: the same redirect again fails and changes nothing.
    const again = await a.request('GET', `${back.pathname}${back.search}`)
    expect(again).toMatchObject({ status: 400, body: { code: 'authorization_failed' } })
    return landed.body
  }

  it('connects A to B, links B’s task to A’s by URL, refreshes after B changes, and disconnects (revoking at B)', async () => {
    const w = await world()
    const connection = await connect(w)
    const items = `/v1/orgs/${w.ws.orgId}/tasks/${w.taskA.id}/linked-items`
    const url = `${b.url}/v1/orgs/${w.orgB}/tasks/${w.taskB.id}`

    const linked = await w.api.post(items, { url })
    expect(linked.status).toBe(201)
    expect(linked.headers.get('location')).toBeNull()
    expect(linked.body).toMatchObject({
      url,
      providerId: 'peer',
      itemType: 'task',
      title: 'Rotate keys',
      state: w.taskB.stateCategory,
      externalUpdatedAt: w.taskB.updatedAt,
    })
    expect(linked.body.fetchedAt).not.toBeNull()
    expect((await w.api.post(items, { url })).body.code).toBe('already_exists')

    // B's task changes; refreshing on A reads it again through the connection.
    const states = (await w.apiB.get(`/v1/orgs/${w.orgB}/teams/${w.teamB}/states`)).body.data
    const started = states.find((s: any) => s.category === 'started')
    const changed = await w.apiB.patch(`/v1/orgs/${w.orgB}/tasks/${w.taskB.id}`, {
      title: 'Rotate keys (all regions)',
      stateId: started.id,
    })
    expect(changed.status).toBe(200)
    const refreshed = await w.api.post(`/v1/orgs/${w.ws.orgId}/linked-items/${linked.body.id}/refresh`)
    expect(refreshed.status).toBe(200)
    expect(refreshed.body).toMatchObject({ title: 'Rotate keys (all regions)', state: 'started' })
    expect((await w.api.get(items)).body.data).toEqual([refreshed.body])
    // By key works too.
    const byKey = await w.api.post(items, { url: `${b.url}/v1/orgs/${w.orgB}/tasks/by-key/${w.taskB.key}` })
    expect(byKey.body).toMatchObject({ title: 'Rotate keys (all regions)', state: 'started' })

    const test = await w.api.post(`/v1/orgs/${w.ws.orgId}/connections/${connection.id}/test`)
    expect(test.body).toMatchObject({ ok: true, status: 200, connection: { status: 'active' } })

    // The tokens are stored encrypted; decrypt them here to check revocation at B afterwards.
    const row = (await a.storage.read((s) =>
      s.connections.get(w.ws.orgId, connection.memberId, connection.id),
    ))!
    expect(row.refreshToken!.startsWith('v1.')).toBe(true)
    const refreshToken = unseal(key, row.id, row.refreshToken!)
    const accessToken = unseal(key, row.id, row.accessToken!)
    expect(
      (await fetch(`${b.url}/v1/orgs`, { headers: { authorization: `Bearer ${accessToken}` } })).status,
    ).toBe(200)

    const gone = await w.api.delete(`/v1/orgs/${w.ws.orgId}/connections/${connection.id}`)
    expect(gone.status).toBe(204)
    expect((await w.api.get(`/v1/orgs/${w.ws.orgId}/connections/${connection.id}`)).status).toBe(404)
    // Revoked at B (RFC 7009): the refresh token is refused.
    const reuse = await tokenRequest(b.url, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
      resource: `${b.url}/v1`,
    })
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    // The link stays with what was last read; refreshing now needs a connection.
    expect((await w.api.get(items)).body.data[0].title).toBe('Rotate keys (all regions)')
    expect(
      (await w.api.post(`/v1/orgs/${w.ws.orgId}/linked-items/${linked.body.id}/refresh`)).body.code,
    ).toBe('connection_required')
    const events = (await w.api.get(`/v1/orgs/${w.ws.orgId}/stream?limit=200`)).body.data.map(
      (e: any) => e.kind,
    )
    expect(events).toEqual(
      expect.arrayContaining([
        'connection.created',
        'connection.connected',
        'linked_item.created',
        'linked_item.refreshed',
        'connection.deleted',
      ]),
    )

    // Never in an API response of this test, nor in any log line of either server.
    for (const secret of [refreshToken, accessToken]) {
      expect(logged.join('\n')).not.toContain(secret)
      expect(JSON.stringify([connection, linked.body, refreshed.body, test.body])).not.toContain(secret)
    }
  })

  it('keeps a connection to its person: another member can neither see nor use it', async () => {
    const w = await world()
    const connection = await connect(w)
    const other = await w.ws.addMember('admin')
    const api = a.as(await a.engine.tokens.issueAccessToken({ userId: other.user.id, scopes: LINK }))
    const path = `/v1/orgs/${w.ws.orgId}/connections`
    expect((await api.get(path)).body.data).toEqual([])
    expect((await api.get(`${path}/${connection.id}`)).status).toBe(404)
    expect((await api.post(`${path}/${connection.id}/test`)).status).toBe(404)
    expect((await api.delete(`${path}/${connection.id}`)).status).toBe(404)
    // Linking B's task as the other member stores the URL only: the owner's connection is not used.
    const items = `/v1/orgs/${w.ws.orgId}/tasks/${w.taskA.id}/linked-items`
    const url = `${b.url}/v1/orgs/${w.orgB}/tasks/${w.taskB.id}`
    const linked = await api.post(items, { url })
    expect(linked.body).toMatchObject({ url, providerId: 'peer', title: null, state: null, fetchedAt: null })
    expect(await api.post(`/v1/orgs/${w.ws.orgId}/linked-items/${linked.body.id}/refresh`)).toMatchObject({
      status: 422,
      body: { code: 'connection_required' },
    })
    // The owner's connection still exists and works.
    expect((await w.api.get(`${path}/${connection.id}`)).body.status).toBe('active')
  })

  it('refuses URLs at special-use addresses, bad URLs, unknown providers and a forged redirect', async () => {
    const ws = await newWorkspace(a)
    const api = a.as(await a.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: LINK }))
    const task = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const items = `/v1/orgs/${ws.orgId}/tasks/${task.id}/linked-items`
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://127.0.0.1:9/admin',
      'https://10.0.0.1/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://localhost:8080/',
    ]) {
      expect(await api.post(items, { url }), url).toMatchObject({
        status: 422,
        body: { code: 'outbound_refused' },
      })
    }
    expect(await api.post(items, { url: 'ftp://example.com/x' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', errors: [{ pointer: '/body/url' }] },
    })
    expect((await api.get(items)).body.data).toEqual([])
    expect(await api.post(`/v1/orgs/${ws.orgId}/connections`, { providerId: 'nope' })).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/providerId' }] },
    })
    expect(await a.request('GET', '/connectors/callback?state=forged&code=x')).toMatchObject({
      status: 400,
      body: { code: 'authorization_failed' },
    })
    // The landing moved out of the API: nothing answers at its old path under /v1.
    expect(await a.request('GET', '/v1/connectors/callback?state=forged&code=x')).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    })
    const providers = await api.get(`/v1/orgs/${ws.orgId}/connectors/providers`)
    expect(providers.body).toMatchObject({ nextCursor: null })
    expect(providers.body.data.map((p: any) => p.id)).toEqual(['github', 'peer'])
    expect(JSON.stringify(providers.body)).not.toContain('gh-client')
    // The providers page like any list: by id, `limit` at a time.
    const first = await api.get(`/v1/orgs/${ws.orgId}/connectors/providers?limit=1`)
    expect(first.body.data.map((p: any) => p.id)).toEqual(['github'])
    const second = await api.get(
      `/v1/orgs/${ws.orgId}/connectors/providers?limit=1&cursor=${first.body.nextCursor}`,
    )
    expect(second.body).toMatchObject({ data: [{ id: 'peer' }], nextCursor: null })
    expect(
      (await api.get(`/v1/orgs/${ws.orgId}/connectors/providers?cursor=${first.body.nextCursor}x`)).body.code,
    ).toBe('invalid_cursor')
  })

  it('needs the connectors:link scope: 403 insufficient_scope without it', async () => {
    const ws = await newWorkspace(a)
    const res = await ws.api.get(`/v1/orgs/${ws.orgId}/connections`)
    expect(res).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } })
    expect(res.headers.get('www-authenticate')).toContain('scope="connectors:link"')
    const task = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const link = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks/${task.id}/linked-items`, {
      url: 'https://example.com/a',
    })
    expect(link).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } })
  })

  it('links a URL no provider reads by URL only, lists and unlinks it; a guest cannot link', async () => {
    const ws = await newWorkspace(a)
    const api = a.as(await a.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: LINK }))
    const task = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const items = `/v1/orgs/${ws.orgId}/tasks/${task.id}/linked-items`
    const url = 'https://example.com/spec#section'
    const linked = await api.post(items, { url })
    expect(linked).toMatchObject({
      status: 201,
      body: { url, providerId: null, title: null, fetchedAt: null },
    })
    const guest = await teamGuest(ws, 'view')
    const guestApi = a.as(await a.engine.tokens.issueAccessToken({ userId: guest.user.id, scopes: LINK }))
    // A guest who may only view the team's tasks sees the link but cannot add one.
    expect((await guestApi.get(items)).body.data).toHaveLength(1)
    expect(await guestApi.post(items, { url: 'https://example.com/other' })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    expect((await api.delete(`/v1/orgs/${ws.orgId}/linked-items/${linked.body.id}`)).status).toBe(204)
    expect((await api.get(items)).body.data).toEqual([])
    expect((await api.delete(`/v1/orgs/${ws.orgId}/linked-items/${linked.body.id}`)).status).toBe(404)
  })
})
