import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { readAll } from '../support/task-helpers.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const ids = (items: any[]) => items.map((i) => i.id)
const linked = (items: any[]) => items.map((i) => i.programId)

describeEachDatabase('programs and initiatives: links, comments, subscribers, timelines', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  }, 120_000)
  afterAll(() => server.drop())

  const notify = () => server.engine.notify({ onError: (e) => console.error(e) })
  async function project(
    ws: TestWorkspace,
    name: string,
    extra: Record<string, unknown> = {},
    teamId = ws.teamId,
  ) {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name, teamIds: [teamId], ...extra })
    if (res.status !== 201) throw new Error(JSON.stringify(res.body))
    return res.body
  }
  const kinds = async (ws: TestWorkspace) =>
    (await ws.api.get(`/v1/orgs/${ws.orgId}/stream?limit=500`)).body.data.map((e: any) => e.kind)

  describe('initiatives include programs', () => {
    it('links in order, pages, stays idempotent, unlinks, and lists a program’s initiatives', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'Grow' })).body
      const programs = []
      for (const name of ['Reliability', 'Onboarding', 'Billing'])
        programs.push((await ws.api.post(`${base}/programs`, { name })).body)
      const list = `${base}/initiatives/${initiative.id}/programs`
      for (const p of programs) {
        const added = await ws.api.put(`${list}/${p.id}`)
        expect(added.status).toBe(200)
        expect(added.body).toMatchObject({
          initiativeId: initiative.id,
          programId: p.id,
          program: { id: p.id, name: p.name },
        })
      }
      const again = await ws.api.put(`${list}/${programs[0].id}`)
      expect(again.body).toMatchObject({ programId: programs[0].id })
      const page = await readAll(ws, list, 2)
      expect(linked(page)).toEqual(ids(programs))

      const other = (await ws.api.post(`${base}/initiatives`, { name: 'Retain' })).body
      await ws.api.put(`${base}/initiatives/${other.id}/programs/${programs[0].id}`)
      const held = await readAll(ws, `${base}/programs/${programs[0].id}/initiatives`, 1)
      expect(ids(held)).toEqual([initiative.id, other.id])
      expect(held[0].initiative).toMatchObject({ id: initiative.id, name: 'Grow' })

      expect((await ws.api.delete(`${list}/${programs[1].id}`)).status).toBe(204)
      expect((await ws.api.delete(`${list}/${programs[1].id}`)).status).toBe(204)
      expect(linked(await readAll(ws, list, 5))).toEqual([programs[0].id, programs[2].id])
      const history = (await ws.api.get(`${base}/initiatives/${initiative.id}/history?limit=50`)).body.data
      expect(history.map((h: any) => h.action)).toEqual(
        expect.arrayContaining(['program_added', 'program_removed']),
      )
      expect(await kinds(ws)).toEqual(
        expect.arrayContaining(['initiative.program_added', 'initiative.program_removed']),
      )

      // Deleting either side drops the link, and nothing else.
      expect((await ws.api.delete(`${base}/programs/${programs[2].id}`)).status).toBe(204)
      expect(linked(await readAll(ws, list, 5))).toEqual([programs[0].id])
      expect((await ws.api.delete(`${base}/initiatives/${other.id}`)).status).toBe(204)
      expect(ids(await readAll(ws, `${base}/programs/${programs[0].id}/initiatives`, 5))).toEqual([
        initiative.id,
      ])
    })

    it('refuses unknown and archived programs, archived initiatives, and callers without manage on the program', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'Grow' })).body
      const program = (await ws.api.post(`${base}/programs`, { name: 'Reliability' })).body
      const list = `${base}/initiatives/${initiative.id}/programs`
      expect(await ws.api.put(`${list}/prg_01JD3Q2R4S5T6V7W8X9YZABCDE`)).toMatchObject({
        status: 404,
        body: { code: 'not_found' },
      })
      expect(await ws.api.put(`${list}/${initiative.id}`)).toMatchObject({ status: 400 })
      // A member may contribute to the initiative but does not manage the program.
      const member = await ws.addMember('member')
      expect(await member.api.put(`${list}/${program.id}`)).toMatchObject({
        status: 403,
        body: { code: 'capability_required' },
      })
      await ws.api.post(`${base}/programs/${program.id}/archive`)
      expect(await ws.api.put(`${list}/${program.id}`)).toMatchObject({
        status: 409,
        body: { code: 'archived' },
      })
      await ws.api.post(`${base}/programs/${program.id}/restore`)
      await ws.api.post(`${base}/initiatives/${initiative.id}/archive`)
      expect(await ws.api.put(`${list}/${program.id}`)).toMatchObject({
        status: 409,
        body: { code: 'archived' },
      })
      // Another org's initiative is a 404.
      const other = await newWorkspace(server)
      expect(
        (await other.api.get(`/v1/orgs/${other.orgId}/initiatives/${initiative.id}/programs`)).status,
      ).toBe(404)
    })

    it('lists to a program’s readers only the initiatives they can view', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DSN' })).body
      const program = (await ws.api.post(`${base}/programs`, { name: 'Reliability' })).body
      const seen = (await ws.api.post(`${base}/initiatives`, { name: 'Seen' })).body
      const hidden = (await ws.api.post(`${base}/initiatives`, { name: 'Hidden' })).body
      await ws.api.put(`${base}/initiatives/${seen.id}/projects/${(await project(ws, 'Eng work')).id}`)
      await ws.api.put(
        `${base}/initiatives/${hidden.id}/projects/${(await project(ws, 'Design work', {}, design.id)).id}`,
      )
      for (const i of [hidden, seen]) await ws.api.put(`${base}/initiatives/${i.id}/programs/${program.id}`)
      // The guest reads the program through its team, one the guest may view.
      await ws.api.put(`${base}/programs/${program.id}/teams/${ws.teamId}`)
      const guest = await teamGuest(ws, 'view')
      const page = await guest.api.get(`${base}/programs/${program.id}/initiatives?limit=1`)
      expect(ids(page.body.data)).toEqual([seen.id])
      expect(page.body.nextCursor).toBeNull()
      expect(ids(await readAll(ws, `${base}/programs/${program.id}/initiatives`, 1))).toEqual([
        hidden.id,
        seen.id,
      ])
    })
  })

  describe('comments and subscribers', () => {
    for (const kind of ['program', 'initiative'] as const) {
      it(`threads comments on a ${kind} and deletes them with it`, async () => {
        const ws = await newWorkspace(server)
        const base = `/v1/orgs/${ws.orgId}`
        const record = (await ws.api.post(`${base}/${kind}s`, { name: 'Sample' })).body
        const list = `${base}/${kind}s/${record.id}/comments`
        const root = await ws.api.post(list, { body: 'Why now?' })
        expect(root.status).toBe(201)
        expect(root.body).toMatchObject({
          subjectType: kind,
          subjectId: record.id,
          taskId: null,
          parentId: null,
        })
        const member = await ws.addMember('member')
        const reply = await member.api.post(list, { body: 'Because.', parentId: root.body.id })
        expect(reply.body).toMatchObject({ parentId: root.body.id })
        const third = await ws.api.post(list, { body: 'Another thread' })
        expect(ids(await readAll(ws, list, 2))).toEqual([root.body.id, reply.body.id, third.body.id])
        expect((await ws.api.get(`${base}/comments/${reply.body.id}`)).body.body).toBe('Because.')
        // A guest with no grant may not comment.
        const guest = await ws.addMember('guest')
        expect([403, 404]).toContain((await guest.api.post(list, { body: 'x' })).status)
        const stranger = await newWorkspace(server)
        expect(
          (await stranger.api.get(`/v1/orgs/${stranger.orgId}/${kind}s/${record.id}/comments`)).status,
        ).toBe(404)
        expect(await kinds(ws)).toEqual(expect.arrayContaining(['comment.created']))
        expect((await ws.api.delete(`${base}/${kind}s/${record.id}`)).status).toBe(204)
        expect((await ws.api.get(`${base}/comments/${root.body.id}`)).status).toBe(404)
      })

      it(`lets people follow a ${kind} and tells them of its status updates`, async () => {
        const ws = await newWorkspace(server)
        const base = `/v1/orgs/${ws.orgId}`
        const bob = await ws.addMember('member')
        const carol = await ws.addMember('member')
        const record = (await ws.api.post(`${base}/${kind}s`, { name: 'Followed' })).body
        const subs = `${base}/${kind}s/${record.id}/subscribers`
        const owner = (await ws.api.get(`${subs}`)).body.data.map((s: any) => s.actorId)
        expect(owner).toHaveLength(1)
        const added = await bob.api.put(`${subs}/${bob.memberId}`)
        expect(added).toMatchObject({
          status: 200,
          body: { recordType: kind, recordId: record.id, actorId: bob.memberId },
        })
        expect((await bob.api.put(`${subs}/${bob.memberId}`)).status).toBe(200)
        expect((await bob.api.put(`${subs}/${carol.memberId}`)).status).toBe(403)
        expect((await ws.api.put(`${subs}/${carol.memberId}`)).status).toBe(200)
        const all = (await readAll(ws, subs, 2)).map((s: any) => s.actorId)
        expect(all).toEqual([...owner, bob.memberId, carol.memberId].sort())
        expect((await carol.api.delete(`${subs}/${carol.memberId}`)).status).toBe(204)
        expect((await carol.api.delete(`${subs}/${carol.memberId}`)).status).toBe(204)

        await ws.api.post(`${base}/${kind}s/${record.id}/updates`, { body: 'All good', health: 'onTrack' })
        await notify()
        const inbox = async (api: TestWorkspace['api']) =>
          (await api.get(`${base}/notifications`)).body.data as any[]
        expect(await inbox(bob.api)).toEqual([
          expect.objectContaining({
            kind: 'updatePosted',
            record: { type: kind, id: record.id },
            summary: 'Followed',
          }),
        ])
        expect(await inbox(carol.api)).toEqual([])
        expect(await kinds(ws)).toEqual(
          expect.arrayContaining([`${kind}_subscriber.created`, `${kind}_subscriber.deleted`]),
        )
        expect((await ws.api.delete(`${base}/${kind}s/${record.id}`)).status).toBe(204)
        const gone = await server.storage.read((s) =>
          s.followers.list(ws.orgId as never, kind, record.id, {
            sort: 'actorId',
            direction: 'asc',
            after: null,
            limit: 100,
          }),
        )
        expect(gone).toEqual([])
      })
    }
  })

  describe('timelines', () => {
    it('reads a program’s and an initiative’s projects with dates, milestones and dependencies, hiding what the reader cannot view', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DSN' })).body
      const late = await project(ws, 'Late', { startDate: '2030-03-01', targetDate: '2030-04-01' })
      const early = await project(ws, 'Early', { startDate: '2030-01-01', targetDate: '2030-02-01' })
      const undated = await project(ws, 'Undated')
      const hidden = await project(ws, 'Hidden', { startDate: '2029-01-01' }, design.id)
      const archived = await project(ws, 'Archived')
      const beta = (
        await ws.api.post(`${base}/projects/${early.id}/milestones`, {
          name: 'Beta',
          targetDate: '2030-01-15',
        })
      ).body
      const blocks = (
        await ws.api.post(`${base}/projects/${early.id}/relations`, {
          type: 'blocks',
          milestoneId: beta.id,
          relatedProjectId: late.id,
        })
      ).body
      await ws.api.post(`${base}/projects/${early.id}/relations`, {
        type: 'related',
        relatedProjectId: undated.id,
      })
      await ws.api.post(`${base}/projects/${hidden.id}/relations`, {
        type: 'blocks',
        relatedProjectId: late.id,
      })

      const program = (await ws.api.post(`${base}/programs`, { name: 'Reliability' })).body
      for (const p of [late, hidden, undated, archived])
        await ws.api.put(`${base}/programs/${program.id}/projects/${p.id}`)
      await ws.api.post(`${base}/projects/${archived.id}/archive`)

      const timeline = await ws.api.get(`${base}/programs/${program.id}/timeline`)
      expect(timeline.status).toBe(200)
      expect(ids(timeline.body.projects)).toEqual([hidden.id, late.id, undated.id])
      expect(timeline.body.truncated).toBe(false)
      expect(timeline.body.dependencies).toEqual([
        {
          id: expect.any(String),
          projectId: hidden.id,
          milestoneId: null,
          relatedProjectId: late.id,
          relatedMilestoneId: null,
        },
      ])

      // The initiative: one project directly, one through a sub-initiative, the rest through the program.
      const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'Grow' })).body
      const child = (await ws.api.post(`${base}/initiatives`, { name: 'Child', parentId: initiative.id }))
        .body
      await ws.api.put(`${base}/initiatives/${child.id}/projects/${early.id}`)
      await ws.api.put(`${base}/initiatives/${initiative.id}/programs/${program.id}`)
      const whole = (await ws.api.get(`${base}/initiatives/${initiative.id}/timeline`)).body
      expect(ids(whole.projects)).toEqual([hidden.id, early.id, late.id, undated.id])
      expect(whole.projects[1]).toEqual({
        id: early.id,
        name: 'Early',
        statusCategory: early.statusCategory,
        startDate: '2030-01-01',
        targetDate: '2030-02-01',
        health: null,
        milestones: [{ id: beta.id, name: 'Beta', targetDate: '2030-01-15', status: expect.any(String) }],
      })
      expect(whole.dependencies.map((d: any) => d.id)).toEqual(expect.arrayContaining([blocks.id]))
      expect(whole.dependencies).toHaveLength(2)

      // A guest of the engineering team sees neither the design project nor its dependency.
      const guest = await teamGuest(ws, 'view')
      const seen = (await guest.api.get(`${base}/programs/${program.id}/timeline`)).body
      expect(ids(seen.projects)).toEqual([late.id, undated.id])
      expect(seen.dependencies).toEqual([])
      const seenWhole = (await guest.api.get(`${base}/initiatives/${initiative.id}/timeline`)).body
      expect(ids(seenWhole.projects)).toEqual([early.id, late.id, undated.id])
      expect(seenWhole.dependencies).toEqual([
        expect.objectContaining({ id: blocks.id, milestoneId: beta.id }),
      ])

      const stranger = await newWorkspace(server)
      expect(
        (await stranger.api.get(`/v1/orgs/${stranger.orgId}/programs/${program.id}/timeline`)).status,
      ).toBe(404)
      expect(
        (await stranger.api.get(`/v1/orgs/${stranger.orgId}/initiatives/${initiative.id}/timeline`)).status,
      ).toBe(404)
    })
  })
})
