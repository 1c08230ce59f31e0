import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grant, teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('notifications', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const notify = () => server.engine.notify({ onError: (e) => console.error(e) })
  const handle = (name: string) => `@${name.replace(/\s+/g, '').toLowerCase()}`

  async function inbox(api: TestWorkspace['api'], orgId: string, query = '') {
    return (await api.get(`/v1/orgs/${orgId}/notifications${query}`)).body.data as any[]
  }

  describe('derivation', () => {
    it('notifies assignees, mentions and followers once each, never the actor, never about what they cannot view', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const bob = await ws.addMember('member')
      const bobName = (await ws.api.get(`${base}/members/${bob.memberId}`)).body.name as string
      const other = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
      // A guest who sees only the Ops team.
      const guest = await teamGuest(ws, 'comment', other.id)
      const guestName = (await ws.api.get(`${base}/members/${guest.memberId}`)).body.name as string

      const task = (
        await ws.api.post(`${base}/tasks`, {
          teamId: ws.teamId,
          title: 'Fix login',
          assigneeId: bob.memberId,
          description: `Ask ${handle(guestName)} about it`,
        })
      ).body
      const first = await notify()
      expect(first.failed).toBe(0)
      const bobs = await inbox(bob.api, ws.orgId)
      expect(bobs).toEqual([
        expect.objectContaining({
          kind: 'assigned',
          recipientId: bob.memberId,
          record: { type: 'task', id: task.id },
          actorId: expect.stringMatching(/^mem_/),
          summary: `${task.key} Fix login`,
          state: 'unread',
        }),
      ])
      // The owner acted; the guest was mentioned on a task of a team they cannot see.
      expect(await inbox(ws.api, ws.orgId)).toEqual([])
      expect(await inbox(guest.api, ws.orgId)).toEqual([])

      // Bob follows the task as its assignee: a comment mentioning him is one `mentioned`, not two.
      await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: `${handle(bobName)} can you look?` })
      await ws.api.patch(`${base}/tasks/${task.id}`, { stateId: ws.states['In Progress']!.id })
      // Bob's own comment notifies the owner (a subscriber as creator), not Bob.
      await bob.api.post(`${base}/tasks/${task.id}/comments`, { body: 'On it' })
      await notify()
      expect((await inbox(bob.api, ws.orgId)).map((n) => n.kind)).toEqual([
        'stateChanged',
        'mentioned',
        'assigned',
      ])
      expect((await inbox(ws.api, ws.orgId)).map((n) => n.kind)).toEqual(['commented'])

      // Running the notifier again writes nothing twice.
      const again = await notify()
      expect(again.notifications).toBe(0)
      expect(await inbox(bob.api, ws.orgId)).toHaveLength(3)

      // Settings: Bob turns state changes off.
      const off = await bob.api.patch(`${base}/notification-settings`, { kinds: { stateChanged: false } })
      expect(off.status).toBe(200)
      expect(off.body.kinds).toMatchObject({ stateChanged: false, assigned: true })
      expect((await bob.api.get(`${base}/notification-settings`)).body.kinds.stateChanged).toBe(false)
      expect((await ws.api.get(`${base}/notification-settings`)).body).toMatchObject({
        kinds: { stateChanged: true },
        updatedAt: null,
      })
      await ws.api.patch(`${base}/tasks/${task.id}`, { stateId: ws.states.Done!.id })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toHaveLength(3)
      // An edit of the description notifies only the mentions it adds.
      await ws.api.patch(`${base}/tasks/${task.id}`, {
        description: `Ask ${handle(guestName)} and ${handle(bobName)} about it`,
      })
      await ws.api.patch(`${base}/tasks/${task.id}`, {
        description: `Ask ${handle(bobName)} and ${handle(guestName)} again`,
      })
      await notify()
      expect((await inbox(bob.api, ws.orgId)).map((n) => n.kind)).toEqual([
        'mentioned',
        'stateChanged',
        'mentioned',
        'assigned',
      ])

      // Notifications and settings are events only the recipient reads.
      const kindsOf = async (api: TestWorkspace['api']) =>
        (await api.get(`${base}/stream?limit=500`)).body.data.map((e: any) => e.kind)
      expect(await kindsOf(bob.api)).toEqual(
        expect.arrayContaining(['notification.created', 'notification_setting.updated']),
      )
      const ownerSees = (await ws.api.get(`${base}/stream?limit=500`)).body.data
      expect(ownerSees.filter((e: any) => e.kind === 'notification.created')).toHaveLength(1)
      expect(ownerSees.some((e: any) => e.kind === 'notification_setting.updated')).toBe(false)
    })

    it('tells project subscribers of status updates and lets projects be followed like tasks', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const bob = await ws.addMember('member')
      const carol = await ws.addMember('member')
      const project = (await ws.api.post(`${base}/projects`, { name: 'Beta', teamIds: [ws.teamId] })).body
      const subs = `${base}/projects/${project.id}/subscribers`
      const added = await bob.api.put(`${subs}/${bob.memberId}`)
      expect(added.status).toBe(200)
      expect(added.body).toMatchObject({ recordType: 'project', recordId: project.id, actorId: bob.memberId })
      expect((await bob.api.put(`${subs}/${bob.memberId}`)).status).toBe(200)
      // Someone else needs `manage`: a member does not have it on the project.
      expect((await bob.api.put(`${subs}/${carol.memberId}`)).status).toBe(403)
      expect((await ws.api.put(`${subs}/${carol.memberId}`)).status).toBe(200)
      const p1 = await ws.api.get(`${subs}?limit=2`)
      const p2 = await ws.api.get(`${subs}?limit=2&cursor=${p1.body.nextCursor}`)
      const all = [...p1.body.data, ...p2.body.data].map((s: any) => s.actorId)
      // The creator follows from the start.
      expect(all.sort()).toEqual([bob.memberId, carol.memberId, expect.stringMatching(/^mem_/)].sort())
      expect(p2.body.nextCursor).toBeNull()
      expect((await ws.api.delete(`${subs}/${carol.memberId}`)).status).toBe(204)
      expect((await ws.api.delete(`${subs}/${carol.memberId}`)).status).toBe(204)

      await ws.api.post(`${base}/projects/${project.id}/updates`, { body: 'All good', health: 'onTrack' })
      await notify()
      expect(await inbox(bob.api, ws.orgId)).toEqual([
        expect.objectContaining({
          kind: 'updatePosted',
          record: { type: 'project', id: project.id },
          summary: 'Beta',
        }),
      ])
      expect(await inbox(carol.api, ws.orgId)).toEqual([])
      // No longer a subscriber, Carol still hears of an update that mentions her.
      const carolName = (await ws.api.get(`${base}/members/${carol.memberId}`)).body.name as string
      await ws.api.post(`${base}/projects/${project.id}/updates`, {
        body: `Thanks ${handle(carolName)}!`,
        health: 'onTrack',
      })
      await notify()
      expect((await inbox(carol.api, ws.orgId)).map((n) => [n.kind, n.record.id])).toEqual([
        ['mentioned', project.id],
      ])
      expect((await inbox(bob.api, ws.orgId)).map((n) => n.kind)).toEqual(['updatePosted', 'updatePosted'])
      const kinds = (await ws.api.get(`${base}/stream?limit=500`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining(['project_subscriber.created', 'project_subscriber.deleted']),
      )
    })

    it('asks the members who can decide an approval request', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const driver = await ws.addMember('member')
      const bystander = await ws.addMember('member')
      const runner = server.as(
        await server.engine.tokens.issueAccessToken({
          userId: driver.user.id,
          scopes: ['work:read', 'work:write', 'agents:run'],
        }),
      )
      const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
      await ws.api.post(`${base}/grants`, {
        subjectType: 'agent',
        subjectId: agent.id,
        containerType: 'team',
        containerId: ws.teamId,
        capability: 'manage',
      })
      const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Old' })).body
      await notify()
      const session = (await runner.post(`${base}/agent-sessions`, { agentId: agent.id, taskId: task.id }))
        .body
      const proposed = await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
        operationId: 'tasks.delete',
        params: { taskId: task.id },
      })
      expect(proposed.body.outcome).toBe('pending_approval')
      await notify()
      expect(await inbox(ws.api, ws.orgId)).toEqual([
        expect.objectContaining({
          kind: 'approvalRequested',
          record: { type: 'approval_request', id: proposed.body.approvalRequest.id },
        }),
      ])
      // Neither the proposer nor a member without `manage` on the task.
      expect(await inbox(driver.api, ws.orgId)).toEqual([])
      expect(await inbox(bystander.api, ws.orgId)).toEqual([])
    })

    it('reminds assignees of due and overdue tasks once a day', async () => {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const bob = await ws.addMember('member')
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
      const soon = (
        await ws.api.post(`${base}/tasks`, {
          teamId: ws.teamId,
          title: 'Soon',
          assigneeId: bob.memberId,
          dueDate: day(1),
        })
      ).body
      const late = (
        await ws.api.post(`${base}/tasks`, {
          teamId: ws.teamId,
          title: 'Late',
          assigneeId: bob.memberId,
          dueDate: day(-2),
        })
      ).body
      await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title: 'Later',
        assigneeId: bob.memberId,
        dueDate: day(5),
      })
      await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title: 'Done',
        assigneeId: bob.memberId,
        dueDate: day(-1),
        stateId: ws.states.Done!.id,
      })
      await server.engine.remindDue()
      await server.engine.remindDue()
      const kinds = (await inbox(bob.api, ws.orgId, '?kind=dueSoon')).concat(
        await inbox(bob.api, ws.orgId, '?kind=overdue'),
      )
      expect(kinds.map((n) => [n.kind, n.record.id, n.actorId])).toEqual([
        ['dueSoon', soon.id, null],
        ['overdue', late.id, null],
      ])
    })
  })

  describe('the inbox', () => {
    /** A workspace where Bob has `count` unread `assigned` notifications, oldest first. */
    async function withNotifications(count: number) {
      const ws = await newWorkspace(server)
      const base = `/v1/orgs/${ws.orgId}`
      const bob = await ws.addMember('member')
      await grant(ws, bob.memberId, 'contribute')
      const tasks: any[] = []
      for (let i = 0; i < count; i++) {
        tasks.push(
          (
            await ws.api.post(`${base}/tasks`, {
              teamId: ws.teamId,
              title: `T${i}`,
              assigneeId: bob.memberId,
            })
          ).body,
        )
      }
      await notify()
      const list = await inbox(bob.api, ws.orgId, '?limit=200')
      return { ws, base, bob, tasks, ids: list.map((n) => n.id).reverse() as string[] }
    }

    it('pages newest first and filters by unread, kind and record', async () => {
      const { ws, bob, base, tasks, ids } = await withNotifications(5)
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: any = await bob.api.get(
          `${base}/notifications?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        )
        expect(page.status).toBe(200)
        seen.push(...page.body.data.map((n: any) => n.id))
        cursor = page.body.nextCursor
      } while (cursor)
      expect(seen).toEqual([...ids].reverse())
      const tampered = await bob.api.get(`${base}/notifications?limit=2&cursor=abc.def`)
      expect(tampered.status).toBe(400)

      await bob.api.post(`${base}/notifications/${ids[0]}/read`)
      expect((await inbox(bob.api, ws.orgId, '?unread=true')).map((n) => n.id)).not.toContain(ids[0])
      expect((await inbox(bob.api, ws.orgId, '?unread=false')).map((n) => n.id)).toEqual([ids[0]])
      expect((await inbox(bob.api, ws.orgId, `?recordId=${tasks[2].id}`)).map((n) => n.id)).toEqual([ids[2]])
      expect(await inbox(bob.api, ws.orgId, '?kind=mentioned')).toEqual([])
      expect((await bob.api.get(`${base}/notifications?kind=nope`)).status).toBe(400)
    })

    it('reads, snoozes, archives and restores one notification; others get 404', async () => {
      const { ws, bob, base, ids } = await withNotifications(2)
      const item = `${base}/notifications/${ids[0]}`
      expect((await bob.api.get(item)).body.state).toBe('unread')
      // Not the recipient, even the owner: it does not exist.
      expect((await ws.api.get(item)).status).toBe(404)
      expect((await ws.api.post(`${item}/read`)).status).toBe(404)

      const read = await bob.api.post(`${item}/read`)
      expect(read.body).toMatchObject({ state: 'read', readAt: expect.any(String) })
      expect((await bob.api.post(`${item}/read`)).body.readAt).toBe(read.body.readAt)
      expect((await bob.api.post(`${item}/unread`)).body).toMatchObject({ state: 'unread', readAt: null })

      const until = new Date(Date.now() + 3_600_000).toISOString()
      const snoozed = await bob.api.post(`${item}/snooze`, { until })
      expect(snoozed.body).toMatchObject({ state: 'snoozed', snoozedUntil: until })
      expect((await bob.api.post(`${item}/snooze`, { until: '2000-01-01T00:00:00Z' })).status).toBe(422)
      expect((await inbox(bob.api, ws.orgId)).map((n) => n.id)).toEqual([ids[1]])
      expect((await inbox(bob.api, ws.orgId, '?view=snoozed')).map((n) => n.id)).toEqual([ids[0]])
      expect((await bob.api.get(`${base}/notifications/counts`)).body).toEqual({
        unread: 1,
        inbox: 1,
        snoozed: 1,
        unreadByKind: { assigned: 1 },
      })
      expect((await bob.api.post(`${item}/unsnooze`)).body).toMatchObject({
        state: 'unread',
        snoozedUntil: null,
      })

      const archived = await bob.api.post(`${item}/archive`)
      expect(archived.body).toMatchObject({ state: 'archived', archivedAt: expect.any(String) })
      expect((await bob.api.post(`${item}/snooze`, { until })).status).toBe(409)
      expect((await inbox(bob.api, ws.orgId, '?view=archived')).map((n) => n.id)).toEqual([ids[0]])
      expect((await bob.api.post(`${item}/restore`)).body).toMatchObject({
        state: 'unread',
        archivedAt: null,
      })

      const kinds = (await bob.api.get(`${base}/stream?limit=500`)).body.data.map((e: any) => e.kind)
      expect(kinds.filter((k: string) => k === 'notification.updated')).toHaveLength(6)
    })

    it('marks all read, and acts on a batch by ids or by filter', async () => {
      const { bob, base, tasks, ids } = await withNotifications(4)
      const batch = `${base}/notifications/batch`
      const readAll = await bob.api.post(batch, {
        action: 'read',
        filter: { view: 'all', recordId: tasks[0].id },
      })
      expect(readAll.body).toEqual({ updated: 1 })
      expect((await bob.api.get(`${base}/notifications/counts`)).body.unread).toBe(3)
      expect((await bob.api.post(batch, { action: 'read', filter: { view: 'all' } })).body).toEqual({
        updated: 3,
      })
      expect((await bob.api.post(batch, { action: 'read', filter: { view: 'all' } })).body).toEqual({
        updated: 0,
      })

      const byIds = await bob.api.post(`${base}/notifications/batch`, {
        action: 'archive',
        ids: [ids[0], ids[1]],
      })
      expect(byIds.body).toEqual({ updated: 2 })
      const byFilter = await bob.api.post(`${base}/notifications/batch`, {
        action: 'unread',
        filter: { view: 'all' },
      })
      expect(byFilter.body).toEqual({ updated: 4 })
      const restored = await bob.api.post(`${base}/notifications/batch`, {
        action: 'restore',
        filter: { view: 'archived' },
      })
      expect(restored.body).toEqual({ updated: 2 })
      expect((await bob.api.get(`${base}/notifications/counts`)).body).toMatchObject({ unread: 4, inbox: 4 })
      const bad = await bob.api.post(`${base}/notifications/batch`, { action: 'read' })
      expect(bad.status).toBe(422)
      const both = await bob.api.post(`${base}/notifications/batch`, {
        action: 'read',
        ids: [ids[0]],
        filter: {},
      })
      expect(both.status).toBe(422)
    })
  })

  it('runs in the background, woken by the hub when a log grows', async () => {
    const ws = await newWorkspace(server)
    const bob = await ws.addMember('member')
    // A poll far away: only the hub's wake-up can bring the notification in time.
    const loop = server.engine.startNotifier({ pollMs: 600_000, onError: (e) => console.error(e) })
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
        teamId: ws.teamId,
        title: 'Live',
        assigneeId: bob.memberId,
      })
      await expect
        .poll(async () => (await inbox(bob.api, ws.orgId)).map((n) => n.kind), {
          timeout: 10_000,
          interval: 100,
        })
        .toEqual(['assigned'])
    } finally {
      await loop.stop()
    }
  })
})
