import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('project statuses', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('gives every org the default set, one per category, in order', async () => {
    const ws = await newWorkspace(server)
    const res = await ws.api.get(`/v1/orgs/${ws.orgId}/project-statuses`)
    expect(res.status).toBe(200)
    expect(res.body.data.map((s: any) => [s.name, s.category, s.position])).toEqual([
      ['Backlog', 'backlog', 0],
      ['Planned', 'planned', 1],
      ['In Progress', 'started', 2],
      ['Paused', 'paused', 3],
      ['Completed', 'completed', 4],
      ['Canceled', 'canceled', 5],
    ])
    // Reading again creates nothing more.
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/project-statuses`)).body.data).toEqual(res.body.data)
  })

  it('creates, renames and moves statuses; names are unique ignoring case', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/project-statuses`
    const created = await ws.api.post(base, { name: 'In Review', category: 'started' })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`${base}/${created.body.id}`)
    expect(created.body).toMatchObject({
      category: 'started',
      position: 6,
      color: '#f2c94c',
      archivedAt: null,
    })
    const taken = await ws.api.post(base, { name: 'in review', category: 'paused' })
    expect(taken).toMatchObject({
      status: 409,
      body: { code: 'conflict', errors: [{ pointer: '/body/name' }] },
    })

    const item = `${base}/${created.body.id}`
    const renamed = await ws.api.patch(item, { name: 'Reviewing', color: '#112233' })
    expect(renamed.body).toMatchObject({ name: 'Reviewing', color: '#112233', category: 'started' })
    expect((await ws.api.get(item)).body).toEqual(renamed.body)

    const ids = (await ws.api.get(base)).body.data.map((s: any) => s.id)
    const moved = await ws.api.post(`${item}/move`, { afterId: ids[2] })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ id: created.body.id, position: 3 })
    const order = (await ws.api.get(base)).body.data
    expect(order.map((s: any) => s.id)).toEqual([...ids.slice(0, 3), created.body.id, ...ids.slice(3, 6)])
    expect(order.map((s: any) => s.position)).toEqual([0, 1, 2, 3, 4, 5, 6])

    const events = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
    expect(events).toEqual(
      expect.arrayContaining(['project_status.created', 'project_status.updated', 'project_status.moved']),
    )
  })

  it('archives a status only when its category keeps another and no project is in it', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/project-statuses`
    const defaults = (await ws.api.get(base)).body.data
    const paused = defaults.find((s: any) => s.category === 'paused')
    const last = await ws.api.post(`${base}/${paused.id}/archive`)
    expect(last).toMatchObject({ status: 409, body: { code: 'last_project_status' } })

    const onHold = await ws.api.post(base, { name: 'On hold', category: 'paused' })
    const project = await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, {
      name: 'Parked',
      teamIds: [ws.teamId],
      statusId: onHold.body.id,
    })
    const inUse = await ws.api.post(`${base}/${onHold.body.id}/archive`)
    expect(inUse).toMatchObject({ status: 409, body: { code: 'project_status_in_use', projectCount: 1 } })

    await ws.api.patch(`/v1/orgs/${ws.orgId}/projects/${project.body.id}`, { statusId: paused.id })
    const archived = await ws.api.post(`${base}/${onHold.body.id}/archive`)
    expect(archived.status).toBe(200)
    expect(archived.body.archivedAt).not.toBeNull()
    expect((await ws.api.get(base)).body.data.map((s: any) => s.id)).not.toContain(onHold.body.id)
    expect((await ws.api.get(`${base}?archived=only`)).body.data.map((s: any) => s.id)).toEqual([
      onHold.body.id,
    ])
    // A project cannot move into an archived status.
    const moved = await ws.api.patch(`/v1/orgs/${ws.orgId}/projects/${project.body.id}`, {
      statusId: onHold.body.id,
    })
    expect(moved).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    const restored = await ws.api.post(`${base}/${onHold.body.id}/restore`)
    expect(restored.body.archivedAt).toBeNull()
  })

  it('pages through statuses by position with exact pages', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/project-statuses`
    for (const name of ['A', 'B', 'C']) await ws.api.post(base, { name, category: 'planned' })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${base}?limit=4${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.body.data.length).toBeLessThanOrEqual(4)
      seen.push(...page.body.data.map((s: any) => s.name))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual([
      'Backlog',
      'Planned',
      'In Progress',
      'Paused',
      'Completed',
      'Canceled',
      'A',
      'B',
      'C',
    ])
  })

  it('lets members read statuses but only managers change them', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/project-statuses`
    const member = await ws.addMember('member')
    expect((await member.api.get(base)).body.data).toHaveLength(6)
    const denied = await member.api.post(base, { name: 'Mine', category: 'started' })
    expect(denied).toMatchObject({ status: 403, body: { code: 'capability_required', capability: 'manage' } })
    expect((await ws.api.get(base)).body.data).toHaveLength(6)
  })
})
