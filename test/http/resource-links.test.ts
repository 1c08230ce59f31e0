import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('URL resources of projects, programs and initiatives', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A project of the workspace's team, a program and an initiative that holds the project. */
  async function containers(ws: TestWorkspace) {
    const o = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${o}/projects`, { name: 'Billing', teamIds: [ws.teamId] })).body
    const program = (await ws.api.post(`${o}/programs`, { name: 'Reliability' })).body
    const initiative = (await ws.api.post(`${o}/initiatives`, { name: 'Grow' })).body
    expect((await ws.api.put(`${o}/initiatives/${initiative.id}/projects/${project.id}`)).status).toBe(200)
    return {
      o,
      paths: {
        project: `${o}/projects/${project.id}`,
        program: `${o}/programs/${program.id}`,
        initiative: `${o}/initiatives/${initiative.id}`,
      },
      ids: { project: project.id, program: program.id, initiative: initiative.id },
    }
  }

  it('adds, reads, edits, reorders and removes links on each kind of container', async () => {
    const ws = await newWorkspace(server)
    const { o, paths, ids } = await containers(ws)
    for (const type of ['project', 'program', 'initiative'] as const) {
      const base = `${paths[type]}/links`
      const spec = await ws.api.post(base, { url: 'https://docs.example.com/spec', title: 'Spec' })
      expect(spec).toMatchObject({
        status: 201,
        body: {
          parentType: type,
          parentId: ids[type],
          url: 'https://docs.example.com/spec',
          title: 'Spec',
          position: 0,
        },
      })
      expect(spec.headers.get('location')).toBe(`${o}/links/${spec.body.id}`)
      const board = await ws.api.post(base, { url: 'http://grafana.example.com/d/1' })
      expect(board.body).toMatchObject({ title: null, position: 1 })
      expect((await ws.api.get(`${o}/links/${spec.body.id}`)).body).toEqual(spec.body)

      const retitled = await ws.api.patch(`${o}/links/${board.body.id}`, { title: 'Dashboard' })
      expect(retitled).toMatchObject({ status: 200, body: { position: 1, title: 'Dashboard' } })
      expect(await ws.api.patch(`${o}/links/${board.body.id}`, { position: -1 })).toMatchObject({
        status: 400,
      })
      const moved = await ws.api.post(`${o}/links/${board.body.id}/move`, { beforeId: spec.body.id })
      expect(moved).toMatchObject({ status: 200, body: { position: 0, title: 'Dashboard' } })
      expect((await ws.api.get(base)).body.data.map((l: any) => l.id)).toEqual([board.body.id, spec.body.id])

      expect((await ws.api.delete(`${o}/links/${spec.body.id}`)).status).toBe(204)
      expect((await ws.api.get(`${o}/links/${spec.body.id}`)).status).toBe(404)
      expect((await ws.api.get(base)).body.data.map((l: any) => l.id)).toEqual([board.body.id])
    }
    const events = (await ws.api.get(`${o}/stream?limit=200`)).body.data.filter((e: any) =>
      e.kind.startsWith('link.'),
    )
    expect(events.map((e: any) => e.kind)).toEqual([
      ...['link.created', 'link.created', 'link.updated', 'link.moved', 'link.deleted'],
      ...['link.created', 'link.created', 'link.updated', 'link.moved', 'link.deleted'],
      ...['link.created', 'link.created', 'link.updated', 'link.moved', 'link.deleted'],
    ])
    expect(events[2].data).toMatchObject({
      parentType: 'project',
      changes: { title: { before: null, after: 'Dashboard' } },
    })
    expect(events[3].data).toMatchObject({
      parentType: 'project',
      order: [events[1].resourceId, events[0].resourceId],
    })
  })

  it('pages a container’s links in position order', async () => {
    const ws = await newWorkspace(server)
    const { o, paths } = await containers(ws)
    const base = `${paths.program}/links`
    const created: string[] = []
    for (let i = 0; i < 5; i++) {
      const id = (await ws.api.post(base, { url: `https://example.com/${i}` })).body.id
      // Each new link moved first: the list ends up in reverse order of creation.
      if (created.length) await ws.api.post(`${o}/links/${id}/move`, { beforeId: created.at(-1) })
      created.push(id)
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${base}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((l: any) => l.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual([...created].reverse())
  })

  it('refuses a URL that is not http or https, an empty edit and unknown fields, writing nothing', async () => {
    const ws = await newWorkspace(server)
    const { o, paths } = await containers(ws)
    const base = `${paths.project}/links`
    for (const body of [
      { url: 'javascript:alert(1)' },
      { url: 'ftp://example.com/file' },
      { url: 'not a url' },
      { title: 'No URL' },
      { url: 'https://example.com', colour: 'red' },
    ]) {
      expect(await ws.api.post(base, body)).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      })
    }
    expect((await ws.api.get(base)).body.data).toEqual([])
    const link = (await ws.api.post(base, { url: 'https://example.com' })).body
    expect(await ws.api.patch(`${o}/links/${link.id}`, {})).toMatchObject({ status: 400 })
    expect(await ws.api.patch(`${o}/links/${link.id}`, { url: 'mailto:a@example.com' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', errors: [{ pointer: '/body/url' }] },
    })
    expect((await ws.api.get(`${o}/links/${link.id}`)).body.url).toBe('https://example.com')
    expect((await ws.api.get(`${o}/links/tlnk_01JD3Q2R4S5T6V7W8X9YZABCDE`)).status).toBe(400)
  })

  it('a viewer reads but gets 403 on writes; who cannot view the container gets 404', async () => {
    const ws = await newWorkspace(server)
    const { o, paths } = await containers(ws)
    const links: Record<string, string> = {}
    for (const type of ['project', 'program', 'initiative'] as const) {
      links[type] = (
        await ws.api.post(`${paths[type]}/links`, { url: `https://example.com/${type}` })
      ).body.id
    }
    // Views the team, hence its project, the initiative holding it and the program working in it.
    expect((await ws.api.put(`${paths.program}/teams/${ws.teamId}`)).status).toBe(200)
    const viewer = await teamGuest(ws, 'view')
    for (const type of ['project', 'program', 'initiative'] as const) {
      expect((await viewer.api.get(`${paths[type]}/links`)).body.data).toHaveLength(1)
      expect((await viewer.api.get(`${o}/links/${links[type]}`)).status).toBe(200)
      expect(await viewer.api.post(`${paths[type]}/links`, { url: 'https://example.com/x' })).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'contribute' },
      })
      expect((await viewer.api.patch(`${o}/links/${links[type]}`, { title: 'x' })).status).toBe(403)
      expect((await viewer.api.delete(`${o}/links/${links[type]}`)).status).toBe(403)
    }
    const contributor = await teamGuest(ws, 'contribute')
    expect((await contributor.api.patch(`${o}/links/${links.project}`, { title: 'Ok' })).status).toBe(200)

    // A guest without grants sees no project, program or initiative, nor their links.
    const stranger = await ws.addMember('guest')
    for (const type of ['project', 'program', 'initiative'] as const) {
      expect((await stranger.api.get(`${paths[type]}/links`)).status).toBe(404)
      expect((await stranger.api.get(`${o}/links/${links[type]}`)).status).toBe(404)
    }
    expect((await stranger.api.patch(`${o}/links/${links.project}`, { title: 'x' })).status).toBe(404)
    expect((await stranger.api.delete(`${o}/links/${links.project}`)).status).toBe(404)
    // An initiative is an org-level record (held by the org alone): a write is refused as on the
    // initiative itself, with 403, and changes nothing.
    expect((await stranger.api.patch(paths.initiative, { name: 'x' })).status).toBe(403)
    expect((await stranger.api.patch(`${o}/links/${links.initiative}`, { title: 'x' })).status).toBe(403)
    expect((await ws.api.get(`${o}/links/${links.initiative}`)).body.title).toBeNull()
    // Another org's member, through their own org or this one.
    const other = await newWorkspace(server)
    for (const type of ['project', 'program', 'initiative'] as const) {
      expect((await other.api.get(`${o}/links/${links[type]}`)).status).toBe(404)
      expect((await other.api.get(`/v1/orgs/${other.orgId}/links/${links[type]}`)).status).toBe(404)
      expect((await other.api.delete(`/v1/orgs/${other.orgId}/links/${links[type]}`)).status).toBe(404)
    }
    expect((await ws.api.get(`${paths.project}/links`)).body.data[0].title).toBe('Ok')
  })

  it('deleting a container deletes its links', async () => {
    const ws = await newWorkspace(server)
    const { o, paths } = await containers(ws)
    const ids: string[] = []
    for (const type of ['project', 'program', 'initiative'] as const) {
      ids.push((await ws.api.post(`${paths[type]}/links`, { url: 'https://example.com' })).body.id)
      expect((await ws.api.delete(paths[type])).status).toBe(204)
    }
    for (const id of ids) expect((await ws.api.get(`${o}/links/${id}`)).status).toBe(404)
    for (const id of ids) {
      const row = await server.storage.transaction((s) => s.links.get(ws.orgId, id as never))
      expect(row).toBeNull()
    }
  })
})
