import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grant, teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { readAll } from '../support/task-helpers.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const ids = (items: any[]) => items.map((i) => i.projectId ?? i.id)

describeEachDatabase('programs', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  async function project(ws: TestWorkspace, name: string, teamId = ws.teamId) {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name, teamIds: [teamId] })
    if (res.status !== 201) throw new Error(JSON.stringify(res.body))
    return res.body
  }

  describe('the program resource', () => {
    it('creates, reads, pages, filters, edits with status rules, archives, restores and deletes', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const owner = (await ws.api.get(`${base}/members`)).body.data[0].id
      const created = await ws.api.post(`${base}/programs`, {
        name: 'Platform reliability',
        description: 'Keep it **up**.',
        ownerId: owner,
        icon: '🛡️',
      })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^prg_/),
        name: 'Platform reliability',
        ownerId: owner,
        status: 'active',
        retiredAt: null,
        health: null,
        lastUpdateAt: null,
        archivedAt: null,
      })
      const p1 = created.body
      const p2 = (await ws.api.post(`${base}/programs`, { name: 'Developer experience' })).body
      const p3 = (await ws.api.post(`${base}/programs`, { name: 'Security' })).body

      expect(ids(await readAll(ws, `${base}/programs`, 2))).toEqual([p3.id, p2.id, p1.id])
      expect(ids((await ws.api.get(`${base}/programs?ownerId=${owner}`)).body.data)).toEqual([p1.id])
      expect(ids((await ws.api.get(`${base}/programs?ownerId=none`)).body.data)).toEqual([p3.id, p2.id])
      expect((await ws.api.get(`${base}/programs/${p1.id}`)).body).toEqual(p1)

      const badOwner = await ws.api.patch(`${base}/programs/${p2.id}`, {
        ownerId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE',
      })
      expect(badOwner).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })

      const paused = await ws.api.patch(`${base}/programs/${p2.id}`, { status: 'paused' })
      expect(paused.body).toMatchObject({ status: 'paused', retiredAt: null })
      const retired = await ws.api.patch(`${base}/programs/${p2.id}`, { status: 'retired' })
      expect(retired.body).toMatchObject({ status: 'retired', retiredAt: expect.any(String) })
      const refused = await ws.api.patch(`${base}/programs/${p2.id}`, { status: 'paused' })
      expect(refused).toMatchObject({ status: 409, body: { code: 'conflict' } })
      expect((await ws.api.get(`${base}/programs/${p2.id}`)).body.status).toBe('retired')
      expect(ids((await ws.api.get(`${base}/programs?status=retired`)).body.data)).toEqual([p2.id])
      const reopened = await ws.api.patch(`${base}/programs/${p2.id}`, { status: 'active' })
      expect(reopened.body).toMatchObject({ status: 'active', retiredAt: null })

      expect((await ws.api.post(`${base}/programs/${p3.id}/archive`)).body.archivedAt).not.toBeNull()
      expect(ids((await ws.api.get(`${base}/programs`)).body.data)).toEqual([p2.id, p1.id])
      expect(ids((await ws.api.get(`${base}/programs?archived=only`)).body.data)).toEqual([p3.id])
      expect((await ws.api.post(`${base}/programs/${p3.id}/restore`)).body.archivedAt).toBeNull()

      const doomed = await project(ws, 'Kept')
      await ws.api.put(`${base}/programs/${p3.id}/projects/${doomed.id}`)
      expect((await ws.api.delete(`${base}/programs/${p3.id}`)).status).toBe(204)
      expect((await ws.api.get(`${base}/programs/${p3.id}`)).status).toBe(404)
      expect((await ws.api.get(`${base}/projects/${doomed.id}`)).status).toBe(200)

      const kinds = (await ws.api.get(`${base}/stream`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining([
          'program.created',
          'program.updated',
          'program.archived',
          'program.restored',
          'program.deleted',
          'program.project_added',
        ]),
      )
    })

    it('lets every member read, guests through a grant; needs contribute to write and manage to delete; isolates orgs', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const program = (await ws.api.post(`${base}/programs`, { name: 'Ops' })).body
      const member = await ws.addMember('member')
      expect((await member.api.get(`${base}/programs/${program.id}`)).status).toBe(200)
      expect(ids((await member.api.get(`${base}/programs`)).body.data)).toEqual([program.id])
      // A guest sees a program only through a grant that reaches it (on it, or on one of its teams).
      const guest = await ws.addMember('guest')
      expect((await guest.api.get(`${base}/programs/${program.id}`)).status).toBe(404)
      expect(ids((await guest.api.get(`${base}/programs`)).body.data)).toEqual([])
      const viewer = await ws.addMember('guest')
      await grant(ws, viewer.memberId, 'view', { type: 'program', id: program.id })
      expect((await viewer.api.get(`${base}/programs/${program.id}`)).status).toBe(200)
      expect(ids((await viewer.api.get(`${base}/programs`)).body.data)).toEqual([program.id])
      expect(await guest.api.post(`${base}/programs`, { name: 'x' })).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'contribute' },
      })
      expect((await guest.api.patch(`${base}/programs/${program.id}`, { name: 'x' })).status).toBe(403)

      // A team grant counts on a program that team works in.
      await grant(ws, guest.memberId, 'contribute')
      expect((await guest.api.patch(`${base}/programs/${program.id}`, { name: 'x' })).status).toBe(403)
      expect((await ws.api.put(`${base}/programs/${program.id}/teams/${ws.teamId}`)).status).toBe(200)
      expect((await guest.api.patch(`${base}/programs/${program.id}`, { name: 'Ops 2' })).status).toBe(200)
      expect(await guest.api.delete(`${base}/programs/${program.id}`)).toMatchObject({
        status: 403,
        body: { capability: 'manage' },
      })

      const other = await newWorkspace(server)
      expect((await other.api.get(`${base}/programs/${program.id}`)).status).toBe(404)
      expect((await other.api.get(`/v1/orgs/${other.orgId}/programs/${program.id}`)).status).toBe(404)
      expect(
        (await other.api.patch(`/v1/orgs/${other.orgId}/programs/${program.id}`, { name: 'y' })).status,
      ).toBe(404)
    })
  })

  describe('projects of a program', () => {
    it('adds in order, pages, reorders, removes; needs manage on the project; refuses a retired program', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const program = (await ws.api.post(`${base}/programs`, { name: 'Growth' })).body
      const path = `${base}/programs/${program.id}/projects`
      const [a, b, c] = [await project(ws, 'A'), await project(ws, 'B'), await project(ws, 'C')]
      for (const p of [a, b, c]) {
        const added = await ws.api.put(`${path}/${p.id}`)
        expect(added.status).toBe(200)
        expect(added.body).toMatchObject({
          programId: program.id,
          projectId: p.id,
          project: { id: p.id, name: p.name },
        })
      }
      // Idempotent: a project already there keeps its place.
      expect((await ws.api.put(`${path}/${a.id}`)).body.position).toBe(0)
      expect(ids(await readAll(ws, path, 2))).toEqual([a.id, b.id, c.id])

      // A project may be in several programs.
      const other = (await ws.api.post(`${base}/programs`, { name: 'Other' })).body
      expect((await ws.api.put(`${base}/programs/${other.id}/projects/${a.id}`)).status).toBe(200)

      expect((await ws.api.post(`${path}/reorder`, { projectIds: [c.id, a.id, b.id] })).status).toBe(204)
      expect(ids(await readAll(ws, path, 1))).toEqual([c.id, a.id, b.id])
      const partial = await ws.api.post(`${path}/reorder`, { projectIds: [c.id, a.id] })
      expect(partial).toMatchObject({ status: 422, body: { code: 'rule_violated' } })

      expect((await ws.api.delete(`${path}/${a.id}`)).status).toBe(204)
      expect((await ws.api.delete(`${path}/${a.id}`)).status).toBe(204)
      expect(ids(await readAll(ws, path, 5))).toEqual([c.id, b.id])
      expect((await ws.api.get(`${base}/projects/${a.id}`)).status).toBe(200)

      // Contribute on the program (through its team) is not enough to link: manage on the project is.
      const contributor = await teamGuest(ws, 'contribute')
      const d = await project(ws, 'D')
      expect(await contributor.api.put(`${path}/${d.id}`)).toMatchObject({
        status: 403,
        body: { capability: 'contribute' },
      })
      await ws.api.put(`${base}/programs/${program.id}/teams/${ws.teamId}`)
      expect(await contributor.api.put(`${path}/${d.id}`)).toMatchObject({
        status: 403,
        body: { capability: 'manage' },
      })
      const manager = await teamGuest(ws, 'manage')
      expect((await manager.api.put(`${path}/${d.id}`)).status).toBe(200)

      const missing = await ws.api.put(`${path}/proj_01JD3Q2R4S5T6V7W8X9YZABCDE`)
      expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } })
      await ws.api.patch(`${base}/programs/${program.id}`, { status: 'retired' })
      const e = await project(ws, 'E')
      expect(await ws.api.put(`${path}/${e.id}`)).toMatchObject({
        status: 409,
        body: { code: 'conflict' },
      })

      // Deleting a project unlinks it.
      expect((await ws.api.delete(`${base}/projects/${d.id}`)).status).toBe(204)
      expect(ids(await readAll(ws, path, 5))).toEqual([c.id, b.id])
    })

    it('hides projects the caller cannot view, and a reorder keeps their places', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
      const program = (await ws.api.post(`${base}/programs`, { name: 'Brand' })).body
      const path = `${base}/programs/${program.id}/projects`
      const a = await project(ws, 'A')
      const hidden = await project(ws, 'Hidden', design.id)
      const b = await project(ws, 'B')
      for (const p of [a, hidden, b]) await ws.api.put(`${path}/${p.id}`)

      const guest = await teamGuest(ws, 'manage')
      await ws.api.put(`${base}/programs/${program.id}/teams/${ws.teamId}`)
      expect(ids(await readAll({ ...ws, api: guest.api }, path, 1))).toEqual([a.id, b.id])
      const reveal = await guest.api.post(`${path}/reorder`, { projectIds: [b.id, a.id, hidden.id] })
      expect(reveal.status).toBe(422)
      expect((await guest.api.post(`${path}/reorder`, { projectIds: [b.id, a.id] })).status).toBe(204)
      expect(ids(await readAll(ws, path, 10))).toEqual([b.id, hidden.id, a.id])
      expect((await guest.api.delete(`${path}/${hidden.id}`)).status).toBe(404)
      expect(ids(await readAll(ws, path, 10))).toContain(hidden.id)
      // The add event names the hidden project under its own team: the guest's stream does not carry it.
      const stream = (await guest.api.get(`${base}/stream`)).body.data
      expect(stream.filter((e: any) => e.data?.projectId === hidden.id)).toEqual([])
    })
  })

  describe('members and teams', () => {
    it('adds, pages and removes members and teams', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const program = (await ws.api.post(`${base}/programs`, { name: 'People' })).body
      const members = `${base}/programs/${program.id}/members`
      const people = [await ws.addMember('member'), await ws.addMember('member'), await ws.addMember('guest')]
      for (const p of people) {
        const added = await ws.api.put(`${members}/${p.memberId}`)
        expect(added).toMatchObject({ status: 200, body: { programId: program.id, memberId: p.memberId } })
      }
      expect((await ws.api.put(`${members}/${people[0]!.memberId}`)).status).toBe(200)
      expect((await readAll(ws, members, 2)).map((m: any) => m.memberId)).toEqual(
        people.map((p) => p.memberId).sort(),
      )
      expect((await ws.api.delete(`${members}/${people[1]!.memberId}`)).status).toBe(204)
      expect((await ws.api.delete(`${members}/${people[1]!.memberId}`)).status).toBe(204)
      expect((await ws.api.put(`${members}/mem_01JD3Q2R4S5T6V7W8X9YZABCDE`)).body.code).toBe(
        'reference_not_found',
      )
      // Adding members needs assign.
      const contributor = await ws.addMember('guest')
      await grant(ws, contributor.memberId, 'contribute', { type: 'org' })
      expect(await contributor.api.put(`${members}/${contributor.memberId}`)).toMatchObject({
        status: 403,
        body: { capability: 'assign' },
      })

      const teams = `${base}/programs/${program.id}/teams`
      const t2 = (await ws.api.post(`${base}/teams`, { name: 'Two', key: 'TWO' })).body
      const t3 = (await ws.api.post(`${base}/teams`, { name: 'Three', key: 'THR' })).body
      for (const t of [ws.teamId, t2.id, t3.id]) expect((await ws.api.put(`${teams}/${t}`)).status).toBe(200)
      expect((await readAll(ws, teams, 2)).map((t: any) => t.teamId)).toEqual(
        [ws.teamId, t2.id, t3.id].sort(),
      )
      expect(ids((await ws.api.get(`${base}/programs?teamId=${t2.id}`)).body.data)).toEqual([program.id])
      // A guest sees only the teams it may view.
      const guest = await teamGuest(ws, 'view', t3.id)
      expect((await readAll({ ...ws, api: guest.api }, teams, 1)).map((t: any) => t.teamId)).toEqual([t3.id])
      expect((await ws.api.delete(`${teams}/${t2.id}`)).status).toBe(204)
      expect((await ws.api.delete(`${teams}/${t2.id}`)).status).toBe(204)
      expect((await ws.api.get(`${base}/programs?teamId=${t2.id}`)).body.data).toEqual([])

      const kinds = (await ws.api.get(`${base}/stream`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining([
          'program.member_added',
          'program.member_removed',
          'program.team_added',
          'program.team_removed',
        ]),
      )
    })
  })

  describe('history', () => {
    it('records field and link changes, pages them, and leaves out what the reader cannot view', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
      const program = (await ws.api.post(`${base}/programs`, { name: 'Hist' })).body
      const path = `${base}/programs/${program.id}`
      await ws.api.patch(path, { name: 'History', status: 'paused' })
      const open = await project(ws, 'Open')
      const hidden = await project(ws, 'Hidden', design.id)
      await ws.api.put(`${path}/projects/${open.id}`)
      await ws.api.put(`${path}/projects/${hidden.id}`)
      await ws.api.delete(`${path}/projects/${open.id}`)
      const member = await ws.addMember('member')
      await ws.api.put(`${path}/members/${member.memberId}`)
      await ws.api.put(`${path}/teams/${design.id}`)
      // The program's team the guest below may view: what lets a guest read the program at all.
      await ws.api.put(`${path}/teams/${ws.teamId}`)
      await ws.api.post(`${path}/archive`)

      // Newest first; reversed here to read in the order things happened.
      const all = (await readAll(ws, `${path}/history`, 2)).reverse()
      expect(all.map((e) => [e.field, e.before, e.after])).toEqual([
        ['created', null, { name: 'Hist' }],
        ['name', 'Hist', 'History'],
        ['status', 'active', 'paused'],
        ['projects', null, open.id],
        ['projects', null, hidden.id],
        ['projects', open.id, null],
        ['members', null, member.memberId],
        ['teams', null, design.id],
        ['teams', null, ws.teamId],
        ['archivedAt', null, expect.any(String)],
      ])
      expect(new Set(all.map((e) => e.actorId)).size).toBe(1)

      const guest = await teamGuest(ws, 'view')
      const seen = (await readAll({ ...ws, api: guest.api }, `${path}/history`, 3)).reverse()
      expect(seen.map((e) => e.field)).toEqual([
        'created',
        'name',
        'status',
        'projects',
        'projects',
        'members',
        'teams',
        'archivedAt',
      ])
      expect(JSON.stringify(seen)).not.toContain(hidden.id)
      expect(JSON.stringify(seen)).not.toContain(design.id)
    })
  })

  describe('status updates and rollup', () => {
    it('posts program updates through the update resource and sets the program health', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const program = (await ws.api.post(`${base}/programs`, { name: 'Reliability' })).body
      const quiet = (await ws.api.post(`${base}/programs`, { name: 'Quiet' })).body
      const list = `${base}/programs/${program.id}/updates`
      const listed = `${base}/updates?subjectType=program&subjectId=${program.id}`
      const p = await project(ws, 'P')
      await ws.api.put(`${base}/programs/${program.id}/projects/${p.id}`)
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'a', projectId: p.id })
      await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title: 'b',
        projectId: p.id,
        stateId: ws.states.Done!.id,
      })

      const first = await ws.api.post(list, { body: 'Start', health: 'onTrack' })
      expect(first.status).toBe(201)
      expect(first.body).toMatchObject({
        subjectType: 'program',
        subjectId: program.id,
        progress: { tasks: 2, completedTasks: 1, completedRatio: 0.5 },
      })
      const second = (await ws.api.post(list, { body: 'Wobbly', health: 'atRisk' })).body
      await ws.api.post(list, { body: 'Third', health: 'offTrack' })
      expect((await readAll(ws, listed, 2)).map((u) => u.body)).toEqual(['Third', 'Wobbly', 'Start'])
      expect((await ws.api.get(`${base}/programs/${program.id}`)).body.health).toBe('offTrack')
      expect(ids((await ws.api.get(`${base}/programs?health=offTrack`)).body.data)).toEqual([program.id])
      expect(ids((await ws.api.get(`${base}/programs?health=none`)).body.data)).toEqual([quiet.id])

      // The item operations are shared with project updates.
      const third = (await ws.api.get(`${listed}&health=offTrack`)).body.data[0]
      expect((await ws.api.post(`${base}/updates/${third.id}/archive`)).status).toBe(200)
      expect((await ws.api.get(`${base}/programs/${program.id}`)).body.health).toBe('atRisk')
      expect((await ws.api.patch(`${base}/updates/${second.id}`, { health: 'onTrack' })).status).toBe(200)
      expect((await ws.api.get(`${base}/programs/${program.id}`)).body.health).toBe('onTrack')
      expect((await ws.api.delete(`${base}/updates/${second.id}`)).status).toBe(204)

      const guest = await ws.addMember('guest')
      expect((await guest.api.get(listed)).body.data).toEqual([])
      await grant(ws, guest.memberId, 'view', { type: 'program', id: program.id })
      expect((await guest.api.get(listed)).body.data.map((u: any) => u.body)).toEqual(['Start'])
      expect((await guest.api.get(`${listed}&archived=only`)).body.data.map((u: any) => u.id)).toEqual([
        third.id,
      ])
      expect((await guest.api.post(list, { body: 'x', health: 'onTrack' })).status).toBe(403)
      await ws.api.post(`${base}/programs/${program.id}/archive`)
      expect(await ws.api.post(list, { body: 'x', health: 'onTrack' })).toMatchObject({
        status: 409,
        body: { code: 'archived' },
      })
      const kinds = (await ws.api.get(`${base}/stream`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining([
          'program_update.created',
          'program_update.updated',
          'program_update.archived',
          'program_update.deleted',
        ]),
      )
      expect((await ws.api.delete(`${base}/programs/${program.id}`)).status).toBe(204)
      expect((await ws.api.get(`${base}/updates/${first.body.id}`)).status).toBe(404)
    })

    it('rolls up progress and health over the projects the reader can view, with reasons', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
      const program = (await ws.api.post(`${base}/programs`, { name: 'Launch' })).body
      const a = await project(ws, 'Alpha')
      const b = await project(ws, 'Beta')
      const secret = await project(ws, 'Secret', design.id)
      for (const p of [a, b, secret]) await ws.api.put(`${base}/programs/${program.id}/projects/${p.id}`)
      const post = (id: string, health: string) =>
        ws.api.post(`${base}/projects/${id}/updates`, { body: health, health })
      await post(a.id, 'atRisk')
      await post(b.id, 'onTrack')
      await post(secret.id, 'offTrack')
      await ws.api.post(`${base}/programs/${program.id}/updates`, { body: 'ok', health: 'onTrack' })
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 't1', projectId: a.id, estimate: 3 })
      await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title: 't2',
        projectId: b.id,
        estimate: 1,
        stateId: ws.states.Done!.id,
      })
      const designStates = (await ws.api.get(`${base}/teams/${design.id}/states`)).body.data
      const done = designStates.find((s: any) => s.category === 'completed').id
      await ws.api.post(`${base}/tasks`, {
        teamId: design.id,
        title: 's',
        projectId: secret.id,
        estimate: 8,
        stateId: done,
      })

      const full = (await ws.api.get(`${base}/programs/${program.id}/rollup`)).body
      expect(full).toMatchObject({
        health: 'onTrack',
        computedHealth: {
          value: 'offTrack',
          reasons: ['1 project off track: Secret', '1 project at risk: Alpha'],
        },
        projects: { total: 3, open: 3, byHealth: { onTrack: 1, atRisk: 1, offTrack: 1, none: 0 } },
        total: { tasks: 3, points: 12 },
      })
      expect(full.completedRatio).toBeCloseTo(9 / 12)

      const guest = await teamGuest(ws, 'view')
      const partial = (await guest.api.get(`${base}/programs/${program.id}/rollup`)).body
      expect(partial).toMatchObject({
        computedHealth: { value: 'atRisk', reasons: ['1 project at risk: Alpha'] },
        projects: { total: 2, open: 2, byHealth: { onTrack: 1, atRisk: 1, offTrack: 0, none: 0 } },
        total: { tasks: 2, points: 4 },
      })
      expect(partial.completedRatio).toBeCloseTo(1 / 4)
      expect(JSON.stringify(partial)).not.toContain('Secret')
    })
  })
})
