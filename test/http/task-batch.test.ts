import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('task batches', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const eventCount = async (orgId: string) =>
    (await server.storage.read((s) => s.events.list(orgId as never, 0, 100_000))).length

  it('runs concurrent batches over the same teams in opposite orders, each whole, with no number twice', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const other = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    // Each batch takes the two teams' task counters in the opposite order of the next one: on
    // Postgres two of them deadlock, and the database aborts one, which must run again, not fail.
    const batch = (first: string, second: string, n: number) =>
      ws.api.post(`${base}/tasks/batch-create`, {
        items: Array.from({ length: 10 }, (_, i) => ({
          teamId: i % 2 === 0 ? first : second,
          title: `Batch ${n} item ${i}`,
        })),
      })
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        n % 2 ? batch(ws.teamId, other.id, n) : batch(other.id, ws.teamId, n),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201))
    const keys = answers.flatMap((a) => a.body.data.map((t: any) => t.key))
    expect(new Set(keys).size).toBe(60)
    expect(keys.filter((k: string) => k.startsWith('DES-')).length).toBe(30)
  })

  it('creates up to 100 tasks in order, with keys, events and history', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const items = Array.from({ length: 100 }, (_, i) => ({
      teamId: ws.teamId,
      title: `Item ${i}`,
      estimate: i % 5,
    }))
    const before = await eventCount(ws.orgId)
    const res = await ws.api.post(`${base}/tasks/batch-create`, { items })
    expect(res.status).toBe(201)
    expect(res.body.data).toHaveLength(100)
    expect(res.body.data.map((t: any) => t.key)).toEqual(items.map((_, i) => `ENG-${i + 1}`))
    expect(res.body.data[7]).toMatchObject({ title: 'Item 7', estimate: 2, stateCategory: 'backlog' })
    expect(await eventCount(ws.orgId)).toBe(before + 100)
    const history = await ws.api.get(`${base}/tasks/${res.body.data[0].id}/history`)
    expect(history.body.data.at(-1).field).toBe('created')

    const tooMany = await ws.api.post(`${base}/tasks/batch-create`, {
      items: [...items, { teamId: ws.teamId, title: 'one more' }],
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.errors[0].pointer).toBe('/body/items')
  })

  it('a batch whose last item is invalid changes nothing: no tasks, no events, no history', async () => {
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const before = await eventCount(ws.orgId)
    const items = [
      { teamId: ws.teamId, title: 'Fine' },
      { teamId: ws.teamId, title: 'Also fine', priority: 'high' },
      { teamId: ws.teamId, title: 'Bad state', stateId: other.states.Todo!.id },
    ]
    const res = await ws.api.post(`${base}/tasks/batch-create`, { items })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({
      code: 'reference_not_found',
      errors: [{ pointer: '/body/items/2/stateId' }],
      failedItems: [{ index: 2, code: 'reference_not_found' }],
    })
    expect((await ws.api.get(`${base}/tasks?archived=include`)).body.data).toEqual([])
    expect(await eventCount(ws.orgId)).toBe(before)
    const history = await server.storage.db
      .selectFrom('taskHistory')
      .select('id')
      .where('orgId', '=', ws.orgId)
      .execute()
    expect(history).toEqual([])
    // Task numbers handed out inside the rolled-back batch are free again.
    const next = await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'After' })
    expect(next.body.key).toBe('ENG-1')
  })

  it('names every refused item, whatever schema or rule refused it', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const schema = await ws.api.post(`${base}/tasks/batch-create`, {
      items: [{ teamId: ws.teamId, title: 'ok' }, { teamId: ws.teamId }, { teamId: ws.teamId, title: '' }],
    })
    expect(schema.status).toBe(400)
    expect([...new Set(schema.body.errors.map((e: any) => e.pointer))].sort()).toEqual([
      '/body/items/1/title',
      '/body/items/2/title',
    ])

    const archived = await ws.api.post(`${base}/teams`, { name: 'Old', key: 'OLD' })
    await ws.api.post(`${base}/teams/${archived.body.id}/archive`)
    const member = (await ws.api.get(`${base}/members`)).body.data[0].id
    const rules = await ws.api.post(`${base}/tasks/batch-create`, {
      items: [
        { teamId: ws.teamId, title: 'ok', assigneeId: member },
        { teamId: archived.body.id, title: 'archived team' },
        { teamId: ws.teamId, title: 'bad assignee', assigneeId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE' },
      ],
    })
    expect(rules.status).toBe(409)
    expect(rules.body.code).toBe('archived')
    expect(rules.body.failedItems.map((f: any) => [f.index, f.code])).toEqual([
      [1, 'archived'],
      [2, 'reference_not_found'],
    ])
    expect(rules.body.errors.map((e: any) => e.pointer)).toEqual([
      '/body/items/1',
      '/body/items/2/assigneeId',
    ])
    expect((await ws.api.get(`${base}/tasks`)).body.data).toEqual([])
  })

  it('takes labelIds on batch items like tasks.create and tasks.update do', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const bug = (await ws.api.post(`${base}/labels`, { name: 'Bug' })).body.id
    const ui = (await ws.api.post(`${base}/labels`, { name: 'UI' })).body.id
    const created = await ws.api.post(`${base}/tasks/batch-create`, {
      items: [
        { teamId: ws.teamId, title: 'A', labelIds: [bug] },
        { teamId: ws.teamId, title: 'B' },
      ],
    })
    expect(created.body.data.map((t: any) => t.labelIds)).toEqual([[bug], []])
    const [a, b] = created.body.data
    const updated = await ws.api.post(`${base}/tasks/batch-update`, {
      items: [
        { id: a.id, labelIds: [ui] },
        { id: b.id, labelIds: [bug, ui] },
      ],
    })
    expect(updated.body.data.map((t: any) => t.labelIds)).toEqual([[ui], [bug, ui].sort()])
    const refused = await ws.api.post(`${base}/tasks/batch-update`, {
      items: [
        { id: a.id, labelIds: [] },
        { id: b.id, labelIds: [a.id] },
      ],
    })
    expect(refused.status).toBe(400)
    expect((await ws.api.get(`${base}/tasks/${a.id}`)).body.labelIds).toEqual([ui])
  })

  it('updates many tasks at once, all or nothing', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const created = (
      await ws.api.post(`${base}/tasks/batch-create`, {
        items: [1, 2, 3].map((n) => ({ teamId: ws.teamId, title: `T${n}` })),
      })
    ).body.data
    const done = ws.states.Done!.id
    const res = await ws.api.post(`${base}/tasks/batch-update`, {
      items: created.map((t: any, i: number) => ({ id: t.id, stateId: done, estimate: i })),
    })
    expect(res.status).toBe(200)
    expect(res.body.data.map((t: any) => [t.stateCategory, t.estimate])).toEqual([
      ['completed', 0],
      ['completed', 1],
      ['completed', 2],
    ])
    const before = await eventCount(ws.orgId)
    const refused = await ws.api.post(`${base}/tasks/batch-update`, {
      items: [
        { id: created[0].id, title: 'Renamed' },
        { id: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE', title: 'Ghost' },
      ],
    })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual([{ pointer: '/body/items/1/id', message: expect.any(String) }])
    expect((await ws.api.get(`${base}/tasks/${created[0].id}`)).body.title).toBe('T1')
    expect(await eventCount(ws.orgId)).toBe(before)

    const twice = await ws.api.post(`${base}/tasks/batch-update`, {
      items: [
        { id: created[0].id, title: 'a' },
        { id: created[0].id, title: 'b' },
      ],
    })
    expect(twice.status).toBe(422)
    expect(twice.body.errors[0].pointer).toBe('/body/items/1/id')
  })

  it('checks the capability of every item, not only the first', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const design = await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })
    const guest = await ws.addMember('guest')
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'contribute',
    })
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: design.body.id,
      capability: 'view',
    })
    const res = await guest.api.post(`${base}/tasks/batch-create`, {
      items: [
        { teamId: ws.teamId, title: 'mine' },
        { teamId: design.body.id, title: 'not mine' },
      ],
    })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ code: 'capability_required', errors: [{ pointer: '/body/items/1' }] })
    expect((await ws.api.get(`${base}/tasks`)).body.data).toEqual([])
  })
})
