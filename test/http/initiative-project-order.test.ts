import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('initiatives.projects.move', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** An initiative linking projects A, B, C, D in that order. */
  async function world(ws: TestWorkspace) {
    const o = `/v1/orgs/${ws.orgId}`
    const initiative = (await ws.api.post(`${o}/initiatives`, { name: 'Grow' })).body
    const base = `${o}/initiatives/${initiative.id}/projects`
    const ids: Record<string, string> = {}
    for (const name of ['A', 'B', 'C', 'D']) {
      ids[name] = (await ws.api.post(`${o}/projects`, { name, teamIds: [ws.teamId] })).body.id
      expect((await ws.api.put(`${base}/${ids[name]}`)).status).toBe(200)
    }
    const names = async () => {
      const byId = Object.fromEntries(Object.entries(ids).map(([n, id]) => [id, n]))
      return (await ws.api.get(base)).body.data.map((l: any) => byId[l.projectId]).join('')
    }
    return { o, initiative, base, ids, names }
  }

  it('moves a project to a place in the order, with history and an event', async () => {
    const ws = await newWorkspace(server)
    const { o, initiative, base, ids, names } = await world(ws)
    expect(await names()).toBe('ABCD')
    const moved = await ws.api.post(`${base}/${ids.D}/move`, { beforeId: ids.B })
    expect(moved).toMatchObject({
      status: 200,
      body: { initiativeId: initiative.id, projectId: ids.D, position: 1 },
    })
    expect(await names()).toBe('ADBC')
    expect((await ws.api.post(`${base}/${ids.A}/move`, { afterId: ids.C })).status).toBe(200)
    expect(await names()).toBe('DBCA')
    // Already just before B: nothing changes, nothing is recorded.
    expect((await ws.api.post(`${base}/${ids.D}/move`, { beforeId: ids.B })).status).toBe(200)
    expect(await names()).toBe('DBCA')
    // The page order survives paging.
    const first = await ws.api.get(`${base}?limit=2`)
    const second = await ws.api.get(`${base}?limit=2&cursor=${first.body.nextCursor}`)
    expect([...first.body.data, ...second.body.data].map((l: any) => l.projectId)).toEqual([
      ids.D,
      ids.B,
      ids.C,
      ids.A,
    ])

    const events = (await ws.api.get(`${o}/stream?limit=200`)).body.data.filter(
      (e: any) => e.kind === 'initiative.project_updated',
    )
    expect(events.map((e: any) => e.data)).toEqual([
      { initiativeId: initiative.id, projectId: ids.D, index: { before: 3, after: 1 } },
      { initiativeId: initiative.id, projectId: ids.A, index: { before: 0, after: 3 } },
    ])
    const history = (await ws.api.get(`${o}/initiatives/${initiative.id}/history`)).body.data
    expect(history.filter((h: any) => h.action === 'project_updated')).toHaveLength(2)
  })

  it('refuses a project that is not linked, bad anchors and bodies, and archived initiatives', async () => {
    const ws = await newWorkspace(server)
    const { o, initiative, base, ids, names } = await world(ws)
    const loose = (await ws.api.post(`${o}/projects`, { name: 'E', teamIds: [ws.teamId] })).body
    expect((await ws.api.post(`${base}/${loose.id}/move`, { beforeId: ids.A })).status).toBe(404)
    expect(await ws.api.post(`${base}/${ids.B}/move`, { beforeId: loose.id })).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/beforeId' }] },
    })
    for (const body of [
      { position: 0 },
      {},
      { beforeId: ids.A, afterId: ids.C },
      { beforeId: ids.A, weight: 1 },
    ]) {
      expect(await ws.api.post(`${base}/${ids.B}/move`, body)).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      })
    }
    await ws.api.post(`${o}/initiatives/${initiative.id}/archive`)
    expect(await ws.api.post(`${base}/${ids.B}/move`, { beforeId: ids.A })).toMatchObject({
      status: 409,
      body: { code: 'archived' },
    })
    expect(await names()).toBe('ABCD')
  })

  it('a viewer gets 403 and another org 404, and the order stays', async () => {
    const ws = await newWorkspace(server)
    const { o, base, ids, names } = await world(ws)
    const viewer = await teamGuest(ws, 'view')
    expect((await viewer.api.get(base)).body.data).toHaveLength(4)
    expect(await viewer.api.post(`${base}/${ids.D}/move`, { beforeId: ids.A })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    const other = await newWorkspace(server)
    expect((await other.api.post(`${base}/${ids.D}/move`, { beforeId: ids.A })).status).toBe(404)
    const foreign = base.replace(o, `/v1/orgs/${other.orgId}`)
    expect((await other.api.post(`${foreign}/${ids.D}/move`, { beforeId: ids.A })).status).toBe(404)
    expect(await names()).toBe('ABCD')
  })
})
