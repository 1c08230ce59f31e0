import type { UserId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { activeConnection, sampleConnectors } from '../support/connectors.ts'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const LINK = ['work:read', 'work:write', 'connectors:link']

// Linked items on projects, read through a fake GitHub (test/support/connectors.ts).
describeEachDatabase('linked items on projects', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { connectors: sampleConnectors() } })
  })
  afterAll(() => server.drop())

  const linker = async (userId: UserId) =>
    server.as(await server.engine.tokens.issueAccessToken({ userId, scopes: LINK }))

  it('links, lists, refreshes and unlinks a project’s item, with events; task items stay apart', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const owner = (await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id)))!
    await activeConnection(server, ws.orgId, owner.id, ws.owner.user.id)
    const api = await linker(ws.owner.user.id)
    const project = (await ws.api.post(`${base}/projects`, { name: 'Launch', teamIds: [ws.teamId] })).body
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const items = `${base}/projects/${project.id}/linked-items`
    const url = 'https://github.com/acme/api/issues/7'

    const linked = await api.post(items, { url })
    expect(linked.status).toBe(201)
    expect(linked.body).toMatchObject({
      url,
      taskId: null,
      projectId: project.id,
      providerId: 'github',
      itemType: 'issue',
      title: 'Sample issue',
      state: 'open',
    })
    expect(linked.body.fetchedAt).not.toBeNull()
    expect(await api.post(items, { url })).toMatchObject({ status: 409, body: { code: 'already_exists' } })
    // The same URL on a task is a separate link; each list shows its own.
    const onTask = await api.post(`${base}/tasks/${task.id}/linked-items`, { url })
    expect(onTask.body).toMatchObject({ taskId: task.id, projectId: null })
    expect((await api.get(items)).body.data).toEqual([linked.body])
    const item = `${base}/linked-items/${linked.body.id}`
    const refreshed = await api.post(`${item}/refresh`)
    expect(refreshed.status).toBe(200)
    expect(refreshed.body).toMatchObject({ id: linked.body.id, projectId: project.id, title: 'Sample issue' })
    expect((await api.delete(item)).status).toBe(204)
    expect((await api.get(items)).body.data).toEqual([])
    expect((await api.delete(item)).status).toBe(404)

    const events = (await api.get(`${base}/stream?limit=200`)).body.data.filter(
      (e: any) => e.resourceId === linked.body.id,
    )
    expect(events.map((e: any) => e.kind)).toEqual([
      'linked_item.created',
      'linked_item.refreshed',
      'linked_item.deleted',
    ])
  })

  it('follows the project’s visibility and capability; deleting the project removes its items', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const api = await linker(ws.owner.user.id)
    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const shared = (await ws.api.post(`${base}/projects`, { name: 'Shared', teamIds: [ws.teamId] })).body
    const hidden = (await ws.api.post(`${base}/projects`, { name: 'Hidden', teamIds: [design.id] })).body
    const url = 'https://example.com/spec'
    const item = (await api.post(`${base}/projects/${shared.id}/linked-items`, { url })).body
    expect(item).toMatchObject({ projectId: shared.id, providerId: null, fetchedAt: null })
    const hiddenItem = (await api.post(`${base}/projects/${hidden.id}/linked-items`, { url })).body

    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    const viewerApi = await linker(viewer.user.id)
    expect((await viewerApi.get(`${base}/projects/${shared.id}/linked-items`)).body.data).toEqual([item])
    expect(
      await viewerApi.post(`${base}/projects/${shared.id}/linked-items`, { url: `${url}/2` }),
    ).toMatchObject({ status: 403, body: { code: 'capability_required', capability: 'contribute' } })
    expect((await viewerApi.delete(`${base}/linked-items/${item.id}`)).status).toBe(403)
    // A project on a team the viewer cannot see is 404, whatever they ask of it.
    const hiddenItems = `${base}/projects/${hidden.id}/linked-items`
    expect((await viewerApi.get(hiddenItems)).status).toBe(404)
    expect((await viewerApi.post(hiddenItems, { url: `${url}/3` })).status).toBe(404)
    expect((await viewerApi.post(`${base}/linked-items/${hiddenItem.id}/refresh`)).status).toBe(404)
    expect((await viewerApi.delete(`${base}/linked-items/${hiddenItem.id}`)).status).toBe(404)

    const contributor = await ws.addMember('guest')
    await grant(ws, contributor.memberId, 'contribute')
    const contributorApi = await linker(contributor.user.id)
    const added = await contributorApi.post(`${base}/projects/${shared.id}/linked-items`, { url: `${url}/4` })
    expect(added.status).toBe(201)
    // Refreshing needs a connection to a provider that reads the URL.
    expect(await contributorApi.post(`${base}/linked-items/${added.body.id}/refresh`)).toMatchObject({
      status: 422,
      body: { code: 'connection_required' },
    })

    expect((await ws.api.delete(`${base}/projects/${shared.id}`)).status).toBe(204)
    const left = await server.storage.read((s) =>
      s.linkedItems.list(ws.orgId, { type: 'project', id: shared.id }, { limit: 10 } as never),
    )
    expect(left).toEqual([])
  })
})
