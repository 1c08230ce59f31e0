import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

/**
 * A create's event append is its transaction's last statement, and on Postgres its `commit` is on the
 * wire behind it before its answer arrives (adapters/kysely/src/driver/held-writes.ts). When that append
 * fails, nothing of the create may stand: no task, no number taken, no stored Idempotency-Key answer.
 */
describeEachDatabase('a create whose event append fails', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('commits nothing, answers a problem, and the next create takes the number', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const first = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Before' })
    expect(first.status).toBe(201)
    const storage = server.storage
    const counter = () =>
      storage.db
        .selectFrom('orgEventCounters')
        .selectAll()
        .where('orgId', '=', ws.orgId)
        .executeTakeFirstOrThrow()
    const kept = await counter()
    // Without the org's event counter row the append cannot number its event, and fails.
    await storage.db.deleteFrom('orgEventCounters').where('orgId', '=', ws.orgId).execute()
    const key = { 'idempotency-key': 'create-that-fails' }
    const failed = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Never stored' }, key)
    expect(failed.status).toBe(500)
    expect(failed.headers.get('content-type')).toContain('application/problem+json')
    await storage.db
      .insertInto('orgEventCounters')
      .values({ ...kept, lastSeq: Number(kept.lastSeq) })
      .execute()

    const list = await ws.api.get(`${tasks}?limit=100`)
    expect(list.body.data.map((t: { title: string }) => t.title)).toEqual(['Before'])
    // The same key again: no answer was stored for it, so the create runs, with the number not taken.
    const retried = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Stored' }, key)
    expect(retried.status).toBe(201)
    expect(retried.body.number).toBe(first.body.number + 1)
    const events = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1))
    expect(events.filter((e) => e.kind === 'task.created').map((e) => e.resourceId)).toEqual([
      first.body.id,
      retried.body.id,
    ])
  })
})
