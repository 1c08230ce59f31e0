import type { ConnectorsConfig, UserId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { activeConnection, sampleConnectors } from '../support/connectors.ts'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const LINK = ['work:read', 'work:write', 'connectors:link']

// One linked item, the records linking a URL, and previews, through a fake GitHub (test/support/connectors.ts).
describeEachDatabase('linked items: get, lookup by URL, preview', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    const connectors: ConnectorsConfig = sampleConnectors()
    server = await startTestServer(db, {
      config: {
        connectors: {
          ...connectors,
          // Stands in for the hardened fetcher's special-use address check.
          fetcher: {
            fetch: connectors.fetcher.fetch,
            refusal: async (url) =>
              new URL(String(url)).hostname === '10.0.0.1' ? 'a private address' : null,
          },
        },
      },
    })
  })
  afterAll(() => server.drop())

  const as = async (userId: UserId, scopes = LINK) =>
    server.as(await server.engine.tokens.issueAccessToken({ userId, scopes }))

  it('gets one item, whether a task or a project holds it', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const api = await as(ws.owner.user.id)
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const url = 'https://example.com/spec'
    const onTask = (await api.post(`${base}/tasks/${task.id}/linked-items`, { url })).body
    const onProject = (await api.post(`${base}/projects/${project.id}/linked-items`, { url })).body
    const got = await api.get(`${base}/linked-items/${onTask.id}`)
    expect(got.status).toBe(200)
    expect(got.body).toEqual(onTask)
    expect(got.headers.get('etag')).toBeTruthy()
    expect((await api.get(`${base}/linked-items/${onProject.id}`)).body).toEqual(onProject)
    // Reading needs only work:read; a guest who cannot view the team gets 404.
    const reader = await as(ws.owner.user.id, ['work:read'])
    expect((await reader.get(`${base}/linked-items/${onTask.id}`)).status).toBe(200)
    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const outsider = await teamGuest(ws, 'view', design.id)
    const outsiderApi = await as(outsider.user.id)
    expect((await outsiderApi.get(`${base}/linked-items/${onTask.id}`)).status).toBe(404)
  })

  it('looks a URL up among the records the caller can view only, in normalised form, by pages', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const api = await as(ws.owner.user.id)
    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const url = 'https://github.com/acme/api/issues/7'
    const link = async (kind: 'tasks' | 'projects', id: string, u = url) =>
      (await api.post(`${base}/${kind}/${id}/linked-items`, { url: u })).body
    const task = (teamId: string) =>
      ws.api.post(`${base}/tasks`, { teamId, title: 'T' }).then((r) => r.body.id as string)
    const project = (teamId: string) =>
      ws.api
        .post(`${base}/projects`, { name: `P ${Math.random()}`, teamIds: [teamId] })
        .then((r) => r.body.id)
    const visibleTask = await link('tasks', await task(ws.teamId))
    const hiddenTask = await link('tasks', await task(design.id))
    const visibleProject = await link('projects', await project(ws.teamId))
    const hiddenProject = await link('projects', await project(design.id))
    const deletedTaskId = await task(ws.teamId)
    await link('tasks', deletedTaskId)
    expect((await ws.api.delete(`${base}/tasks/${deletedTaskId}`)).status).toBe(204)
    await link('tasks', await task(ws.teamId), 'https://github.com/acme/api/issues/70')

    const lookup = `${base}/linked-items/lookup`
    // Scheme and host case and the default port do not matter.
    const variant = encodeURIComponent('HTTPS://GitHub.COM:443/acme/api/issues/7')
    const all = await api.get(`${lookup}?url=${variant}`)
    expect(all.status).toBe(200)
    expect(all.body.data.map((i: { id: string }) => i.id)).toEqual(
      [visibleTask, hiddenTask, visibleProject, hiddenProject].map((i) => i.id),
    )

    // A guest viewing the first team only: the other team's task and project are not there at all.
    const guest = await teamGuest(ws, 'view')
    const guestApi = await as(guest.user.id, ['work:read'])
    const seen = await guestApi.get(`${lookup}?url=${encodeURIComponent(url)}`)
    expect(seen.body).toEqual({ data: [visibleTask, visibleProject], nextCursor: null })
    const first = await guestApi.get(`${lookup}?url=${encodeURIComponent(url)}&limit=1`)
    expect(first.body.data).toEqual([visibleTask])
    expect(first.body.nextCursor).toBeTruthy()
    const second = await guestApi.get(
      `${lookup}?url=${encodeURIComponent(url)}&limit=1&cursor=${first.body.nextCursor}`,
    )
    expect(second.body).toEqual({ data: [visibleProject], nextCursor: null })
    // A cursor belongs to its URL.
    expect(
      (await guestApi.get(`${lookup}?url=${encodeURIComponent(`${url}0`)}&cursor=${first.body.nextCursor}`))
        .status,
    ).toBe(400)
    // A grant on the hidden project opens that project's link, and no more.
    const projectGrant = await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'project',
      containerId: hiddenProject.projectId,
      capability: 'view',
    })
    expect(projectGrant.status).toBe(201)
    const widened = await guestApi.get(`${lookup}?url=${encodeURIComponent(url)}`)
    expect(widened.body.data).toEqual([visibleTask, visibleProject, hiddenProject])

    expect(
      (await guestApi.get(`${lookup}?url=${encodeURIComponent('https://nowhere.example/x')}`)).body,
    ).toEqual({
      data: [],
      nextCursor: null,
    })
    expect(await guestApi.get(`${lookup}?url=not-a-url`)).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', errors: [{ pointer: '/query/url' }] },
    })
    expect((await guestApi.get(lookup)).status).toBe(400)
  })

  it('previews a URL through the caller’s own connection and saves nothing', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const ownerMember = (await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id)))!
    await activeConnection(server, ws.orgId, ownerMember.id, ws.owner.user.id)
    const api = await as(ws.owner.user.id)
    const preview = `${base}/linked-items/preview`
    const before = (await api.get(`${base}/stream?limit=200`)).body.data.length

    const read = await api.post(preview, { url: 'https://GITHUB.com/acme/api/issues/9' })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({
      url: 'https://github.com/acme/api/issues/9',
      providerId: 'github',
      connected: true,
      itemType: 'issue',
      title: 'Sample issue',
      state: 'open',
    })
    expect(read.body.fetchedAt).not.toBeNull()
    // Another member has no connection: the answer says so, with the URL only.
    const member = await ws.addMember('member')
    const memberApi = await as(member.user.id)
    expect((await memberApi.post(preview, { url: 'https://github.com/acme/api/issues/9' })).body).toEqual({
      url: 'https://github.com/acme/api/issues/9',
      providerId: 'github',
      connected: false,
      itemType: null,
      title: null,
      state: null,
      assignee: null,
      externalUpdatedAt: null,
      fetchedAt: null,
    })
    expect((await api.post(preview, { url: 'https://example.com/page' })).body).toMatchObject({
      providerId: null,
      connected: false,
    })
    expect(await api.post(preview, { url: 'http://10.0.0.1/admin' })).toMatchObject({
      status: 422,
      body: { code: 'outbound_refused' },
    })
    expect(await api.post(preview, { url: 'ftp://example.com/x' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    })
    expect(
      await (await as(ws.owner.user.id, ['work:read'])).post(preview, { url: 'https://example.com' }),
    ).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope' },
    })
    // Nothing was linked and nothing was logged.
    expect(
      (
        await api.get(
          `${base}/linked-items/lookup?url=${encodeURIComponent('https://github.com/acme/api/issues/9')}`,
        )
      ).body.data,
    ).toEqual([])
    expect((await api.get(`${base}/stream?limit=200`)).body.data.length).toBe(before)
  })
})
