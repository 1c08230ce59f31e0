import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('triage', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const notify = () => server.engine.notify({ onError: (e) => console.error(e) })
  const inbox = async (api: TestWorkspace['api'], orgId: string) =>
    (await api.get(`/v1/orgs/${orgId}/notifications`)).body.data as any[]

  /** A workspace whose team has triage on, and a guest who may only comment on the team. */
  async function withTriage() {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const on = await ws.api.patch(`${base}/teams/${ws.teamId}/settings`, { triageEnabled: true })
    expect(on.status).toBe(200)
    const states = (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data as any[]
    const triage = states.find((s) => s.category === 'triage')
    const requester = await teamGuest(ws, 'comment')
    const file = async (title: string) => {
      const res = await requester.api.post(`${base}/teams/${ws.teamId}/triage`, { title })
      expect(res.status).toBe(201)
      return res.body
    }
    return { ws, base, triage, requester, file }
  }

  it('turning triage on adds a Triage state; a commenter files into it, but cannot create tasks', async () => {
    const { ws, base, triage, requester, file } = await withTriage()
    expect(triage).toMatchObject({ name: 'Triage', position: 0 })
    const settings = await ws.api.get(`${base}/teams/${ws.teamId}/settings`)
    expect(settings.body).toMatchObject({ triageEnabled: true, estimateScale: 'free', defaultStateId: null })
    const item = await file('Export is broken')
    expect(item).toMatchObject({ stateId: triage.id, stateCategory: 'triage', creatorId: requester.memberId })
    const direct = await requester.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Direct' })
    expect(direct).toMatchObject({ status: 403, body: { code: 'capability_required' } })
    // Turning it on again adds no second state.
    await ws.api.patch(`${base}/teams/${ws.teamId}/settings`, { triageEnabled: false })
    await ws.api.patch(`${base}/teams/${ws.teamId}/settings`, { triageEnabled: true })
    const states = (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data as any[]
    expect(states.filter((s) => s.category === 'triage')).toHaveLength(1)
  })

  it('refuses requests while triage is off, and creates nothing', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const guest = await teamGuest(ws, 'comment')
    const res = await guest.api.post(`${base}/teams/${ws.teamId}/triage`, { title: 'Please' })
    expect(res).toMatchObject({ status: 409, body: { code: 'triage_disabled' } })
    expect((await ws.api.get(`${base}/tasks`)).body.data).toEqual([])
    const viewer = await teamGuest(ws, 'view')
    const denied = await viewer.api.post(`${base}/teams/${ws.teamId}/triage`, { title: 'Please' })
    expect(denied).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'comment' },
    })
  })

  it('routes tasks created by callers below assign into triage; members and explicit states go where they say', async () => {
    const { ws, base, triage } = await withTriage()
    const contributor = await teamGuest(ws, 'contribute')
    const routed = await contributor.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'From a guest' })
    expect(routed.body.stateId).toBe(triage.id)
    const own = await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Mine' })
    expect(own.body.stateId).toBe(ws.states.Backlog!.id)
    const todo = ws.states.Todo!.id
    const explicit = await contributor.api.post(`${base}/tasks`, {
      teamId: ws.teamId,
      title: 'To do',
      stateId: todo,
    })
    expect(explicit.body.stateId).toBe(todo)
  })

  it('uses the default state of the team settings, and refuses a triage or foreign one', async () => {
    const { ws, base, triage } = await withTriage()
    const todo = ws.states.Todo!.id
    const path = `${base}/teams/${ws.teamId}/settings`
    expect((await ws.api.patch(path, { defaultStateId: todo })).body.defaultStateId).toBe(todo)
    expect((await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'x' })).body.stateId).toBe(todo)
    const bad = await ws.api.patch(path, { defaultStateId: triage.id })
    expect(bad).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/defaultStateId' }] },
    })
    expect((await ws.api.get(path)).body.defaultStateId).toBe(todo)
  })

  it('checks estimates against the team scale', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    await ws.api.patch(`${base}/teams/${ws.teamId}/settings`, { estimateScale: 'fibonacci' })
    const bad = await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'x', estimate: 4 })
    expect(bad).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/estimate' }] },
    })
    const ok = await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'x', estimate: 5 })
    expect(ok.status).toBe(201)
    expect((await ws.api.patch(`${base}/tasks/${ok.body.id}`, { estimate: 6 })).status).toBe(422)
  })

  it('settings need manage: a member gets 403 and nothing changes; another org sees 404', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const member = await ws.addMember('member')
    for (const path of ['settings', 'triage-settings']) {
      const body =
        path === 'settings'
          ? { triageEnabled: true }
          : { responsibility: 'fixed', memberIds: [member.memberId] }
      const res = await member.api.patch(`${base}/teams/${ws.teamId}/${path}`, body)
      expect(res).toMatchObject({ status: 403, body: { code: 'capability_required', capability: 'manage' } })
      expect((await member.api.get(`${base}/teams/${ws.teamId}/${path}`)).body.updatedAt).toBeNull()
      const stranger = await newWorkspace(server)
      expect((await stranger.api.get(`${base}/teams/${ws.teamId}/${path}`)).status).toBe(404)
    }
  })

  it('lists the queue oldest first, in pages, hiding snoozed items until they wake', async () => {
    const { ws, base, file } = await withTriage()
    const a = await file('First')
    const b = await file('Second')
    const c = await file('Third')
    const queue = `${base}/teams/${ws.teamId}/triage`
    const first = await ws.api.get(`${queue}?limit=2`)
    expect(first.body.data.map((i: any) => i.task.title)).toEqual(['First', 'Second'])
    const second = await ws.api.get(`${queue}?limit=2&cursor=${first.body.nextCursor}`)
    expect(second.body).toMatchObject({ data: [{ id: c.id, snoozedUntil: null }], nextCursor: null })
    const bad = await ws.api.get(`${queue}?cursor=nonsense`)
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } })

    const until = new Date(Date.now() + 86_400_000).toISOString()
    const snoozed = await ws.api.post(`${base}/tasks/${b.id}/triage/snooze`, { until })
    expect(snoozed.body).toMatchObject({ id: b.id, snoozedUntil: until })
    expect((await ws.api.get(queue)).body.data.map((i: any) => i.id)).toEqual([a.id, c.id])
    const all = await ws.api.get(`${queue}?includeSnoozed=true`)
    expect(all.body.data.map((i: any) => [i.id, i.snoozedUntil])).toEqual([
      [a.id, null],
      [b.id, until],
      [c.id, null],
    ])
    const past = await ws.api.post(`${base}/tasks/${c.id}/triage/snooze`, {
      until: '2020-01-01T00:00:00.000Z',
    })
    expect(past).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/until' }] },
    })
  })

  it('accepts into a state with assignee, labels and cycle, and tells the requester', async () => {
    const { ws, base, requester, file } = await withTriage()
    const item = await file('Add dark mode')
    const label = (await ws.api.post(`${base}/labels`, { name: 'UI', teamId: ws.teamId })).body
    const member = await ws.addMember('member')
    const cycle = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, {
        startsAt: '2031-01-06T00:00:00.000Z',
        endsAt: '2031-01-20T00:00:00.000Z',
      })
    ).body
    const accepted = await ws.api.post(`${base}/tasks/${item.id}/triage/accept`, {
      stateId: ws.states.Todo!.id,
      assigneeId: member.memberId,
      labelIds: [label.id],
      cycleId: cycle.id,
    })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({
      stateId: ws.states.Todo!.id,
      assigneeId: member.memberId,
      labelIds: [label.id],
      cycleId: cycle.id,
    })
    expect((await ws.api.get(`${base}/teams/${ws.teamId}/triage`)).body.data).toEqual([])
    const again = await ws.api.post(`${base}/tasks/${item.id}/triage/accept`, {})
    expect(again).toMatchObject({ status: 409, body: { code: 'not_in_triage' } })
    await notify()
    expect((await inbox(requester.api, ws.orgId)).map((n) => [n.kind, n.record.id])).toContainEqual([
      'triaged',
      item.id,
    ])
    const events = (await ws.api.get(`${base}/stream`)).body.data.map((e: any) => e.kind)
    expect(events).toEqual(expect.arrayContaining(['task.triaged', 'task.updated']))
  })

  it('accepts into the default state when none is given, and refuses a triage state', async () => {
    const { ws, base, triage, file } = await withTriage()
    const item = await file('Something')
    const bad = await ws.api.post(`${base}/tasks/${item.id}/triage/accept`, { stateId: triage.id })
    expect(bad).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/stateId' }] } })
    const ok = await ws.api.post(`${base}/tasks/${item.id}/triage/accept`, {})
    expect(ok.body.stateId).toBe(ws.states.Backlog!.id)
  })

  it('declines with a reason the requester reads, moving the item to a canceled state', async () => {
    const { ws, base, requester, file } = await withTriage()
    const item = await file('Make it blue')
    const res = await ws.api.post(`${base}/tasks/${item.id}/triage/decline`, {
      reason: 'Brand colours are fixed',
    })
    expect(res.body).toMatchObject({ stateId: ws.states.Canceled!.id, stateCategory: 'canceled' })
    await notify()
    const [n] = await inbox(requester.api, ws.orgId)
    expect(n).toMatchObject({ kind: 'triaged' })
    expect(n.summary).toContain('declined: Brand colours are fixed')
  })

  it('marks a duplicate with a duplicateOf relation, canceling the item and telling the requester', async () => {
    const { ws, base, requester, file } = await withTriage()
    const original = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Known bug' })).body
    const item = await file('Same bug')
    const res = await ws.api.put(`${base}/tasks/${item.id}/relations/${original.id}`, { type: 'duplicateOf' })
    expect(res.status).toBe(200)
    expect((await ws.api.get(`${base}/tasks/${item.id}`)).body.stateCategory).toBe('canceled')
    await notify()
    const [n] = await inbox(requester.api, ws.orgId)
    expect(n).toMatchObject({ kind: 'triaged' })
    const relations = await ws.api.get(`${base}/tasks/${item.id}/relations`)
    expect(relations.body.data).toMatchObject([{ type: 'duplicateOf', task: { id: original.id } }])
  })

  it('decisions need contribute: the commenting requester gets 403 and the item stays; another org 404', async () => {
    const { ws, base, requester, file } = await withTriage()
    const item = await file('Please')
    for (const [action, body] of [
      ['accept', {}],
      ['decline', { reason: 'no' }],
      ['snooze', { until: '2099-01-01T00:00:00.000Z' }],
    ] as const) {
      const res = await requester.api.post(`${base}/tasks/${item.id}/triage/${action}`, body)
      expect(res).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'contribute' },
      })
    }
    expect((await ws.api.get(`${base}/teams/${ws.teamId}/triage`)).body.data).toHaveLength(1)
    const stranger = await newWorkspace(server)
    expect((await stranger.api.post(`${base}/tasks/${item.id}/triage/accept`, {})).status).toBe(404)
    expect((await stranger.api.get(`${base}/teams/${ws.teamId}/triage`)).status).toBe(404)
  })

  it('triage handlers: assigned or notified of new items; validation of the people named', async () => {
    const { ws, base, file } = await withTriage()
    const handler = await ws.addMember('member')
    const path = `${base}/teams/${ws.teamId}/triage-settings`
    const none = await ws.api.patch(path, { responsibility: 'fixed' })
    expect(none).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/memberIds' }] } })
    const assign = await ws.api.patch(path, {
      responsibility: 'fixed',
      action: 'assign',
      memberIds: [handler.memberId],
    })
    expect(assign.body).toMatchObject({
      responsibility: 'fixed',
      action: 'assign',
      memberIds: [handler.memberId],
    })
    expect((await file('Assigned')).assigneeId).toBe(handler.memberId)
    await ws.api.patch(path, { action: 'notify' })
    const notified = await file('Notified')
    expect(notified.assigneeId).toBeNull()
    await notify()
    expect((await inbox(handler.api, ws.orgId)).map((n) => [n.kind, n.record.id])).toEqual(
      expect.arrayContaining([['triageRequested', notified.id]]),
    )
    const cleared = await ws.api.patch(path, { responsibility: 'none' })
    expect(cleared.body).toMatchObject({ responsibility: 'none', memberIds: [] })
  })
})
