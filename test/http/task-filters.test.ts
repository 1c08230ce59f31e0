import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/** The server's clock: relative dates resolve against it. */
const NOW = '2030-01-15T12:00:00.000Z'
const DOC = readFileSync(new URL('../../docs/filters.md', import.meta.url), 'utf8')
/** The JSON examples of docs/filters.md, in order. */
const EXAMPLES = [...DOC.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!))

describeEachDatabase('task filters', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  let base: string
  const titles = async (body: unknown, api = ws.api) => {
    const res = await api.post(`${base}/tasks/query`, body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data.map((t: any) => t.title).sort()
  }
  beforeAll(async () => {
    server = await startTestServer(db, {
      clock: () => new Date(NOW),
      config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } },
    })
    ws = await newWorkspace(server)
    base = `/v1/orgs/${ws.orgId}`
    const make = (body: Record<string, unknown>) =>
      ws.api.post(`${base}/tasks`, { teamId: ws.teamId, ...body })
    await make({ title: 'Overdue login fix', dueDate: '2030-01-10', priority: 'high', estimate: 3 })
    await make({ title: 'Due this week', dueDate: '2030-01-20', priority: 'low' })
    await make({ title: 'Due next month', dueDate: '2030-02-20', priority: 'urgent', estimate: 5 })
    await make({ title: 'Undated chore', priority: 'none' })
  })
  afterAll(() => server.drop())

  it('combines or, not, lists and relative dates inside one query', async () => {
    expect(await titles({ filter: { dueDate: { gte: 'P0D', lte: 'P7D' } } })).toEqual(['Due this week'])
    expect(await titles({ filter: { dueDate: { lt: 'P0D' } } })).toEqual(['Overdue login fix'])
    // `neq` and `not` match tasks without a due date; a comparison never does.
    expect(await titles({ filter: { dueDate: { neq: '2030-01-20' } } })).toEqual([
      'Due next month',
      'Overdue login fix',
      'Undated chore',
    ])
    expect(await titles({ filter: { not: { dueDate: { gte: '-P30D' } } } })).toEqual(['Undated chore'])
    expect(
      await titles({
        filter: { or: [{ priority: { in: ['urgent'] } }, { estimate: { gte: 3, lt: 5 } }] },
      }),
    ).toEqual(['Due next month', 'Overdue login fix'])
    expect(await titles({ filter: { search: 'login', estimate: { null: false } } })).toEqual([
      'Overdue login fix',
    ])
    // The list's own parameters combine with the filter.
    expect(await titles({ priority: 'none', filter: { dueDate: { null: true } } })).toEqual(['Undated chore'])
  })

  it('runs every example of docs/filters.md', async () => {
    const label = async (name: string) => (await ws.api.post(`${base}/labels`, { name })).body.id
    const labels = [await label('bug'), await label('ui')]
    const field = (
      await ws.api.post(`${base}/custom-fields`, { name: 'Points', type: 'number', recordKinds: ['task'] })
    ).body
    const real: Record<string, string> = {
      team_01JD3Q2R4S5T6V7W8X9YZABCDE: ws.teamId,
      lbl_01JD3Q2R4S5T6V7W8X9YZABCDE: labels[0]!,
      lbl_01JD3Q2R4S5T6V7W8X9YZABCFE: labels[1]!,
      cf_01JD3Q2R4S5T6V7W8X9YZABCDE: field.id,
    }
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(5)
    for (const example of EXAMPLES) {
      const body = JSON.parse(
        JSON.stringify(example).replace(/[a-z]+_01JD3Q2R4S5T6V7W8X9YZABC[A-Z]E/g, (id) => real[id]!),
      )
      if ('relation' in body) {
        // The hub's example: the same filter language across workspaces (hub-task-query.test.ts).
        const hub = await ws.api.post('/v1/hub/tasks/query', body)
        expect(hub.status, JSON.stringify(hub.body)).toBe(200)
      } else if ('name' in body) {
        const view = await ws.api.post(`${base}/views`, body)
        expect(view.status, JSON.stringify(view.body)).toBe(201)
        const results = await ws.api.get(`${base}/views/${view.body.id}/results`)
        expect(results.status, JSON.stringify(results.body)).toBe(200)
        expect(results.body.data.map((t: any) => t.title)).toEqual(['Due this week'])
      } else await titles(body)
    }
  })

  it('refuses a filter past its bounds, or naming a field it cannot compare, with a pointer into it', async () => {
    const refused = async (filter: unknown) => {
      const res = await ws.api.post(`${base}/tasks/query`, { filter })
      return { status: res.status, code: res.body.code, pointer: res.body.errors?.[0]?.pointer }
    }
    let deep: any = { priority: { eq: 'high' } }
    for (let i = 0; i < 5; i++) deep = { not: deep }
    expect(await refused(deep)).toEqual({
      status: 422,
      code: 'rule_violated',
      pointer: '/body/filter/not/not/not/not/not',
    })
    const wide = { or: Array.from({ length: 20 }, () => ({ estimate: { gt: 1, lt: 2, neq: 1 } })) }
    expect(await refused(wide)).toMatchObject({
      status: 422,
      code: 'rule_violated',
      pointer: '/body/filter/or/16/estimate/neq',
    })
    expect(await refused({ field: { id: 'cf_01JD3Q2R4S5T6V7W8X9YZABCDE', eq: 1 } })).toMatchObject({
      status: 422,
      code: 'reference_not_found',
      pointer: '/body/filter/field/id',
    })
    const text = (
      await ws.api.post(`${base}/custom-fields`, { name: 'Notes', type: 'text', recordKinds: ['task'] })
    ).body
    expect(await refused({ and: [{ field: { id: text.id, gt: 'a' } }] })).toMatchObject({
      status: 422,
      code: 'rule_violated',
      pointer: '/body/filter/and/0/field/gt',
    })
    expect(await refused({ field: { id: text.id, eq: 3 } })).toMatchObject({
      status: 422,
      pointer: '/body/filter/field/eq',
    })
    // A view holds the same filter, checked when it is saved.
    const view = await ws.api.post(`${base}/views`, { name: 'Too deep', filter: { filter: deep } })
    expect(view.status).toBe(422)
    expect(view.body.errors[0].pointer).toBe('/body/filter/filter/not/not/not/not/not')
  })

  it('is a read: a read-only token and a viewer may call it, and an Idempotency-Key replays nothing', async () => {
    const guest = await ws.addMember('guest')
    // A guest without a grant sees no task: the permission predicate is in the same query.
    expect(await titles({ filter: { estimate: { null: true } } }, guest.api)).toEqual([])
    const headers = { 'idempotency-key': 'same-key' }
    const first = await ws.api.post(`${base}/tasks/query`, { filter: { priority: { eq: 'low' } } }, headers)
    const second = await ws.api.post(`${base}/tasks/query`, { filter: { priority: { eq: 'high' } } }, headers)
    expect([first.status, second.status]).toEqual([200, 200])
    expect(second.headers.get('idempotency-replayed')).toBeNull()
    expect(second.body.data.map((t: any) => t.title)).toEqual(['Overdue login fix'])
    // Pages continue with the same body, and refuse another one's cursor.
    const page = await ws.api.post(`${base}/tasks/query`, { filter: { dueDate: { null: false } }, limit: 2 })
    expect(page.body.nextCursor).toEqual(expect.any(String))
    const next = await ws.api.post(`${base}/tasks/query`, {
      filter: { dueDate: { null: false } },
      limit: 2,
      cursor: page.body.nextCursor,
    })
    expect(next.body.data.length).toBe(1)
    const other = await ws.api.post(`${base}/tasks/query`, {
      filter: { dueDate: { null: true } },
      cursor: page.body.nextCursor,
    })
    expect(other.status).toBe(400)
    expect(other.body.code).toBe('invalid_cursor')
    // The problem points where the cursor was sent: into the body.
    expect(other.body.errors).toEqual([{ pointer: '/body/cursor', message: expect.any(String) }])
  })
})
