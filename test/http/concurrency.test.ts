import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('concurrent requests', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 10_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('lets exactly one of several concurrent If-Match updates with the same ETag win', async () => {
    const ws = await newWorkspace(server)
    for (let round = 0; round < 5; round++) {
      const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
        teamId: ws.teamId,
        title: `round ${round}`,
      })
      const path = `/v1/orgs/${ws.orgId}/tasks/${task.body.id}`
      const etag = (await ws.api.get(path)).headers.get('etag')!
      const results = await Promise.all(
        ['a', 'b', 'c', 'd'].map((who) => ws.api.patch(path, { title: `by ${who}` }, { 'if-match': etag })),
      )
      expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412])
      const winner = results.find((r) => r.status === 200)!
      expect((await ws.api.get(path)).body.title).toBe(winner.body.title)
    }
  })

  it('replays concurrent POSTs with one Idempotency-Key even when their writes would collide', async () => {
    const ws = await newWorkspace(server)
    const key = { 'idempotency-key': `team-${Date.now()}` }
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Ops', key: 'OPS' }, key),
      ),
    )
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201])
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1)
    expect(results.filter((r) => r.headers.get('idempotency-replayed') === 'true')).toHaveLength(3)
  })

  it('does not replay a stored response to someone who has since left the workspace', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const key = { 'idempotency-key': `leave-${Date.now()}` }
    const body = { teamId: ws.teamId, title: 'Before leaving' }
    expect((await member.api.post(`/v1/orgs/${ws.orgId}/tasks`, body, key)).status).toBe(201)
    await server.storage.db
      .updateTable('members')
      .set({ status: 'deactivated' })
      .where('id', '=', member.memberId)
      .execute()
    const replay = await member.api.post(`/v1/orgs/${ws.orgId}/tasks`, body, key)
    expect(replay.status).toBe(404)
  })
})

describeEachDatabase('throttling bad tokens', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 3, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('counts refused tokens against the caller address', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await server.request('GET', '/v1/orgs', { headers: { authorization: `Bearer guess${i}` } })).status,
      )
    }
    expect(statuses).toEqual([401, 401, 401, 429])
    const person = await newPerson(server.engine)
    expect((await server.request('GET', '/v1/orgs', { token: person.token })).status).toBe(200)
  })
})
