import type { ConnectorsConfig, UserId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { activeConnection, sampleConnectors } from '../support/connectors.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const LINK = ['work:read', 'work:write', 'connectors:link']

// Providers as the workspace sees them, and turning one off: nothing is connected or read through it.
describeEachDatabase('connector providers', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const fetched: string[] = []
  beforeAll(async () => {
    const connectors: ConnectorsConfig = sampleConnectors()
    const fetcher = connectors.fetcher
    server = await startTestServer(db, {
      config: {
        connectors: {
          ...connectors,
          fetcher: {
            fetch: (url, ...rest) => {
              fetched.push(String(url))
              return fetcher.fetch(url, ...rest)
            },
            refusal: fetcher.refusal,
          },
        },
      },
    })
  })
  afterAll(() => server.drop())

  const as = async (userId: UserId, scopes = LINK) =>
    server.as(await server.engine.tokens.issueAccessToken({ userId, scopes }))

  it('lists and gets providers with their issuer, scopes and item URLs', async () => {
    const ws = await newWorkspace(server)
    const api = await as(ws.owner.user.id)
    const base = `/v1/orgs/${ws.orgId}/connectors/providers`
    const list = await api.get(base)
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(1)
    const one = await api.get(`${base}/github`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual(list.body.data[0])
    expect(one.body).toMatchObject({
      id: 'github',
      issuer: 'https://github.com',
      scopes: ['repo'],
      itemTypes: ['issue', 'pull request'],
      enabled: true,
    })
    expect(one.body.items.map((i: { type: string }) => i.type)).toEqual(['issue', 'pull request'])
    expect(new RegExp(`^${one.body.items[0].pattern}$`).test('https://github.com/acme/api/issues/7')).toBe(
      true,
    )
    expect(one.headers.get('etag')).toBeTruthy()
    expect((await api.get(`${base}/gitlab`)).status).toBe(404)
    expect((await api.get(`${base}/Not_an_id`)).status).toBe(400)
    const readOnly = await as(ws.owner.user.id, ['work:read'])
    expect(await readOnly.get(`${base}/github`)).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope' },
    })
  })

  it('disabling needs manage; a disabled provider is neither connected nor read through', async () => {
    const ws = await newWorkspace(server)
    const orgBase = `/v1/orgs/${ws.orgId}`
    const provider = `${orgBase}/connectors/providers/github`
    const owner = await as(ws.owner.user.id)
    const ownerMember = (await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id)))!
    const connectionId = await activeConnection(server, ws.orgId, ownerMember.id, ws.owner.user.id)
    const task = (await ws.api.post(`${orgBase}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const items = `${orgBase}/tasks/${task.id}/linked-items`
    const linked = (await owner.post(items, { url: 'https://github.com/acme/api/issues/1' })).body
    expect(linked).toMatchObject({ providerId: 'github', title: 'Sample issue' })

    const member = await ws.addMember('member')
    const memberApi = await as(member.user.id)
    expect(await memberApi.patch(provider, { enabled: false })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'manage' },
    })
    expect((await owner.get(provider)).body.enabled).toBe(true)

    const etag = (await owner.get(provider)).headers.get('etag')!
    const off = await owner.patch(provider, { enabled: false }, { 'if-match': etag })
    expect(off.status).toBe(200)
    expect(off.body.enabled).toBe(false)
    expect((await memberApi.get(`${orgBase}/connectors/providers`)).body.data[0].enabled).toBe(false)
    // The ETag read before the change no longer matches.
    expect(await owner.patch(provider, { enabled: true }, { 'if-match': etag })).toMatchObject({
      status: 412,
      body: { code: 'precondition_failed' },
    })
    // Disabling again changes nothing and emits nothing.
    expect((await owner.patch(provider, { enabled: false })).body.enabled).toBe(false)

    const before = fetched.length
    expect(await owner.post(`${orgBase}/connections`, { providerId: 'github' })).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/providerId' }] },
    })
    expect(await owner.post(`${orgBase}/connections/${connectionId}/test`)).toMatchObject({
      status: 409,
      body: { code: 'connection_inactive' },
    })
    // New links keep the URL only; the existing one keeps what was read, and cannot be refreshed.
    const plain = await owner.post(items, { url: 'https://github.com/acme/api/issues/2' })
    expect(plain.body).toMatchObject({ providerId: null, title: null, fetchedAt: null })
    expect((await owner.get(`/v1/orgs/${ws.orgId}/linked-items/${linked.id}`)).body).toEqual(linked)
    expect(await owner.post(`/v1/orgs/${ws.orgId}/linked-items/${linked.id}/refresh`)).toMatchObject({
      status: 422,
      body: { code: 'connection_required' },
    })
    const preview = await owner.post(`${orgBase}/linked-items/preview`, {
      url: 'https://github.com/acme/api/issues/3',
    })
    expect(preview.body).toMatchObject({ providerId: null, connected: false, title: null })
    expect(fetched.length).toBe(before)
    // The connection itself stays: its owner still sees it.
    expect((await owner.get(`${orgBase}/connections/${connectionId}`)).status).toBe(200)

    const on = await owner.patch(provider, { enabled: true })
    expect(on.body.enabled).toBe(true)
    expect((await owner.post(`/v1/orgs/${ws.orgId}/linked-items/${linked.id}/refresh`)).status).toBe(200)

    const events = (await owner.get(`${orgBase}/stream?limit=200`)).body.data.filter(
      (e: any) => e.kind === 'connector_provider.updated',
    )
    expect(events.map((e: any) => e.data)).toEqual([
      { providerId: 'github', enabled: false },
      { providerId: 'github', enabled: true },
    ])
    // Another workspace is untouched by this one's choice.
    const other = await newWorkspace(server)
    const otherApi = await as(other.owner.user.id)
    await owner.patch(provider, { enabled: false })
    expect((await otherApi.get(`/v1/orgs/${other.orgId}/connectors/providers/github`)).body.enabled).toBe(
      true,
    )
  })
})
