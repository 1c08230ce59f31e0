import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('tasks.duplicate', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('copies a task into a new one with the next key', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const source = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Original', priority: 'high' })
    const copy = await ws.api.post(`${tasks}/${source.body.id}/duplicate`, {})
    expect(copy.status).toBe(201)
    expect(copy.body).toMatchObject({
      key: 'ENG-2',
      title: 'Original',
      priority: 'high',
      stateId: source.body.stateId,
    })
    expect(copy.headers.get('location')).toBe(`${tasks}/${copy.body.id}`)
  })

  it('copies labels unless told not to, and open subtasks when asked', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const label = (await ws.api.post(`${base}/labels`, { name: 'Bug', teamId: ws.teamId })).body
    const source = (
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Parent', labelIds: [label.id] })
    ).body
    const child = (
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Child', parentId: source.id })
    ).body
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Grandchild', parentId: child.id })
    const archived = (
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Old', parentId: source.id })
    ).body
    await ws.api.post(`${base}/tasks/${archived.id}/archive`)

    const plain = await ws.api.post(`${base}/tasks/${source.id}/duplicate`, { labels: false, title: 'Plain' })
    expect(plain.body).toMatchObject({ title: 'Plain', labelIds: [] })
    expect((await ws.api.get(`${base}/tasks?parentId=${plain.body.id}`)).body.data).toEqual([])

    const deep = await ws.api.post(`${base}/tasks/${source.id}/duplicate`, { subtasks: true })
    expect(deep.body.labelIds).toEqual([label.id])
    const children = (await ws.api.get(`${base}/tasks?parentId=${deep.body.id}`)).body.data
    expect(children.map((t: any) => t.title)).toEqual(['Child'])
    const grandchildren = (await ws.api.get(`${base}/tasks?parentId=${children[0].id}`)).body.data
    expect(grandchildren.map((t: any) => t.title)).toEqual(['Grandchild'])
  })

  it('needs contribute: a guest gets 403 capability_required and nothing is created; another org 404', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const source = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Original' })
    const guest = await teamGuest(ws, 'view')
    const denied = await guest.api.post(`${tasks}/${source.body.id}/duplicate`, {})
    expect(denied).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    const stranger = await newWorkspace(server)
    expect((await stranger.api.post(`${tasks}/${source.body.id}/duplicate`, {})).status).toBe(404)
    expect((await ws.api.get(tasks)).body.data).toHaveLength(1)
  })
})
