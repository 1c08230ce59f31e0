import type { OrgId, UserId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const WRITE = ['work:read', 'connectors:link']

// App-owned JSON on records, namespaced by the OAuth client of the token.
describeEachDatabase('record properties', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const app = async (userId: UserId, clientId?: string, scopes = WRITE) =>
    server.as(
      await server.engine.tokens.issueAccessToken({ userId, scopes, ...(clientId ? { clientId } : {}) }),
    )

  it('sets, reads, lists and deletes on tasks, projects, programs and initiatives, with events', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const api = await app(ws.owner.user.id, 'sync-app')
    const records = {
      task: (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body.id,
      project: (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body.id,
      program: (await ws.api.post(`${base}/programs`, { name: 'G' })).body.id,
      initiative: (await ws.api.post(`${base}/initiatives`, { name: 'I' })).body.id,
    }
    for (const [type, id] of Object.entries(records)) {
      const props = `${base}/records/${type}/${id}/properties`
      const value = { externalId: `EXT-${type}`, nested: [1, 'two', null, true] }
      const put = await api.put(`${props}/sync.state`, { value })
      expect(put.status, type).toBe(200)
      expect(put.body).toMatchObject({
        recordType: type,
        recordId: id,
        key: 'sync.state',
        clientId: 'sync-app',
        value,
      })
      const got = await api.get(`${props}/sync.state`)
      expect(got.body).toEqual(put.body)
      expect(got.headers.get('etag')).toBe(put.headers.get('etag'))
      // Replacing keeps one property; any JSON, a bare string too.
      expect((await api.put(`${props}/sync.state`, { value: 'done' })).body.value).toBe('done')
      expect((await api.get(props)).body.data.map((p: any) => [p.key, p.value])).toEqual([
        ['sync.state', 'done'],
      ])
      expect((await api.delete(`${props}/sync.state`)).status).toBe(204)
      expect((await api.get(`${props}/sync.state`)).status).toBe(404)
      expect((await api.delete(`${props}/sync.state`)).status).toBe(404)
    }
    const events = (await ws.api.get(`${base}/stream?limit=200`)).body.data.filter((e: any) =>
      e.kind.startsWith('record_property.'),
    )
    expect(events.map((e: any) => [e.kind, e.data.recordType])).toEqual(
      Object.keys(records).flatMap((t) => [
        ['record_property.updated', t],
        ['record_property.updated', t],
        ['record_property.deleted', t],
      ]),
    )
    // Events name the key and client, never the value.
    expect(events[0].data).toEqual({
      recordType: 'task',
      recordId: records.task,
      key: 'sync.state',
      clientId: 'sync-app',
    })
  })

  it('keeps each OAuth client to its own namespace', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const props = `${base}/records/task/${task.id}/properties`
    const a = await app(ws.owner.user.id, 'app-a')
    const b = await app(ws.owner.user.id, 'app-b')
    const firstParty = await app(ws.owner.user.id)
    await a.put(`${props}/external`, { value: 'A-1' })
    await a.put(`${props}/only-a`, { value: true })
    expect((await b.get(`${props}/external`)).status).toBe(404)
    expect((await b.get(props)).body).toEqual({ data: [], nextCursor: null })
    expect((await b.delete(`${props}/only-a`)).status).toBe(404)
    // The same key in B's namespace is B's own property.
    expect((await b.put(`${props}/external`, { value: 'B-1' })).body).toMatchObject({
      clientId: 'app-b',
      value: 'B-1',
    })
    expect((await a.get(`${props}/external`)).body.value).toBe('A-1')
    expect((await a.get(props)).body.data.map((p: any) => p.key)).toEqual(['external', 'only-a'])
    // A token without a client has a namespace of its own.
    expect((await firstParty.get(props)).body.data).toEqual([])
    expect((await firstParty.put(`${props}/external`, { value: 0 })).body.clientId).toBeNull()
    expect((await b.get(`${props}/external`)).body.value).toBe('B-1')
  })

  it('needs view to read, contribute and connectors:link to write; hidden records are 404', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const props = `${base}/records/task/${task.id}/properties`
    const owner = await app(ws.owner.user.id, 'app')
    await owner.put(`${props}/k`, { value: 1 })

    const viewer = await teamGuest(ws, 'view')
    const viewerApp = await app(viewer.user.id, 'app')
    expect((await viewerApp.get(`${props}/k`)).body.value).toBe(1)
    expect(await viewerApp.put(`${props}/k`, { value: 2 })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    expect((await viewerApp.delete(`${props}/k`)).status).toBe(403)
    const contributor = await teamGuest(ws, 'contribute')
    expect((await (await app(contributor.user.id, 'app')).put(`${props}/k`, { value: 3 })).status).toBe(200)

    const readOnly = await app(ws.owner.user.id, 'app', ['work:read', 'work:write'])
    expect((await readOnly.get(`${props}/k`)).body.value).toBe(3)
    expect(await readOnly.put(`${props}/k`, { value: 4 })).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope' },
    })
    const linkOnly = await app(ws.owner.user.id, 'app', ['connectors:link'])
    expect(await linkOnly.get(props)).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } })

    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const hidden = (await ws.api.post(`${base}/tasks`, { teamId: design.id, title: 'H' })).body
    const hiddenProps = `${base}/records/task/${hidden.id}/properties`
    await owner.put(`${hiddenProps}/k`, { value: 'secret' })
    for (const res of [
      await viewerApp.get(hiddenProps),
      await viewerApp.get(`${hiddenProps}/k`),
      await viewerApp.put(`${hiddenProps}/k`, { value: 1 }),
      await viewerApp.delete(`${hiddenProps}/k`),
    ])
      expect(res.status).toBe(404)

    // A record id of another kind, or a kind without properties.
    expect((await owner.get(`${base}/records/project/${task.id}/properties`)).status).toBe(404)
    expect((await owner.get(`${base}/records/comment/${task.id}/properties`)).status).toBe(400)
    expect((await owner.put(`${props}/bad key`, { value: 1 })).status).toBe(400)
    expect((await owner.put(`${props}/k`, {})).status).toBe(400)
  })

  it('refuses values over 32 KiB, pages the list, and honours If-Match', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const props = `${base}/records/task/${task.id}/properties`
    const api = await app(ws.owner.user.id, 'app')
    // JSON of a string is its characters plus two quotes.
    expect((await api.put(`${props}/big`, { value: 'x'.repeat(32 * 1024 - 2) })).status).toBe(200)
    expect(await api.put(`${props}/big`, { value: 'x'.repeat(32 * 1024 - 1) })).toMatchObject({
      status: 413,
      body: { code: 'payload_too_large', maxBytes: 32 * 1024 },
    })
    expect((await api.get(`${props}/big`)).body.value).toHaveLength(32 * 1024 - 2)

    for (const key of ['c', 'a', 'b']) await api.put(`${props}/${key}`, { value: key })
    const first = await api.get(`${props}?limit=2`)
    expect(first.body.data.map((p: any) => p.key)).toEqual(['a', 'b'])
    const second = await api.get(`${props}?limit=2&cursor=${first.body.nextCursor}`)
    expect(second.body.data.map((p: any) => p.key)).toEqual(['big', 'c'])
    expect(second.body.nextCursor).toBeNull()
    expect((await api.get(`${props}?cursor=garbage`)).status).toBe(400)

    const etag = (await api.get(`${props}/a`)).headers.get('etag')!
    expect((await api.put(`${props}/a`, { value: 'a2' }, { 'if-match': etag })).status).toBe(200)
    expect(await api.put(`${props}/a`, { value: 'a3' }, { 'if-match': etag })).toMatchObject({
      status: 412,
      body: { code: 'precondition_failed' },
    })
    expect((await api.delete(`${props}/a`, { 'if-match': etag })).status).toBe(412)
    expect((await api.get(`${props}/a`)).body.value).toBe('a2')
  })

  it('goes with its record when the record is deleted', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const api = await app(ws.owner.user.id, 'app')
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const program = (await ws.api.post(`${base}/programs`, { name: 'G' })).body
    const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'I' })).body
    const refs = [
      { type: 'task', id: task.id, path: `tasks/${task.id}` },
      { type: 'project', id: project.id, path: `projects/${project.id}` },
      { type: 'program', id: program.id, path: `programs/${program.id}` },
      { type: 'initiative', id: initiative.id, path: `initiatives/${initiative.id}` },
    ] as const
    for (const r of refs) await api.put(`${base}/records/${r.type}/${r.id}/properties/k`, { value: r.type })
    const stored = (r: (typeof refs)[number]) =>
      server.storage.read((s) =>
        s.recordProperties.get(ws.orgId as OrgId, { type: r.type, id: r.id }, 'app', 'k'),
      )
    for (const r of refs) {
      expect(await stored(r), r.type).not.toBeNull()
      expect((await ws.api.delete(`${base}/${r.path}`)).status, r.type).toBe(204)
      expect(await stored(r), r.type).toBeNull()
    }
  })
})
