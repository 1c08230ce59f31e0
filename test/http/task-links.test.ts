import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newTask, readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('task links', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('adds, lists page by page, retitles and deletes links', async () => {
    const ws = await newWorkspace(server)
    const t = await newTask(ws, 'Linked')
    const links = `/v1/orgs/${ws.orgId}/tasks/${t.id}/links`
    const item = (id: string) => `/v1/orgs/${ws.orgId}/links/${id}`
    const made = []
    for (let i = 0; i < 3; i++) {
      const res = await ws.api.post(links, { url: `https://example.com/${i}`, title: `Doc ${i}` })
      expect(res.status).toBe(201)
      expect(res.headers.get('location')).toBe(item(res.body.id))
      made.push(res.body)
    }
    expect((await readAll(ws, links, 2)).map((l) => l.title)).toEqual(['Doc 0', 'Doc 1', 'Doc 2'])
    const retitled = await ws.api.patch(item(made[0].id), { title: 'Spec' })
    expect(retitled.body).toMatchObject({ title: 'Spec', url: 'https://example.com/0' })
    expect((await ws.api.get(item(made[0].id))).body.title).toBe('Spec')
    expect((await ws.api.delete(item(made[1].id))).status).toBe(204)
    expect((await ws.api.get(item(made[1].id))).status).toBe(404)
    const history = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${t.id}/history`)).body.data
    expect(history.filter((e: any) => e.field === 'links').length).toBe(5)
  })

  it('refuses a URL that is not http(s)', async () => {
    const ws = await newWorkspace(server)
    const t = await newTask(ws, 'Linked')
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks/${t.id}/links`, { url: 'javascript:alert(1)' })
    expect(res.status).toBe(400)
  })

  it("deletes one's own link with contribute; someone else's needs manage", async () => {
    const ws = await newWorkspace(server)
    const t = await newTask(ws, 'Linked')
    const links = `/v1/orgs/${ws.orgId}/tasks/${t.id}/links`
    const contributor = await teamGuest(ws, 'contribute')
    const own = (await contributor.api.post(links, { url: 'https://example.com/mine' })).body
    const owners = (await ws.api.post(links, { url: 'https://example.com/owner' })).body
    const refused = await contributor.api.delete(`/v1/orgs/${ws.orgId}/links/${owners.id}`)
    expect(refused.status).toBe(403)
    expect(refused.body.capability).toBe('manage')
    expect((await contributor.api.delete(`/v1/orgs/${ws.orgId}/links/${own.id}`)).status).toBe(204)
    expect((await ws.api.get(links)).body.data.map((l: any) => l.id)).toEqual([owners.id])
  })
})
