import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('notification notification rules and mutes', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const notify = async () => {
    const pass = await server.engine.notify({ onError: (e) => console.error(e) })
    expect(pass.failed).toBe(0)
  }
  const handle = (name: string) => `@${name.replace(/\s+/g, '').toLowerCase()}`
  const inbox = async (api: TestWorkspace['api'], orgId: string) =>
    ((await api.get(`/v1/orgs/${orgId}/notifications`)).body.data as any[]).map((n) => [n.kind, n.record.id])

  describe('notification rules', () => {
    it('adds the followers of a team and a project, paused rules add nobody, and only the member sees a rule', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const subs = `${base}/notification-rules`
      const bob = await ws.addMember('member')
      const carol = await ws.addMember('member')
      const project = (await ws.api.post(`${base}/projects`, { name: 'Beta', teamIds: [ws.teamId] })).body

      const rule = await bob.api.post(subs, {
        target: { type: 'team', id: ws.teamId },
        kinds: ['taskCreated', 'commented'],
      })
      expect(rule.status).toBe(201)
      expect(rule.headers.get('location')).toBe(`${subs}/${rule.body.id}`)
      expect(rule.body).toMatchObject({
        memberId: bob.memberId,
        target: { type: 'team', id: ws.teamId },
        kinds: ['taskCreated', 'commented'],
        active: true,
      })
      const onProject = await bob.api.post(subs, {
        target: { type: 'project', id: project.id },
        kinds: ['updatePosted', 'stateChanged'],
      })
      expect(onProject.status).toBe(201)

      // A new task in the team; a comment on it; a state change (Bob's team rule does not ask for it).
      const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Followed' })).body
      await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: 'A note' })
      await ws.api.patch(`${base}/tasks/${task.id}`, { stateId: ws.states['In Progress']!.id })
      await ws.api.post(`${base}/projects/${project.id}/updates`, { body: 'Going well', health: 'onTrack' })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toEqual([
        ['updatePosted', project.id],
        ['commented', task.id],
        ['taskCreated', task.id],
      ])
      expect(await inbox(carol.api, ws.orgId)).toEqual([])

      // In the project, the project rule's `stateChanged` applies.
      const inProject = (
        await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'In Beta', projectId: project.id })
      ).body
      await ws.api.patch(`${base}/tasks/${inProject.id}`, { stateId: ws.states['In Progress']!.id })
      await notify()
      expect((await inbox(bob.api, ws.orgId)).slice(0, 2)).toEqual([
        ['stateChanged', inProject.id],
        ['taskCreated', inProject.id],
      ])

      // Paused, then removed: nothing more from the team.
      const paused = await bob.api.patch(`${subs}/${rule.body.id}`, { active: false })
      expect(paused.status).toBe(200)
      expect(paused.body).toMatchObject({ active: false, kinds: ['taskCreated', 'commented'] })
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Unheard' })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toHaveLength(5)
      expect(
        (await bob.api.patch(`${subs}/${rule.body.id}`, { active: true, kinds: ['taskCreated'] })).body,
      ).toMatchObject({ active: true, kinds: ['taskCreated'] })
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Heard again' })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toHaveLength(6)
      expect((await bob.api.delete(`${subs}/${rule.body.id}`)).status).toBe(204)
      expect((await bob.api.get(`${subs}/${rule.body.id}`)).status).toBe(404)
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Unheard again' })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toHaveLength(6)

      // Only Bob reads his rules; the events about them are his alone.
      expect((await carol.api.get(`${subs}/${onProject.body.id}`)).status).toBe(404)
      expect((await carol.api.patch(`${subs}/${onProject.body.id}`, { active: false })).status).toBe(404)
      expect((await carol.api.delete(`${subs}/${onProject.body.id}`)).status).toBe(404)
      expect((await carol.api.get(subs)).body.data).toEqual([])
      const kindsOf = async (api: TestWorkspace['api']) =>
        (await api.get(`${base}/stream?limit=500`)).body.data.map((e: any) => e.kind) as string[]
      expect(await kindsOf(bob.api)).toEqual(
        expect.arrayContaining([
          'notification_subscription.created',
          'notification_subscription.updated',
          'notification_subscription.deleted',
        ]),
      )
      expect((await kindsOf(carol.api)).some((k) => k.startsWith('notification_subscription'))).toBe(false)
    })

    it('refuses a duplicate, a kind the target cannot produce, and a target the caller cannot view', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const subs = `${base}/notification-rules`
      const program = (await ws.api.post(`${base}/programs`, { name: 'Platform' })).body
      const wrong = await ws.api.post(subs, {
        target: { type: 'program', id: program.id },
        kinds: ['updatePosted', 'taskCreated'],
      })
      expect(wrong.status).toBe(422)
      expect(wrong.body).toMatchObject({ code: 'rule_violated', errors: [{ pointer: '/body/kinds/1' }] })
      const ok = await ws.api.post(subs, {
        target: { type: 'program', id: program.id },
        kinds: ['updatePosted'],
      })
      expect(ok.status).toBe(201)
      const again = await ws.api.post(subs, {
        target: { type: 'program', id: program.id },
        kinds: ['updatePosted'],
      })
      expect(again.status).toBe(409)
      expect(again.body.code).toBe('conflict')
      expect((await ws.api.patch(`${subs}/${ok.body.id}`, { kinds: ['commented'] })).status).toBe(422)

      // A guest of another team cannot follow this one: it looks missing.
      const other = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
      const guest = await teamGuest(ws, 'view', other.id)
      const hidden = await guest.api.post(subs, {
        target: { type: 'team', id: ws.teamId },
        kinds: ['taskCreated'],
      })
      // A target named in the body that the caller cannot view is a bad value of that field.
      expect(hidden).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/body/target/id' }] },
      })
      const gone = await ws.api.post(subs, {
        target: { type: 'project', id: 'proj_01JD3Q2R4S5T6V7W8X9YZABCDE' },
        kinds: ['updatePosted'],
      })
      // Missing reads like hidden.
      expect(gone).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/body/target/id' }] },
      })
    })

    it('pages the rules newest first', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const subs = `${base}/notification-rules`
      const teams = [ws.teamId]
      for (const key of ['AAA', 'BBB'])
        teams.push((await ws.api.post(`${base}/teams`, { name: key, key })).body.id)
      const made: string[] = []
      for (const id of teams)
        made.push((await ws.api.post(subs, { target: { type: 'team', id }, kinds: ['taskCreated'] })).body.id)
      const p1 = await ws.api.get(`${subs}?limit=2`)
      expect(p1.body.data.map((s: any) => s.id)).toEqual([made[2], made[1]])
      const p2 = await ws.api.get(`${subs}?limit=2&cursor=${p1.body.nextCursor}`)
      expect(p2.body.data.map((s: any) => s.id)).toEqual([made[0]])
      expect(p2.body.nextCursor).toBeNull()
    })
  })

  describe('mutes', () => {
    it('silences a record for its assignee and followers except direct mentions, until removed', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const mutes = `${base}/notification-mutes`
      const bob = await ws.addMember('member')
      const carol = await ws.addMember('member')
      const bobName = (await ws.api.get(`${base}/members/${bob.memberId}`)).body.name as string
      const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Noisy' })).body

      const muted = await bob.api.post(mutes, { record: { type: 'task', id: task.id } })
      expect(muted.status).toBe(201)
      expect(muted.body).toMatchObject({
        memberId: bob.memberId,
        record: { type: 'task', id: task.id },
        until: null,
      })
      // Assigned, then followed as assignee: nothing; a mention still gets through.
      await ws.api.patch(`${base}/tasks/${task.id}`, { assigneeId: bob.memberId })
      await ws.api.patch(`${base}/tasks/${task.id}`, { stateId: ws.states['In Progress']!.id })
      await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: 'More noise' })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toEqual([])
      await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: `${handle(bobName)} please look` })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toEqual([['mentioned', task.id]])

      // Muting again sets `until` on the same mute; a past `until` is refused.
      const until = '2099-01-01T00:00:00.000Z'
      const again = await bob.api.post(mutes, { record: { type: 'task', id: task.id }, until })
      expect(again.body).toMatchObject({ id: muted.body.id, until })
      const past = await bob.api.post(mutes, {
        record: { type: 'task', id: task.id },
        until: '2001-01-01T00:00:00Z',
      })
      expect(past.status).toBe(422)
      expect((await bob.api.get(mutes)).body.data).toEqual([
        expect.objectContaining({ id: muted.body.id, until }),
      ])
      expect((await carol.api.get(mutes)).body.data).toEqual([])
      expect((await carol.api.delete(`${mutes}/${muted.body.id}`)).status).toBe(404)

      // Unmuted: the next comment reaches Bob as the assignee's follower.
      expect((await bob.api.delete(`${mutes}/${muted.body.id}`)).status).toBe(204)
      expect((await bob.api.delete(`${mutes}/${muted.body.id}`)).status).toBe(404)
      await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: 'Heard' })
      await notify()
      expect((await inbox(bob.api, ws.orgId))[0]).toEqual(['commented', task.id])

      const kinds = (await bob.api.get(`${base}/stream?limit=500`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining(['notification_mute.created', 'notification_mute.deleted']),
      )
      const ownerKinds = (await ws.api.get(`${base}/stream?limit=500`)).body.data.map((e: any) => e.kind)
      expect(ownerKinds.some((k: string) => k.startsWith('notification_mute'))).toBe(false)
    })

    it('mutes a project over a notification rule, refuses records the caller cannot view, and pages', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const mutes = `${base}/notification-mutes`
      const bob = await ws.addMember('member')
      const projects = []
      for (const name of ['One', 'Two', 'Three'])
        projects.push((await ws.api.post(`${base}/projects`, { name, teamIds: [ws.teamId] })).body)
      await bob.api.post(`${base}/notification-rules`, {
        target: { type: 'project', id: projects[0].id },
        kinds: ['updatePosted'],
      })
      const made: string[] = []
      for (const p of projects)
        made.push((await bob.api.post(mutes, { record: { type: 'project', id: p.id } })).body.id)
      await ws.api.post(`${base}/projects/${projects[0].id}/updates`, { body: 'Quiet', health: 'onTrack' })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toEqual([])

      const p1 = await bob.api.get(`${mutes}?limit=2`)
      expect(p1.body.data.map((m: any) => m.id)).toEqual([made[2], made[1]])
      const p2 = await bob.api.get(`${mutes}?limit=2&cursor=${p1.body.nextCursor}`)
      expect(p2.body.data.map((m: any) => m.id)).toEqual([made[0]])
      expect(p2.body.nextCursor).toBeNull()

      const other = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
      const guest = await teamGuest(ws, 'view', other.id)
      const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Hidden' })).body
      expect(await guest.api.post(mutes, { record: { type: 'task', id: task.id } })).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/body/record/id' }] },
      })
    })
  })
})
