import { request } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('HTTP semantics', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { maxBodyBytes: 4096 } })
  })
  afterAll(() => server.drop())

  const eventCount = async (orgId: string) =>
    (await server.storage.read((s) => s.events.list(orgId as never, 0, 10_000))).length

  it('answers 401 with a Bearer challenge for a missing, malformed or invalid token', async () => {
    const none = await server.request('GET', '/v1/orgs')
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe(
      `Bearer realm="workgraph", resource_metadata="${server.url}/.well-known/oauth-protected-resource/v1"`,
    )
    const garbage = await server.request('GET', '/v1/orgs', {
      headers: { authorization: 'Bearer not.a.jwt' },
    })
    expect(garbage.status).toBe(401)
    expect(garbage.headers.get('www-authenticate')).toContain('error="invalid_token"')
    const basic = await server.request('GET', '/v1/orgs', {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    })
    expect(basic.status).toBe(401)
    const person = await newPerson(server.engine)
    const expired = await server.engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read'],
      ttlSeconds: -10,
    })
    expect((await server.request('GET', '/v1/orgs', { token: expired })).status).toBe(401)
    const otherAudience = await server.engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read'],
      audience: 'https://elsewhere.example',
    })
    expect((await server.request('GET', '/v1/orgs', { token: otherAudience })).status).toBe(401)
    const [header, payload] = person.token.split('.')
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`
    expect((await server.request('GET', '/v1/orgs', { token: unsigned })).status).toBe(401)
    expect(header).toBeTruthy()
  })

  it('answers a write with a read-only token with 403 insufficient_scope and a challenge', async () => {
    const reader = await newPerson(server.engine, { scopes: ['work:read'] })
    const res = await server.request('POST', '/v1/orgs', { token: reader.token, body: { name: 'Nope' } })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('insufficient_scope')
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="workgraph", error="insufficient_scope", scope="work:write", resource_metadata="${server.url}/.well-known/oauth-protected-resource/v1"`,
    )
  })

  it('names the expected type for an id of the wrong brand', async () => {
    const ws = await newWorkspace(server)
    const res = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${ws.teamId}`)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      code: 'invalid_identifier',
      expectedType: 'TaskId',
      errors: [{ pointer: '/params/taskId' }],
    })
    const inBody = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.orgId, title: 'x' })
    expect(inBody.body).toMatchObject({ code: 'invalid_identifier', expectedType: 'TeamId' })
    const notAnOrg = await ws.api.get(`/v1/orgs/${ws.teamId}`)
    expect(notAnOrg.body).toMatchObject({ code: 'invalid_identifier', expectedType: 'OrgId' })
  })

  it('rejects malformed JSON, unknown fields and wrong types with pointers, writing nothing', async () => {
    const ws = await newWorkspace(server)
    const before = await eventCount(ws.orgId)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const malformed = await server.request('POST', tasks, {
      token: ws.owner.token,
      rawBody: '{"title": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.code).toBe('invalid_json')
    const unknown = await ws.api.post(tasks, { teamId: ws.teamId, title: 'x', colour: 'red' })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/body/colour', message: 'Unknown field' }],
    })
    const types = await ws.api.post(tasks, { teamId: ws.teamId, title: 42, priority: 'soon', estimate: -1 })
    expect(types.status).toBe(400)
    expect(types.body.errors.map((e: any) => e.pointer)).toEqual(
      expect.arrayContaining(['/body/title', '/body/priority', '/body/estimate']),
    )
    const missing = await ws.api.post(tasks)
    expect(missing.body.errors).toEqual([{ pointer: '/body', message: 'Required' }])
    const form = await server.request('POST', tasks, {
      token: ws.owner.token,
      rawBody: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(form.status).toBe(415)
    expect(await eventCount(ws.orgId)).toBe(before)
    expect((await ws.api.get(tasks)).body.data).toEqual([])
  })

  it('refuses a body over the limit with 413', async () => {
    const ws = await newWorkspace(server)
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
      teamId: ws.teamId,
      title: 'x',
      description: 'y'.repeat(5000),
    })
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ code: 'payload_too_large', maxBytes: 4096 })
  })

  it('refuses a chunked body that grows over the limit with 413, and keeps serving', async () => {
    const ws = await newWorkspace(server)
    const url = new URL(`${server.url}/v1/orgs/${ws.orgId}/tasks`)
    // No Content-Length: the size is only known once the body is read past the limit.
    const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        const req = request(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${ws.owner.token}`, 'content-type': 'application/json' },
        })
        req.on('response', (res) => {
          let body = ''
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString()
          })
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }))
        })
        req.on('error', reject)
        req.write(`{"teamId":"${ws.teamId}","title":"x","description":"`)
        for (let i = 0; i < 5; i++) req.write('y'.repeat(1000))
        req.end('"}')
      },
    )
    expect(answer.status).toBe(413)
    expect(answer.connection).toBe('close')
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large', maxBytes: 4096 })
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/tasks`)).body.data).toEqual([])
  })

  it('negotiates Accept (406) and refuses an unsupported method (405 with Allow)', async () => {
    const ws = await newWorkspace(server)
    const xml = await server.request('GET', `/v1/orgs/${ws.orgId}`, {
      token: ws.owner.token,
      headers: { accept: 'application/xml' },
    })
    expect(xml.status).toBe(406)
    expect(xml.body.code).toBe('not_acceptable')
    const any = await server.request('GET', `/v1/orgs/${ws.orgId}`, {
      token: ws.owner.token,
      headers: { accept: 'text/html, */*;q=0.1' },
    })
    expect(any.status).toBe(200)
    const put = await server.request('PUT', `/v1/orgs/${ws.orgId}`, { token: ws.owner.token, body: {} })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, PATCH, OPTIONS')
  })

  it('sends a strong ETag, answers If-None-Match with 304 and If-Match mismatches with 412', async () => {
    const ws = await newWorkspace(server)
    const created = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Versioned' })
    const path = `/v1/orgs/${ws.orgId}/tasks/${created.body.id}`
    const read = await ws.api.get(path)
    const etag = read.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    expect(created.headers.get('etag')).toBeNull()
    expect((await ws.api.get(path, { 'if-none-match': etag })).status).toBe(304)
    const updated = await ws.api.patch(path, { title: 'Changed' }, { 'if-match': etag })
    expect(updated.status).toBe(200)
    expect(updated.headers.get('etag')).not.toBe(etag)
    expect((await ws.api.get(path)).headers.get('etag')).toBe(updated.headers.get('etag'))
    const stale = await ws.api.patch(path, { title: 'Lost update' }, { 'if-match': etag })
    expect(stale.status).toBe(412)
    expect(stale.body.code).toBe('precondition_failed')
    expect((await ws.api.delete(path, { 'if-match': etag })).status).toBe(412)
    expect((await ws.api.get(path)).body.title).toBe('Changed')
    expect((await ws.api.get(path, { 'if-none-match': etag })).status).toBe(200)
  })

  it('replays a POST with the same Idempotency-Key and refuses the key with another body', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const key = { 'idempotency-key': `key-${Date.now()}` }
    const first = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Once' }, key)
    const again = await ws.api.post(tasks, { title: 'Once', teamId: ws.teamId }, key)
    expect(again.status).toBe(201)
    expect(again.body).toEqual(first.body)
    expect(again.headers.get('idempotency-replayed')).toBe('true')
    const other = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Twice' }, key)
    expect(other.status).toBe(422)
    expect(other.body.code).toBe('idempotency_key_reused')
    expect((await ws.api.get(tasks)).body.data).toHaveLength(1)
    const someoneElse = await ws.addMember('member')
    const theirs = await someoneElse.api.post(tasks, { teamId: ws.teamId, title: 'Once' }, key)
    expect(theirs.body.id).not.toBe(first.body.id)
  })

  it('runs concurrent POSTs with one Idempotency-Key exactly once', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const key = { 'idempotency-key': `race-${Date.now()}` }
    const results = await Promise.all(
      Array.from({ length: 6 }, () => ws.api.post(tasks, { teamId: ws.teamId, title: 'Race' }, key)),
    )
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1)
    expect(results.every((r) => r.status === 201)).toBe(true)
    expect((await ws.api.get(tasks)).body.data).toHaveLength(1)
  })

  it('answers CORS preflights and exposes the headers clients need', async () => {
    const res = await fetch(`${server.url}/v1/orgs`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    const get = await server.request('GET', '/v1/config', { headers: { origin: 'https://app.example' } })
    expect(get.headers.get('access-control-expose-headers')).toContain('ETag')
  })
})

describeEachDatabase('rate limits', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 5, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('counts per principal, announces the policy and answers 429 with Retry-After', async () => {
    const a = await newPerson(server.engine)
    const b = await newPerson(server.engine)
    const statuses: number[] = []
    let last: Headers | undefined
    for (let i = 0; i < 6; i++) {
      const res = await server.request('GET', '/v1/orgs', { token: a.token })
      statuses.push(res.status)
      last = res.headers
      if (i === 0) {
        expect(res.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60')
        expect(res.headers.get('ratelimit')).toMatch(/^"default";r=4;t=\d+$/)
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    expect(Number(last!.get('retry-after'))).toBeGreaterThan(0)
    expect((await server.request('GET', '/v1/orgs', { token: b.token })).status).toBe(200)
  })
})
