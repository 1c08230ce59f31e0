import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer, withoutRequestId } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('orgs and members', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('creates a workspace with the caller as owner and a slug from its name', async () => {
    const person = await newPerson(server.engine, { name: 'Ada' })
    const api = server.as(person.token)
    const res = await api.post('/v1/orgs', { name: 'Analytical Engines' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'Analytical Engines', archivedAt: null })
    expect(res.body.slug).toMatch(/^analytical-engines/)
    expect(res.headers.get('location')).toBe(`/v1/orgs/${res.body.id}`)
    const members = await api.get(`/v1/orgs/${res.body.id}/members`)
    expect(members.body.data).toEqual([
      expect.objectContaining({ userId: person.user.id, role: 'owner', name: 'Ada', status: 'active' }),
    ])
  })

  it('refuses a taken slug with 409 key_taken and writes nothing', async () => {
    const ws = await newWorkspace(server)
    const org = await ws.api.get(`/v1/orgs/${ws.orgId}`)
    const res = await ws.api.post('/v1/orgs', { name: 'Other', slug: org.body.slug })
    expect(res.status).toBe(409)
    expect(res.body).toMatchObject({ code: 'key_taken', errors: [{ pointer: '/body/slug' }] })
  })

  it('gives workspaces created at the same moment with one name distinct slugs, never a 409', async () => {
    const people = await Promise.all(Array.from({ length: 5 }, () => newPerson(server.engine)))
    const name = `Same ${Date.now()}`
    const created = await Promise.all(people.map((p) => server.as(p.token).post('/v1/orgs', { name })))
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201, 201])
    expect(new Set(created.map((r) => r.body.slug)).size).toBe(5)
  })

  it("lists only the caller's workspaces", async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const list = await a.api.get('/v1/orgs')
    expect(list.body.data.map((o: any) => o.id)).toEqual([a.orgId])
    expect(list.body.nextCursor).toBeNull()
    expect((await b.api.get('/v1/orgs')).body.data.map((o: any) => o.id)).toEqual([b.orgId])
  })

  it('renames with manage; a member without it gets 403 capability_required naming it', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const denied = await member.api.patch(`/v1/orgs/${ws.orgId}`, { name: 'Hijacked' })
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({ code: 'capability_required', capability: 'manage' })
    const renamed = await ws.api.patch(`/v1/orgs/${ws.orgId}`, { name: 'Acme Renamed' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe('Acme Renamed')
    expect((await member.api.get(`/v1/orgs/${ws.orgId}`)).body.name).toBe('Acme Renamed')
  })

  it('makes an archived workspace read-only until it is restored', async () => {
    const ws = await newWorkspace(server)
    const archived = await ws.api.post(`/v1/orgs/${ws.orgId}/archive`)
    expect(archived.status).toBe(200)
    expect(archived.body.archivedAt).not.toBeNull()
    const write = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'x' })
    expect(write.status).toBe(409)
    expect(write.body.code).toBe('archived')
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/tasks`)).status).toBe(200)
    const restored = await ws.api.post(`/v1/orgs/${ws.orgId}/restore`)
    expect(restored.body.archivedAt).toBeNull()
    expect((await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'x' })).status).toBe(
      201,
    )
  })

  it('answers a non-member exactly as for a missing org, on every route and method', async () => {
    const ws = await newWorkspace(server)
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'secret' })
    const outsider = await newPerson(server.engine)
    const missingOrg = 'org_01JD3Q2R4S5T6V7W8X9YZABCDE'
    const probes: Array<[string, string, unknown?]> = [
      ['GET', ''],
      ['PATCH', '', { name: 'x' }],
      ['POST', '/archive'],
      ['GET', '/members'],
      ['GET', '/teams'],
      ['POST', '/teams', { name: 'T', key: 'TT' }],
      ['GET', `/tasks/${task.body.id}`],
      ['PATCH', `/tasks/${task.body.id}`, { title: 'x' }],
      ['DELETE', `/tasks/${task.body.id}`],
      ['GET', `/teams/${ws.teamId}/states`],
    ]
    for (const [method, suffix, body] of probes) {
      const asOutsider = await server.request(method, `/v1/orgs/${ws.orgId}${suffix}`, {
        token: outsider.token,
        body,
      })
      const asMissing = await server.request(method, `/v1/orgs/${missingOrg}${suffix}`, {
        token: outsider.token,
        body,
      })
      expect(asOutsider.status, `${method} ${suffix}`).toBe(404)
      expect(withoutRequestId(asOutsider.body)).toEqual(withoutRequestId(asMissing.body))
    }
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}`)).body.title).toBe('secret')
  })

  it("answers another tenant's record id with the same 404 as a missing one", async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const task = await b.api.post(`/v1/orgs/${b.orgId}/tasks`, { teamId: b.teamId, title: 'theirs' })
    const cross = await a.api.get(`/v1/orgs/${a.orgId}/tasks/${task.body.id}`)
    const missing = await a.api.get(`/v1/orgs/${a.orgId}/tasks/task_01JD3Q2R4S5T6V7W8X9YZABCDE`)
    expect(cross.status).toBe(404)
    expect(withoutRequestId(cross.body)).toEqual(withoutRequestId(missing.body))
    const team = await a.api.get(`/v1/orgs/${a.orgId}/teams/${b.teamId}`)
    expect(team.status).toBe(404)
  })

  it('gets a member and pages through members', async () => {
    const ws = await newWorkspace(server)
    const added = await Promise.all([ws.addMember('member'), ws.addMember('guest'), ws.addMember('admin')])
    const first = await ws.api.get(`/v1/orgs/${ws.orgId}/members?limit=2`)
    expect(first.body.data).toHaveLength(2)
    const second = await ws.api.get(`/v1/orgs/${ws.orgId}/members?limit=2&cursor=${first.body.nextCursor}`)
    expect(second.body.nextCursor).toBeNull()
    const all = [...first.body.data, ...second.body.data].map((m: any) => m.id)
    expect(new Set(all).size).toBe(4)
    const one = await ws.api.get(`/v1/orgs/${ws.orgId}/members/${added[1].memberId}`)
    expect(one.body).toMatchObject({ role: 'guest', kind: 'person' })
  })
})
