import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grant, teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id)

describeEachDatabase('initiatives', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  describe('derived shapes', () => {
    it('creates, reads, filters by page, edits with lifecycle stamps and history, archives, restores, deletes', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}/initiatives`
      const owner = await ws.addMember('member')
      const created = await ws.api.post(base, {
        name: 'Onboarding',
        description: 'First task **without help**.',
        ownerId: owner.memberId,
        targetDate: '2030-06-30',
      })
      expect(created.status).toBe(201)
      expect(created.headers.get('location')).toBe(`${base}/${created.body.id}`)
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^ini_/),
        status: 'planned',
        parentId: null,
        health: null,
        startedAt: null,
        ownerId: owner.memberId,
      })
      const one = created.body
      const two = (
        await ws.api.post(base, { name: 'Reliability', status: 'active', targetDate: '2030-01-31' })
      ).body
      expect(two.startedAt).not.toBeNull()
      const three = (await ws.api.post(base, { name: 'Growth', status: 'active', parentId: two.id })).body

      expect((await readAll(ws, base, 2)).map((i) => i.name)).toEqual(['Growth', 'Reliability', 'Onboarding'])
      expect(ids(await ws.api.get(`${base}?status=active`))).toEqual([three.id, two.id])
      expect(ids(await ws.api.get(`${base}?ownerId=${owner.memberId}`))).toEqual([one.id])
      expect(ids(await ws.api.get(`${base}?ownerId=none`))).toEqual([three.id, two.id])
      expect(ids(await ws.api.get(`${base}?parentId=none`))).toEqual([two.id, one.id])
      expect(ids(await ws.api.get(`${base}?parentId=${two.id}`))).toEqual([three.id])
      expect(ids(await ws.api.get(`${base}?targetBefore=2030-02-01`))).toEqual([two.id])
      expect(ids(await ws.api.get(`${base}?targetAfter=2030-02-01`))).toEqual([one.id])
      expect(ids(await ws.api.get(`${base}?health=none`))).toHaveLength(3)
      expect((await ws.api.get(`${base}/${one.id}`)).body).toEqual({ ...one, metric: null })

      const active = await ws.api.patch(`${base}/${one.id}`, { status: 'active' })
      expect(active.body.startedAt).not.toBeNull()
      const done = await ws.api.patch(`${base}/${one.id}`, { status: 'completed', name: 'Onboarding v1' })
      expect(done.body).toMatchObject({
        status: 'completed',
        name: 'Onboarding v1',
        completedAt: expect.any(String),
      })
      const reopened = await ws.api.patch(`${base}/${one.id}`, { status: 'active' })
      expect(reopened.body).toMatchObject({ completedAt: null, startedAt: active.body.startedAt })
      const badOwner = await ws.api.patch(`${base}/${one.id}`, { ownerId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE' })
      expect(badOwner).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })

      expect((await ws.api.post(`${base}/${one.id}/archive`)).body.archivedAt).not.toBeNull()
      expect(ids(await ws.api.get(base))).not.toContain(one.id)
      expect(ids(await ws.api.get(`${base}?archived=only`))).toEqual([one.id])
      expect((await ws.api.post(`${base}/${one.id}/restore`)).body.archivedAt).toBeNull()

      const history = await readAll(ws, `${base}/${one.id}/history`, 2)
      expect(history.map((h) => h.action)).toEqual([
        'restored',
        'archived',
        'updated',
        'updated',
        'updated',
        'created',
      ])
      expect(history[3].changes).toMatchObject({
        status: { before: 'active', after: 'completed' },
        name: { before: 'Onboarding', after: 'Onboarding v1' },
      })

      expect((await ws.api.delete(`${base}/${one.id}`)).status).toBe(204)
      expect((await ws.api.get(`${base}/${one.id}`)).status).toBe(404)
      expect((await ws.api.get(`${base}/${one.id}/history`)).status).toBe(404)
      const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining([
          'initiative.created',
          'initiative.updated',
          'initiative.archived',
          'initiative.restored',
          'initiative.deleted',
        ]),
      )
    })

    it('needs contribute on the org to write and manage to delete', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}/initiatives`
      const guest = await teamGuest(ws, 'manage')
      expect(await guest.api.post(base, { name: 'X' })).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'contribute' },
      })
      const member = await ws.addMember('member')
      const mine = await member.api.post(base, { name: 'Mine' })
      expect(mine.status).toBe(201)
      expect((await member.api.delete(`${base}/${mine.body.id}`)).status).toBe(403)
      expect((await ws.api.delete(`${base}/${mine.body.id}`)).status).toBe(204)
    })
  })

  describe('hierarchy', () => {
    it('lists sub-initiatives by page, refuses cycles with their path and nesting past five levels, reads the tree', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}/initiatives`
      const make = async (name: string, parentId?: string) =>
        (await ws.api.post(base, { name, ...(parentId ? { parentId } : {}) })).body
      const root = await make('Root')
      const kids = [await make('A', root.id), await make('B', root.id), await make('C', root.id)]
      // An initiative's sub-initiatives are `initiatives.list?parentId=`, newest first.
      expect((await readAll(ws, `${base}?parentId=${root.id}`, 2)).map((i) => i.name)).toEqual([
        'C',
        'B',
        'A',
      ])
      expect((await readAll(ws, `${base}?parentId=none`, 2)).map((i) => i.name)).toEqual(['Root'])

      const a1 = await make('A1', kids[0].id)
      const a2 = await make('A2', a1.id)
      const cycle = await ws.api.patch(`${base}/${root.id}`, { parentId: a2.id })
      expect(cycle).toMatchObject({
        status: 409,
        body: { code: 'initiative_cycle', path: [root.id, kids[0].id, a1.id, a2.id] },
      })
      expect((await ws.api.patch(`${base}/${a1.id}`, { parentId: a1.id })).body).toMatchObject({
        code: 'initiative_cycle',
        path: [a1.id],
      })
      // Root > A > A1 > A2 > A3 is five levels; a sixth is refused, on create and on move.
      const a3 = await make('A3', a2.id)
      expect(await ws.api.post(base, { name: 'A4', parentId: a3.id })).toMatchObject({
        status: 409,
        body: { code: 'initiative_depth' },
      })
      const lone = await make('Lone')
      expect((await ws.api.patch(`${base}/${lone.id}`, { parentId: a3.id })).body.code).toBe(
        'initiative_depth',
      )
      // Moving a subtree of two levels under B (level 2) makes four levels: accepted.
      const moved = await ws.api.patch(`${base}/${a2.id}`, { parentId: kids[1].id })
      expect(moved.body.parentId).toBe(kids[1].id)
      expect((await ws.api.get(`${base}/${a3.id}`)).body.parentId).toBe(a2.id)
      expect((await ws.api.patch(`${base}/${kids[1].id}`, { parentId: a3.id })).body.code).toBe(
        'initiative_cycle',
      )

      const tree = await ws.api.get(`${base}/tree`)
      expect(tree.status).toBe(200)
      expect(tree.body.data.map((n: any) => [n.name, n.depth])).toEqual([
        ['Root', 0],
        ['A', 1],
        ['A1', 2],
        ['B', 1],
        ['A2', 2],
        ['A3', 3],
        ['C', 1],
        ['Lone', 0],
      ])
      const sub = await ws.api.get(`${base}/tree?rootId=${kids[1].id}`)
      expect(sub.body.data.map((n: any) => [n.name, n.depth, n.parentId])).toEqual([
        ['B', 0, null],
        ['A2', 1, kids[1].id],
        ['A3', 2, a2.id],
      ])

      // Deleting B moves A2 (and A3 under it) up to Root; nesting stays consistent afterwards.
      expect((await ws.api.delete(`${base}/${kids[1].id}`)).status).toBe(204)
      expect((await ws.api.get(`${base}/${a2.id}`)).body.parentId).toBe(root.id)
      expect((await ws.api.patch(`${base}/${root.id}`, { parentId: a3.id })).body).toMatchObject({
        code: 'initiative_cycle',
        path: [root.id, a2.id, a3.id],
      })
      const deeper = await ws.api.post(base, { name: 'A4', parentId: a3.id })
      expect(deeper.status).toBe(201)
      const nesting = await readAll(ws, `${base}/${root.id}/history`, 2)
      expect(nesting.map((h) => h.action)).toEqual(['created'])
      const a2History = await readAll(ws, `${base}/${a2.id}/history`, 2)
      expect(a2History[0].changes).toEqual({ parentId: { before: a1.id, after: kids[1].id } })
    })
  })

  describe('projects, members and rollups', () => {
    it('links projects in order (manage on the project), lists them by page, and unlinks them', async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const ini = (await ws.api.post(`${o}/initiatives`, { name: 'I' })).body
      const projects = []
      for (const name of ['P1', 'P2', 'P3']) {
        projects.push((await ws.api.post(`${o}/projects`, { name, teamIds: [ws.teamId] })).body)
      }
      const url = `${o}/initiatives/${ini.id}/projects`
      for (const p of [projects[2], projects[0], projects[1]]) {
        const res = await ws.api.put(`${url}/${p.id}`)
        expect(res.status).toBe(200)
        expect(res.body).toMatchObject({ initiativeId: ini.id, projectId: p.id, name: p.name, health: null })
      }
      // Idempotent: linking again changes nothing.
      expect((await ws.api.put(`${url}/${projects[2].id}`)).body.position).toBe(0)
      expect((await readAll(ws, url, 2)).map((l) => l.name)).toEqual(['P3', 'P1', 'P2'])

      const member = await ws.addMember('member')
      expect(await member.api.put(`${url}/${projects[0].id}`)).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'manage' },
      })
      await grant(ws, member.memberId, 'manage')
      expect((await member.api.put(`${url}/${projects[0].id}`)).status).toBe(200)

      expect((await ws.api.delete(`${url}/${projects[0].id}`)).status).toBe(204)
      expect((await ws.api.delete(`${url}/${projects[0].id}`)).status).toBe(204)
      // A deleted project leaves its initiatives.
      expect((await ws.api.delete(`${o}/projects/${projects[1].id}`)).status).toBe(204)
      expect((await readAll(ws, url, 2)).map((l) => l.name)).toEqual(['P3'])
      const history = (await readAll(ws, `${o}/initiatives/${ini.id}/history`, 2)).map((h) => h.action)
      expect(history.slice(0, 2)).toEqual(['project_removed', 'project_added'])

      await ws.api.post(`${o}/initiatives/${ini.id}/archive`)
      expect((await ws.api.put(`${url}/${projects[0].id}`)).body.code).toBe('archived')
      const kinds = (await ws.api.get(`${o}/stream`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining(['initiative.project_added', 'initiative.project_removed']),
      )
    })

    it('adds, lists by page and removes members', async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const ini = (await ws.api.post(`${o}/initiatives`, { name: 'I' })).body
      const url = `${o}/initiatives/${ini.id}/members`
      const people = [await ws.addMember('member'), await ws.addMember('member'), await ws.addMember('guest')]
      for (const p of people) {
        const res = await ws.api.put(`${url}/${p.memberId}`)
        expect(res).toMatchObject({ status: 200, body: { initiativeId: ini.id, memberId: p.memberId } })
      }
      expect((await ws.api.put(`${url}/${people[0]!.memberId}`)).status).toBe(200)
      expect((await readAll(ws, url, 2)).map((m) => m.memberId)).toEqual(people.map((p) => p.memberId))
      const unknown = await ws.api.put(`${url}/mem_01JD3Q2R4S5T6V7W8X9YZABCDE`)
      expect(unknown).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
      expect((await ws.api.delete(`${url}/${people[1]!.memberId}`)).status).toBe(204)
      expect((await ws.api.delete(`${url}/${people[1]!.memberId}`)).status).toBe(204)
      expect((await readAll(ws, url, 2)).map((m) => m.memberId)).toEqual([
        people[0]!.memberId,
        people[2]!.memberId,
      ])
      const kinds = (await ws.api.get(`${o}/stream`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(expect.arrayContaining(['initiative.member_added', 'initiative.member_removed']))
    })

    it('rolls progress and health up over sub-initiatives, counting only what the reader can see', async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${o}/teams`, { name: 'Design', key: 'DES' })).body
      const designStates = (await ws.api.get(`${o}/teams/${design.id}/states`)).body.data
      const designDone = designStates.find((s: any) => s.category === 'completed').id
      const root = (await ws.api.post(`${o}/initiatives`, { name: 'Root' })).body
      const child = (await ws.api.post(`${o}/initiatives`, { name: 'Child', parentId: root.id })).body
      const secret = (await ws.api.post(`${o}/initiatives`, { name: 'Secret', parentId: root.id })).body
      const shared = (await ws.api.post(`${o}/projects`, { name: 'Shared', teamIds: [ws.teamId, design.id] }))
        .body
      const hidden = (await ws.api.post(`${o}/projects`, { name: 'Hidden', teamIds: [design.id] })).body
      await ws.api.put(`${o}/initiatives/${root.id}/projects/${shared.id}`)
      await ws.api.put(`${o}/initiatives/${child.id}/projects/${shared.id}`)
      await ws.api.put(`${o}/initiatives/${secret.id}/projects/${hidden.id}`)
      const task = (teamId: string, projectId: string, stateId?: string, estimate?: number) =>
        ws.api.post(`${o}/tasks`, {
          teamId,
          title: 't',
          projectId,
          ...(stateId ? { stateId } : {}),
          estimate,
        })
      await task(ws.teamId, shared.id, ws.states.Done!.id, 3)
      await task(ws.teamId, shared.id, undefined, 1)
      await task(design.id, shared.id, designDone, 4)
      await task(design.id, hidden.id, undefined, 8)
      await ws.api.post(`${o}/projects/${hidden.id}/updates`, { body: 'bad', health: 'offTrack' })
      await ws.api.post(`${o}/projects/${shared.id}/updates`, { body: 'meh', health: 'atRisk' })
      await ws.api.post(`${o}/initiatives/${child.id}/updates`, { body: 'fine', health: 'onTrack' })

      const full = (await ws.api.get(`${o}/initiatives/${root.id}/rollup`)).body
      expect(full).toMatchObject({ projects: 2, subInitiatives: 2, total: { tasks: 4, points: 16 } })
      expect(full.completedRatio).toBeCloseTo(7 / 16)
      expect(full.computedHealth).toEqual({
        value: 'offTrack',
        summary: '1 project off track: Hidden; 1 project at risk: Shared',
        reasons: [
          { type: 'project', id: hidden.id, name: 'Hidden', health: 'offTrack' },
          { type: 'project', id: shared.id, name: 'Shared', health: 'atRisk' },
        ],
      })

      // A guest on ENG sees Shared (through ENG) but not Hidden, nor the design tasks, nor Secret.
      const guest = await teamGuest(ws, 'view')
      const seen = (await guest.api.get(`${o}/initiatives/${root.id}/rollup`)).body
      expect(seen).toMatchObject({ projects: 1, subInitiatives: 1, total: { tasks: 2, points: 4 } })
      expect(seen.completedRatio).toBeCloseTo(3 / 4)
      expect(seen.computedHealth.value).toBe('atRisk')
      expect(JSON.stringify(seen)).not.toContain('Hidden')
      expect((await guest.api.get(`${o}/initiatives/${secret.id}`)).status).toBe(404)
      expect(ids(await guest.api.get(`${o}/initiatives`))).toEqual([child.id, root.id])
      expect((await guest.api.get(`${o}/initiatives/tree`)).body.data.map((n: any) => n.name)).toEqual([
        'Root',
        'Child',
      ])
      expect((await guest.api.get(`${o}/initiatives/${secret.id}/projects`)).status).toBe(404)
      expect((await guest.api.get(`${o}/initiatives/${secret.id}/rollup`)).status).toBe(404)
      expect(await guest.api.patch(`${o}/initiatives/${root.id}`, { name: 'x' })).toMatchObject({
        status: 403,
        body: { code: 'capability_required' },
      })
      const tree = (await ws.api.get(`${o}/initiatives/tree`)).body.data
      expect(tree.find((n: any) => n.id === root.id)).toMatchObject({
        computedHealth: 'offTrack',
        projects: 2,
      })
      expect(tree.find((n: any) => n.id === child.id)).toMatchObject({
        health: 'onTrack',
        computedHealth: 'atRisk',
        projects: 1,
      })
    })
  })
})
