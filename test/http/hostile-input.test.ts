import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

// Regressions for what the schema-driven fuzzer (test/fuzz) found, one test per bug.
describeEachDatabase('hostile and careless input', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
  })
  afterAll(() => server.drop())

  /** A raw request over node:http: fetch would normalise the path and refuse a GET body. */
  function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    return new Promise<{ status: number; type: string; body: any }>((resolve, reject) => {
      const url = new URL(server.url)
      const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent: false,
          headers: { ...headers, ...length },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString()
            resolve({
              status: res.statusCode!,
              type: String(res.headers['content-type']),
              body: JSON.parse(text),
            })
          })
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }

  it('answers a malformed percent-escape in the path with a bad_request problem, not h3 JSON', async () => {
    for (const path of [`/v1/orgs/${ws.orgId}/tasks/%zz`, '/v1/orgs/%E0%A4%A/teams', '/v1/%C0%80']) {
      const res = await raw('GET', path, { authorization: `Bearer ${ws.owner.token}` })
      expect(res.status, path).toBe(400)
      expect(res.type).toContain('application/problem+json')
      expect(res.body).toMatchObject({ code: 'bad_request', status: 400 })
    }
  })

  it('refuses any body sent to an operation that takes none as such, whatever its type or syntax', async () => {
    const path = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/restore`
    for (const [type, body] of [
      ['application/json', '{"a":'],
      ['text/plain', 'hello'],
      ['application/json', '{}'],
    ] as const) {
      const res = await raw(
        'POST',
        path,
        { authorization: `Bearer ${ws.owner.token}`, 'content-type': type },
        body,
      )
      expect(res.status, `${type} ${body}`).toBe(400)
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '/body' }] })
    }
    const get = await raw(
      'GET',
      `/v1/orgs/${ws.orgId}`,
      { authorization: `Bearer ${ws.owner.token}`, 'content-type': 'text/plain' },
      'x',
    )
    // A GET's body never reaches the handler (the Fetch API has none): it is ignored, not parsed.
    expect(get.status).toBe(200)
  })

  it('answers a request line over 16 KiB with a headers_too_large problem', async () => {
    const res = await raw('GET', `/v1/orgs/${ws.orgId}/tasks?cursor=${'a'.repeat(20_000)}`, {
      authorization: `Bearer ${ws.owner.token}`,
    })
    expect(res.status).toBe(431)
    expect(res.type).toContain('application/problem+json')
    expect(res.body).toMatchObject({ code: 'headers_too_large', status: 431 })
  })

  it('refuses NUL and unpaired surrogates in any text, values and keys, with a pointer (Postgres cannot store them)', async () => {
    const base = `/v1/orgs/${ws.orgId}`
    for (const [path, body, pointer] of [
      [`${base}/teams/${ws.teamId}`, '{"name":"a\\u0000b"}', '/body/name'],
      [`${base}/tasks`, `{"teamId":"${ws.teamId}","title":"x\\ud800y"}`, '/body/title'],
      [
        `${base}/tasks`,
        `{"teamId":"${ws.teamId}","title":"ok","description":"\\udc00"}`,
        '/body/description',
      ],
    ] as const) {
      const res = await raw(
        path.endsWith('tasks') ? 'POST' : 'PATCH',
        path,
        {
          authorization: `Bearer ${ws.owner.token}`,
          'content-type': 'application/json',
        },
        body,
      )
      expect(res.status, body).toBe(400)
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ pointer }] })
    }
    const query = await raw('GET', `${base}/tasks?q=%00`, { authorization: `Bearer ${ws.owner.token}` })
    expect(query.body).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '/query/q' }] })
    // A pair is a character like any other.
    const emoji = await ws.api.patch(`${base}/teams/${ws.teamId}`, { name: 'Rocket 🚀' })
    expect(emoji.status).toBe(200)
  })

  it('documents the 401 that a bad token gets even on GET /v1/config, which needs none', async () => {
    const res = await server.request('GET', '/v1/config', {
      headers: { authorization: 'Bearer e30.e30.e30' },
    })
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('unauthenticated')
  })

  it('refuses instants outside years 1 to 9999 (Postgres has no year 0) as validation_failed', async () => {
    const path = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`
    for (const startsAt of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00']) {
      const res = await ws.api.post(path, { startsAt, endsAt: '1990-01-01T00:00:00Z' })
      expect(res.status, startsAt).toBe(400)
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '/body/startsAt' }] })
    }
  })

  it('keeps cycles inside the calendar: the cadence stops at 9999-12-31 and a shift past it is refused', async () => {
    // A team whose last cycle ends in December 9999: turning the cadence on created the next cycles
    // past year 9999, which Postgres refused (a 500) and SQLite stored as `+010000-…` text.
    const team = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Far', key: 'FAR' })).body
    const cycles = `/v1/orgs/${ws.orgId}/teams/${team.id}/cycles`
    const last = await ws.api.post(cycles, {
      startsAt: '9999-12-01T00:00:00Z',
      endsAt: '9999-12-20T00:00:00Z',
    })
    expect(last.status).toBe(201)
    const settings = await ws.api.patch(`/v1/orgs/${ws.orgId}/teams/${team.id}/cycle-settings`, {
      enabled: true,
      durationWeeks: 1,
      cooldownWeeks: 3,
      autoCreateCount: 3,
    })
    expect(settings.status, JSON.stringify(settings.body)).toBe(200)
    expect((await ws.api.get(cycles)).body.data.map((c: { id: string }) => c.id)).toEqual([last.body.id])
    const shift = await ws.api.post(`/v1/orgs/${ws.orgId}/cycles/${last.body.id}/shift`, { days: 30 })
    expect(shift.status).toBe(422)
    expect(shift.body).toMatchObject({ code: 'rule_violated', errors: [{ pointer: '/body/days' }] })
  })

  it('reads day ranges that end on 9999-12-31 to their end (stepping past it looped forever)', async () => {
    const agenda = await ws.api.get('/v1/hub/agenda?from=9999-12-01&to=9999-12-31')
    expect(agenda.status, JSON.stringify(agenda.body)).toBe(200)
    const plan = await ws.api.get('/v1/me/daily-plan?from=9999-12-18&to=9999-12-31')
    expect(plan.status, JSON.stringify(plan.body)).toBe(200)
    expect(plan.body.days.map((d: { date: string }) => d.date).at(-1)).toBe('9999-12-31')
    expect(plan.body.days).toHaveLength(14)
  }, 20_000)

  it('refuses a template applied so late that its due dates would fall after 9999-12-31', async () => {
    const base = `/v1/orgs/${ws.orgId}`
    const template = await ws.api.post(`${base}/templates`, {
      teamId: ws.teamId,
      kind: 'task',
      name: 'Late',
      task: {
        title: 'Late',
        description: null,
        priority: 'low',
        estimate: null,
        labelIds: [],
        dueOffsetDays: 5,
      },
    })
    expect(template.status, JSON.stringify(template.body)).toBe(201)
    const tasksBefore = (await ws.api.get(`${base}/tasks?limit=100`)).body.data.length
    const late = await ws.api.post(`${base}/templates/${template.body.id}/apply`, { startDate: '9999-12-30' })
    expect(late.status, JSON.stringify(late.body)).toBe(422)
    expect(late.body.code).toBe('rule_violated')
    expect((await ws.api.get(`${base}/tasks?limit=100`)).body.data.length).toBe(tasksBefore)
  })

  it('documents precondition_failed on every operation that honours If-Match (agents.reactivate did not)', async () => {
    const agent = await ws.api.post(`/v1/orgs/${ws.orgId}/agents`, { name: 'Bot' })
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/agents/${agent.body.id}/reactivate`, undefined, {
      'if-match': '"stale"',
    })
    expect(res.status).toBe(412)
    expect(res.body.code).toBe('precondition_failed')
  })

  it('answers a task key whose number exceeds any task number with 404, not a database error', async () => {
    for (const key of ['ENG-2147483648', 'ENG-9999999999']) {
      const res = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/${key}`)
      expect(res.status, key).toBe(404)
      expect(res.body.code).toBe('not_found')
    }
  })

  it('documents subtask_cycle on tasks.batchUpdate, whose items follow tasks.update', async () => {
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Self' })
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks/batch-update`, {
      items: [{ id: task.body.id, parentId: task.body.id }],
    })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('subtask_cycle')
  })
})
