import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('views', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const views = (ws: TestWorkspace) => `/v1/orgs/${ws.orgId}/views`
  const names = async (api: TestWorkspace['api'], ws: TestWorkspace) =>
    (await api.get(views(ws))).body.data.map((v: any) => v.name)

  it('saves a personal task view, reads it back, and only its owner sees it', async () => {
    const ws = await newWorkspace(server)
    const created = await ws.api.post(views(ws), {
      name: 'Urgent',
      description: 'Fires',
      filter: { priority: 'urgent', blocked: false, sort: 'dueDate' },
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`${views(ws)}/${created.body.id}`)
    expect(created.body).toMatchObject({
      name: 'Urgent',
      model: 'tasks',
      visibility: 'personal',
      teamId: null,
      filter: { priority: 'urgent', blocked: false, sort: 'dueDate' },
    })
    expect((await ws.api.get(`${views(ws)}/${created.body.id}`)).body).toEqual(created.body)
    const colleague = await ws.addMember('admin')
    expect(await names(colleague.api, ws)).toEqual([])
    expect((await colleague.api.get(`${views(ws)}/${created.body.id}`)).status).toBe(404)
    expect((await colleague.api.delete(`${views(ws)}/${created.body.id}`)).status).toBe(404)
    // A personal view is the owner's own: it is in no workspace log.
    const log = await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)
    expect(log.body.data.map((e: any) => e.kind)).not.toContain('view.created')
  })

  it('refuses a filter tasks.list does not accept, pointing into it, and saves nothing', async () => {
    const ws = await newWorkspace(server)
    for (const [filter, pointer, code] of [
      [{ colour: 'red' }, '/body/filter/colour', 'validation_failed'],
      [{ priority: 'whenever' }, '/body/filter/priority', 'validation_failed'],
      [{ cursor: 'abc' }, '/body/filter/cursor', 'validation_failed'],
      [{ teamId: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE' }, '/body/filter/teamId', 'invalid_identifier'],
      [{ blocked: 'yes' }, '/body/filter/blocked', 'validation_failed'],
    ] as const) {
      const res = await ws.api.post(views(ws), { name: 'Bad', filter })
      expect(res.status, JSON.stringify(filter)).toBe(400)
      expect(res.body.code).toBe(code)
      expect(res.body.errors.map((e: any) => e.pointer)).toContain(pointer)
    }
    const projectFilter = await ws.api.post(views(ws), {
      name: 'P',
      model: 'projects',
      filter: { priority: 'high' },
    })
    expect(projectFilter.status).toBe(400)
    expect(await names(ws.api, ws)).toEqual([])
  })

  it('shares a view with a team: visible to who can view the team, written by contributors, in the team log', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const viewer = await teamGuest(ws, 'view')
    const contributor = await teamGuest(ws, 'contribute')
    const denied = await viewer.api.post(views(ws), { name: 'Team', filter: {}, teamId: ws.teamId })
    expect(denied).toMatchObject({ status: 403, body: { code: 'capability_required' } })
    const hiddenTeam = await contributor.api.post(views(ws), { name: 'Design', filter: {}, teamId: design })
    expect(hiddenTeam).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/teamId' }] },
    })
    const shared = await contributor.api.post(views(ws), { name: 'Team', filter: {}, teamId: ws.teamId })
    expect(shared.body).toMatchObject({ visibility: 'team', teamId: ws.teamId })
    await ws.api.post(views(ws), { name: 'Design work', filter: {}, teamId: design })
    expect(await names(viewer.api, ws)).toEqual(['Team'])
    expect(await names(ws.api, ws)).toEqual(['Team', 'Design work'])

    // The viewer may not change it; the owner and a team manager may.
    const refused = await viewer.api.patch(`${views(ws)}/${shared.body.id}`, { name: 'Mine' })
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'manage' },
    })
    expect((await contributor.api.patch(`${views(ws)}/${shared.body.id}`, { name: 'Ours' })).body.name).toBe(
      'Ours',
    )
    expect((await ws.api.patch(`${views(ws)}/${shared.body.id}`, { description: 'Team work' })).status).toBe(
      200,
    )

    const stream = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data
    const kinds = stream.filter((e: any) => e.resourceType === 'view').map((e: any) => e.kind)
    expect(kinds).toEqual(['view.created', 'view.created', 'view.updated', 'view.updated'])

    // Made personal: the team sees it no more and learns only its id.
    await contributor.api.patch(`${views(ws)}/${shared.body.id}`, { teamId: null })
    expect(await names(viewer.api, ws)).toEqual([])
    expect(await names(contributor.api, ws)).toEqual(['Ours'])
    const last = (await viewer.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.at(-1)
    expect(last).toMatchObject({ kind: 'view.unshared', data: { id: shared.body.id } })
    expect(JSON.stringify(last.data)).not.toContain('Ours')
  })

  it('runs the filter through tasks.list as the caller, with keyset pages', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    for (let i = 0; i < 5; i++)
      await ws.api.post(tasks, { teamId: ws.teamId, title: `Hot ${i}`, priority: 'urgent' })
    await ws.api.post(tasks, { teamId: ws.teamId, title: 'Cold', priority: 'low' })
    await ws.api.post(tasks, { teamId: design, title: 'Hot design', priority: 'urgent' })
    const view = await ws.api.post(views(ws), {
      name: 'Urgent',
      filter: { priority: 'urgent', sort: 'createdAt' },
      teamId: ws.teamId,
    })
    const titles: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res: any = await ws.api.get(
        `${views(ws)}/${view.body.id}/results?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(res.status).toBe(200)
      expect(res.body.model).toBe('tasks')
      titles.push(...res.body.data.map((t: any) => t.title))
      cursor = res.body.nextCursor
      pages++
    } while (cursor)
    expect(titles).toEqual(['Hot 0', 'Hot 1', 'Hot 2', 'Hot 3', 'Hot 4', 'Hot design'])
    expect(pages).toBe(3)
    // The same filter, the same answer as tasks.list.
    const direct = await ws.api.get(`${tasks}?priority=urgent&sort=createdAt`)
    expect(direct.body.data.map((t: any) => t.title)).toEqual(titles)

    // A team guest sees only the tasks of the team they can view.
    const guest = await teamGuest(ws, 'view')
    const theirs = await guest.api.get(`${views(ws)}/${view.body.id}/results`)
    expect(theirs.body.data.map((t: any) => t.title)).toEqual(['Hot 0', 'Hot 1', 'Hot 2', 'Hot 3', 'Hot 4'])
    const other = await ws.api.post(views(ws), { name: 'Low', filter: { priority: 'low' } })
    const foreign = await ws.api.get(
      `${views(ws)}/${other.body.id}/results?cursor=${theirs.body.nextCursor ?? 'x.y'}`,
    )
    expect(foreign).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } })
  })

  it('saves and runs a view over projects', async () => {
    const ws = await newWorkspace(server)
    const projects = `/v1/orgs/${ws.orgId}/projects`
    const kept = await ws.api.post(projects, { name: 'Launch', teamIds: [ws.teamId] })
    const archived = await ws.api.post(projects, { name: 'Old', teamIds: [ws.teamId] })
    expect((await ws.api.post(`${projects}/${archived.body.id}/archive`)).status).toBe(200)
    const view = await ws.api.post(views(ws), {
      name: 'Archived',
      model: 'projects',
      filter: { archived: 'only' },
    })
    expect(view.status).toBe(201)
    const res = await ws.api.get(`${views(ws)}/${view.body.id}/results`)
    expect(res.body).toMatchObject({ model: 'projects', nextCursor: null })
    expect(res.body.data.map((p: any) => p.id)).toEqual([archived.body.id])
    expect(kept.status).toBe(201)
  })

  it('lists views in pages, deletes with If-Match, and hides everything from non-members', async () => {
    const ws = await newWorkspace(server)
    for (const name of ['A', 'B', 'C']) await ws.api.post(views(ws), { name, filter: {} })
    const first = await ws.api.get(`${views(ws)}?limit=2`)
    expect(first.body.data.map((v: any) => v.name)).toEqual(['A', 'B'])
    const second = await ws.api.get(`${views(ws)}?limit=2&cursor=${first.body.nextCursor}`)
    expect(second.body).toMatchObject({ data: [{ name: 'C' }], nextCursor: null })

    const target = first.body.data[0]
    const read = await ws.api.get(`${views(ws)}/${target.id}`)
    await ws.api.patch(`${views(ws)}/${target.id}`, { name: 'A2' })
    const stale = await ws.api.delete(`${views(ws)}/${target.id}`, { 'if-match': read.headers.get('etag')! })
    expect(stale).toMatchObject({ status: 412, body: { code: 'precondition_failed' } })
    expect((await ws.api.delete(`${views(ws)}/${target.id}`)).status).toBe(204)
    expect((await ws.api.get(`${views(ws)}/${target.id}`)).status).toBe(404)

    const stranger = await newWorkspace(server)
    expect((await stranger.api.get(views(ws))).status).toBe(404)
    expect((await stranger.api.get(`${views(stranger)}/${second.body.data[0].id}`)).status).toBe(404)
    expect((await ws.api.get(`${views(ws)}/${stranger.teamId}`)).body.code).toBe('invalid_identifier')
  })
})
