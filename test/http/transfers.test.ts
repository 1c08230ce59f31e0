import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

type Api = TestWorkspace['api']

async function walk(api: Api, path: string, limit: number): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null = null
  do {
    const res: any = await api.get(`${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    items.push(...res.body.data)
    cursor = res.body.nextCursor
  } while (cursor)
  return items
}

/** Downloads an export as raw text, with its headers. */
async function download(server: TestServer, token: string, path: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** A workspace with custom states, org and team labels, and tasks (assigned, labelled, archived, a subtask). */
async function seed(ws: TestWorkspace) {
  const base = `/v1/orgs/${ws.orgId}`
  await ws.api.post(`${base}/teams/${ws.teamId}/states`, { name: 'Review', category: 'started' })
  const bug = (await ws.api.post(`${base}/labels`, { name: 'Bug', teamId: ws.teamId })).body
  const ux = (await ws.api.post(`${base}/labels`, { name: 'UX' })).body
  const me = (await ws.api.get(`${base}/members`)).body.data[0]
  const a = await ws.api.post(`${base}/tasks`, {
    teamId: ws.teamId,
    title: 'Fix login',
    priority: 'high',
    estimate: 3,
    dueDate: '2031-02-01',
    labelIds: [bug.id, ux.id],
    assigneeId: me.id,
  })
  expect(a.status, JSON.stringify(a.body)).toBe(201)
  const review = (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data.find(
    (s: any) => s.name === 'Review',
  )
  await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'In review', stateId: review.id })
  await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Child', parentId: a.body.id })
  const old = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Old' })).body
  await ws.api.post(`${base}/tasks/${old.id}/archive`, {})
}

/** What a round trip must keep: tasks by title with state, labels, fields; states and labels by name. */
async function snapshot(api: Api, orgId: string) {
  const base = `/v1/orgs/${orgId}`
  const teams = (await api.get(`${base}/teams`)).body.data
  const states = new Map<string, string>()
  const out: any = { teams: [], states: [], labels: [], tasks: [] }
  for (const t of teams) {
    out.teams.push(t.key)
    for (const s of (await api.get(`${base}/teams/${t.id}/states`)).body.data) {
      states.set(s.id, s.name)
      out.states.push(`${t.key}/${s.name}/${s.category}`)
    }
  }
  const labels = await walk(api, `${base}/labels`, 200)
  const labelName = new Map(labels.map((l: any) => [l.id, l.name]))
  out.labels = labels.map((l: any) => `${l.teamId ? 'team' : 'org'}:${l.name}`).sort()
  const tasks = (await api.get(`${base}/tasks?archived=include&limit=200`)).body.data
  const titleOf = new Map(tasks.map((t: any) => [t.id, t.title]))
  out.tasks = tasks
    .map((t: any) => ({
      title: t.title,
      state: states.get(t.stateId),
      labels: t.labelIds.map((id: string) => labelName.get(id)).sort(),
      priority: t.priority,
      estimate: t.estimate,
      dueDate: t.dueDate,
      archived: t.archivedAt !== null,
      parent: t.parentId ? titleOf.get(t.parentId) : null,
      assigned: t.assigneeId !== null,
    }))
    .sort((x: any, y: any) => x.title.localeCompare(y.title))
  out.states.sort()
  return out
}

describeEachDatabase('exports and imports', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const runAll = () => server.engine.transfer({ onError: (e) => console.error(e) })

  it('round trip: an export imported into a fresh workspace gives the same tasks, labels and states', async () => {
    const ws = await newWorkspace(server)
    await seed(ws)
    const created = await ws.api.post(`/v1/orgs/${ws.orgId}/exports`, {})
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'queued', counts: {}, bytes: 0 })
    expect(created.headers.get('location')).toBe(`/v1/orgs/${ws.orgId}/exports/${created.body.id}`)
    const early = await ws.api.get(`/v1/orgs/${ws.orgId}/exports/${created.body.id}/content`)
    expect(early).toMatchObject({ status: 409, body: { code: 'conflict' } })

    await runAll()
    const done = (await ws.api.get(`/v1/orgs/${ws.orgId}/exports/${created.body.id}`)).body
    expect(done).toMatchObject({
      status: 'completed',
      counts: { workspace: 1, member: 1, team: 1, label: 2, task: 4 },
    })
    const file = await download(server, ws.owner.token, `/v1/orgs/${ws.orgId}/exports/${done.id}/content`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toContain('application/x-ndjson')
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="workgraph-${done.id}.ndjson"`)
    expect(Buffer.byteLength(file.text)).toBe(done.bytes)
    const lines = file.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    const order = ['workspace', 'member', 'team', 'workflow_state', 'label', 'task']
    const ranks = lines.map((l) => order.indexOf(l.type))
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y))

    // A fresh workspace of the same owner (so the assignee's email matches), with no teams at all.
    const fresh = (await ws.api.post('/v1/orgs', { name: 'Copy' })).body
    const imp = await ws.api.post(`/v1/orgs/${fresh.id}/imports`, { format: 'ndjson', content: file.text })
    expect(imp.status, JSON.stringify(imp.body)).toBe(201)
    expect(imp.body).toMatchObject({ status: 'queued', totalRows: lines.length, teamId: null })
    await runAll()
    const finished = (await ws.api.get(`/v1/orgs/${fresh.id}/imports/${imp.body.id}`)).body
    expect(finished).toMatchObject({ status: 'completed', processedRows: lines.length, errorCount: 0 })
    expect(await snapshot(ws.api, fresh.id)).toEqual(await snapshot(ws.api, ws.orgId))

    // The same file again creates nothing.
    const again = await ws.api.post(`/v1/orgs/${fresh.id}/imports`, { format: 'ndjson', content: file.text })
    await runAll()
    expect((await ws.api.get(`/v1/orgs/${fresh.id}/imports/${again.body.id}`)).body).toMatchObject({
      status: 'completed',
      createdCount: 0,
      skippedCount: lines.length,
    })
    expect((await snapshot(ws.api, fresh.id)).tasks).toHaveLength(4)

    const audit = await ws.api.get(`/v1/orgs/${ws.orgId}/audit-log?category=transfers`)
    expect(audit.body.data.map((e: any) => e.kind)).toEqual(['export.completed', 'export.created'])
    expect(audit.body.data[0].actorId).toBeNull()
  })

  it('CSV: bad rows become row errors, the rest are imported, names map to ids', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const me = (await ws.api.get(`${base}/members`)).body.data[0]
    const content = [
      'Title,Description,State,Assignee email,Priority,Labels,Due date,Estimate',
      `Fix login,"Line one\nline two",In Progress,${me.email},High,"bug, auth",2031-02-01,3`,
      'No state,,Nowhere,,,,,',
      'Write docs,,todo,,low,docs,,',
      ',,,,,,,',
      'Bad priority,,,,extreme,,,',
      'Bad date,,,,,,31/02/2031,',
      'Bad estimate,,,,,,,lots',
      'Unknown person,,,nobody@example.com,,,,',
    ].join('\n')
    const imp = await ws.api.post(`${base}/imports`, { format: 'csv', teamId: ws.teamId, content })
    expect(imp.status, JSON.stringify(imp.body)).toBe(201)
    expect(imp.body.totalRows).toBe(8)
    await runAll()
    const done = (await ws.api.get(`${base}/imports/${imp.body.id}`)).body
    expect(done).toMatchObject({ status: 'completed', processedRows: 8, createdCount: 2, errorCount: 6 })
    const errors = await walk(ws.api, `${base}/imports/${imp.body.id}/errors`, 2)
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [2, 'state'],
      [4, 'title'],
      [5, 'priority'],
      [6, 'dueDate'],
      [7, 'estimate'],
      [8, 'assignee'],
    ])
    const tasks = (await ws.api.get(`${base}/tasks`)).body.data
    const login = tasks.find((t: any) => t.title === 'Fix login')
    expect(login).toMatchObject({
      description: 'Line one\nline two',
      stateId: ws.states['In Progress']!.id,
      assigneeId: me.id,
      priority: 'high',
      dueDate: '2031-02-01',
      estimate: 3,
    })
    const labels = (await ws.api.get(`${base}/labels`)).body.data
    expect(labels.map((l: any) => l.name).sort()).toEqual(['auth', 'bug', 'docs'])
    expect(tasks.find((t: any) => t.title === 'Write docs').stateId).toBe(ws.states.Todo!.id)

    // An unreadable CSV, or one without a title column, is refused before anything is queued.
    const unreadable = await ws.api.post(`${base}/imports`, {
      format: 'csv',
      teamId: ws.teamId,
      content: 'title\n"open',
    })
    expect(unreadable).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const untitled = await ws.api.post(`${base}/imports`, {
      format: 'csv',
      teamId: ws.teamId,
      content: 'name\nx',
    })
    expect(untitled).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const teamless = await ws.api.post(`${base}/imports`, { format: 'csv', content: 'title\nx' })
    expect(teamless).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/teamId' }] } })
  })

  it('resumes from its checkpoint: a job interrupted between steps loses and doubles nothing', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const rows = Array.from({ length: 5 }, (_, i) => `Task ${i + 1}`)
    const imp = (
      await ws.api.post(`${base}/imports`, {
        format: 'csv',
        teamId: ws.teamId,
        content: `title\n${rows.join('\n')}`,
      })
    ).body
    expect((await server.engine.transfer({ maxSteps: 1, importBatch: 2 })).steps).toBe(1)
    expect((await ws.api.get(`${base}/imports/${imp.id}`)).body).toMatchObject({
      status: 'running',
      processedRows: 2,
      createdCount: 2,
    })
    // A new engine run (as after a restart) carries on from row 3.
    await server.engine.transfer({ importBatch: 2 })
    expect((await ws.api.get(`${base}/imports/${imp.id}`)).body).toMatchObject({
      status: 'completed',
      processedRows: 5,
      createdCount: 5,
    })
    const titles = (await ws.api.get(`${base}/tasks`)).body.data.map((t: any) => t.title).sort()
    expect(titles).toEqual(rows)

    // The same CSV imported again finds every row already imported.
    const again = (
      await ws.api.post(`${base}/imports`, {
        format: 'csv',
        teamId: ws.teamId,
        content: `title\n${rows.join('\n')}`,
      })
    ).body
    await runAll()
    expect((await ws.api.get(`${base}/imports/${again.id}`)).body).toMatchObject({
      createdCount: 0,
      skippedCount: 5,
    })
    expect((await ws.api.get(`${base}/tasks`)).body.data).toHaveLength(5)

    // An export, step by step: chunks of two records, same file as one written in one go.
    const stepwise = (await ws.api.post(`${base}/exports`, {})).body
    await server.engine.transfer({ maxSteps: 3, exportBatch: 2 })
    const partial = (await ws.api.get(`${base}/exports/${stepwise.id}`)).body
    expect(partial.status).toBe('running')
    expect(partial.bytes).toBeGreaterThan(0)
    await server.engine.transfer({ exportBatch: 2 })
    const whole = (await ws.api.post(`${base}/exports`, {})).body
    await runAll()
    const a = await download(server, ws.owner.token, `${base}/exports/${stepwise.id}/content`)
    const b = await download(server, ws.owner.token, `${base}/exports/${whole.id}/content`)
    const strip = (text: string) => text.split('\n').filter((l) => !l.includes('"type":"workspace"'))
    expect(strip(a.text)).toEqual(strip(b.text))
    expect((await ws.api.get(`${base}/exports/${stepwise.id}`)).body.counts).toMatchObject({ task: 5 })
  })

  it('only owners and admins; another workspace sees nothing; lists page newest first', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const member = await ws.addMember('member')
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await ws.api.post(`${base}/exports`, {})).body.id)
    const imp = (
      await ws.api.post(`${base}/imports`, {
        format: 'ndjson',
        content: '{"type":"nope","id":"x"}\nnot json\n',
      })
    ).body
    await runAll()
    expect((await walk(ws.api, `${base}/exports`, 1)).map((e) => e.id)).toEqual([...ids].reverse())
    expect((await walk(ws.api, `${base}/imports`, 1)).map((e) => e.id)).toEqual([imp.id])
    expect(await walk(ws.api, `${base}/imports/${imp.id}/errors`, 1)).toEqual([
      { row: 1, line: 1, field: 'type', message: 'Unknown record type `nope`.', refused: true },
      { row: 2, line: 2, field: null, message: 'The line is not JSON.', refused: true },
    ])

    for (const [method, path] of [
      ['post', `${base}/exports`],
      ['get', `${base}/exports`],
      ['get', `${base}/exports/${ids[0]}`],
      ['get', `${base}/exports/${ids[0]}/content`],
      ['get', `${base}/imports`],
      ['get', `${base}/imports/${imp.id}`],
      ['get', `${base}/imports/${imp.id}/errors`],
    ] as const) {
      const res = method === 'post' ? await member.api.post(path, {}) : await member.api.get(path)
      expect(res, path).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'manage' },
      })
    }
    const refused = await member.api.post(`${base}/imports`, {
      format: 'csv',
      teamId: ws.teamId,
      content: 'title\nx',
    })
    expect(refused.status).toBe(403)

    const other = await newWorkspace(server)
    expect((await other.api.get(`${base}/exports/${ids[0]}`)).status).toBe(404)
    const elsewhere = await other.api.get(`/v1/orgs/${other.orgId}/exports/${ids[0]}`)
    expect(elsewhere).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect((await other.api.get(`/v1/orgs/${other.orgId}/imports/${imp.id}/errors`)).status).toBe(404)
  })
})
