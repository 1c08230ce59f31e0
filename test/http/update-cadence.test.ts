import { nextDueAt, nextUpdateDue, type UserId } from '@workgraph/core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

// A Monday.
const START = Date.parse('2030-03-04T12:00:00.000Z')

describeEachDatabase('update cadence, updates due and update requests', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = START
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  beforeEach(() => {
    now = START
  })
  afterAll(() => server.drop())

  /** Access tokens live 15 minutes of the server's clock: a test that moves it signs in again. */
  async function signIn(userId: UserId) {
    const token = await server.engine.tokens.issueAccessToken({ userId, scopes: ['work:read', 'work:write'] })
    return server.as(token)
  }
  const notify = () => server.engine.notify({ onError: (e) => console.error(e) })
  const inbox = async (api: TestWorkspace['api'], orgId: string) =>
    ((await api.get(`/v1/orgs/${orgId}/notifications`)).body.data as any[]).map((n) => [n.kind, n.record.id])

  it('reads the defaults, changes them with manage on the org, and refuses bad values', async () => {
    const ws = await newWorkspace(server)
    const settings = `/v1/orgs/${ws.orgId}/update-settings`
    const off = { everyWeeks: 0, weekday: 'friday', hour: 9 }
    expect((await ws.api.get(settings)).body).toEqual({
      project: off,
      program: off,
      initiative: off,
      updatedAt: null,
    })
    const changed = await ws.api.patch(settings, {
      project: { everyWeeks: 1, weekday: 'wednesday', hour: 10 },
      initiative: { everyWeeks: 2 },
    })
    expect(changed.status).toBe(200)
    expect(changed.body).toEqual({
      project: { everyWeeks: 1, weekday: 'wednesday', hour: 10 },
      program: off,
      initiative: { ...off, everyWeeks: 2 },
      updatedAt: new Date(START).toISOString(),
    })
    expect((await ws.api.get(settings)).body).toEqual(changed.body)

    const member = await ws.addMember('member')
    expect(await member.api.patch(settings, { program: { everyWeeks: 1 } })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'manage' },
    })
    expect(await ws.api.patch(settings, { project: { hour: 24 } })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    })
    expect((await ws.api.patch(settings, {})).status).toBe(400)
    expect((await ws.api.get(settings)).body.program).toEqual(off)

    const events = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.filter(
      (e: any) => e.kind === 'update_settings.updated',
    )
    expect(events).toHaveLength(1)
    expect(events[0].data.changes.project).toMatchObject({ everyWeeks: { before: 0, after: 1 } })
  })

  it("feeds projects that follow the org default; a project's own cadence overrides it", async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const follows = (await ws.api.post(`${base}/projects`, { name: 'Follows', teamIds: [ws.teamId] })).body
    expect(follows).toMatchObject({ updateCadence: 'orgDefault', nextUpdateDueAt: null, updateDue: false })
    const own = (
      await ws.api.post(`${base}/projects`, {
        name: 'Own',
        teamIds: [ws.teamId],
        updateCadence: 'weekly',
        updateWeekday: 'monday',
      })
    ).body
    await ws.api.patch(`${base}/update-settings`, {
      project: { everyWeeks: 2, weekday: 'thursday', hour: 15 },
    })
    const read = (await ws.api.get(`${base}/projects/${follows.id}`)).body
    expect(read.nextUpdateDueAt).toBe(nextDueAt(2, 'thursday', 15, follows.createdAt))
    expect(read.nextUpdateDueAt).toBe('2030-03-14T15:00:00.000Z')
    const listed = (await ws.api.get(`${base}/projects`)).body.data
    expect(listed.find((p: any) => p.id === own.id).nextUpdateDueAt).toBe(
      nextUpdateDue('weekly', 'monday', own.createdAt, own.statusCategory, false),
    )
    // Turning its own cadence off leaves the project without a due date, whatever the org says.
    const none = await ws.api.patch(`${base}/projects/${follows.id}`, { updateCadence: 'none' })
    expect(none.body).toMatchObject({ updateCadence: 'none', nextUpdateDueAt: null })
  })

  it('lists what is due or overdue, earliest first, by page, for the owner and only where the reader can view', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const other = await ws.addMember('member')
    await ws.api.patch(`${base}/update-settings`, {
      project: { everyWeeks: 1, weekday: 'wednesday', hour: 10 },
      initiative: { everyWeeks: 1, weekday: 'tuesday', hour: 8 },
    })
    const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'Growth' })).body
    const me = initiative.creatorId
    await ws.api.patch(`${base}/initiatives/${initiative.id}`, { ownerId: me })
    const mine = (await ws.api.post(`${base}/projects`, { name: 'Mine', teamIds: [ws.teamId], leadId: me }))
      .body
    const theirs = (
      await ws.api.post(`${base}/projects`, { name: 'Theirs', teamIds: [ws.teamId], leadId: other.memberId })
    ).body
    await ws.api.post(`${base}/projects`, { name: 'Quiet', teamIds: [ws.teamId], updateCadence: 'none' })
    await ws.api.post(`${base}/programs`, { name: 'Platform' }) // programs: the default is off
    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const guest = await teamGuest(ws, 'view', design.id)

    now = Date.parse('2030-03-06T11:00:00.000Z')
    const api = await signIn(ws.owner.user.id)
    const due = await api.get(`${base}/updates/due`)
    expect(due.status).toBe(200)
    expect(due.body.data.map((d: any) => [d.name, d.nextUpdateDueAt, d.overdue])).toEqual([
      ['Growth', '2030-03-05T08:00:00.000Z', true],
      ['Mine', '2030-03-06T10:00:00.000Z', false],
      ['Theirs', '2030-03-06T10:00:00.000Z', false],
    ])
    expect(due.body.data[0]).toEqual({
      subjectType: 'initiative',
      subjectId: initiative.id,
      name: 'Growth',
      ownerId: me,
      lastUpdateAt: null,
      nextUpdateDueAt: '2030-03-05T08:00:00.000Z',
      overdue: true,
    })

    const first = await api.get(`${base}/updates/due?limit=2`)
    const second = await api.get(`${base}/updates/due?limit=2&cursor=${first.body.nextCursor}`)
    expect([...first.body.data, ...second.body.data].map((d: any) => d.name)).toEqual([
      'Growth',
      'Mine',
      'Theirs',
    ])
    expect(second.body.nextCursor).toBeNull()

    const ownedByMe = await api.get(`${base}/updates/due?ownerId=me&subjectType=project`)
    expect(ownedByMe.body.data.map((d: any) => d.subjectId)).toEqual([mine.id])
    const byOther = await api.get(`${base}/updates/due?ownerId=${other.memberId}`)
    expect(byOther.body.data.map((d: any) => d.subjectId)).toEqual([theirs.id])

    // Posting an update moves the project to its next due date.
    await api.post(`${base}/projects/${mine.id}/updates`, { body: 'On it', health: 'onTrack' })
    expect(
      (await api.get(`${base}/updates/due?subjectType=project`)).body.data.map((d: any) => d.name),
    ).toEqual(['Theirs'])

    // A guest of another team sees none of it.
    const guestApi = await signIn(guest.user.id)
    expect((await guestApi.get(`${base}/updates/due?subjectType=project`)).body.data).toEqual([])
    expect((await api.get(`${base}/updates/due?ownerId=nobody`)).status).toBe(400)
  })

  it('asks the lead once a day until they post, notifying them once', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const lead = await ws.addMember('member')
    const project = (
      await ws.api.post(`${base}/projects`, { name: 'Launch', teamIds: [ws.teamId], leadId: lead.memberId })
    ).body
    const requests = `${base}/update-requests`
    const asked = await ws.api.post(requests, {
      subjectType: 'project',
      subjectId: project.id,
      note: 'Still on for March?',
    })
    expect(asked.status).toBe(201)
    expect(asked.body).toMatchObject({
      id: expect.stringMatching(/^ureq_/),
      subjectType: 'project',
      subjectId: project.id,
      recipientId: lead.memberId,
      note: 'Still on for March?',
    })
    const again = await ws.api.post(requests, { subjectType: 'project', subjectId: project.id })
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'update_already_requested', requestedAt: asked.body.createdAt },
    })
    await notify()
    await notify()
    expect(await inbox(lead.api, ws.orgId)).toEqual([['updateRequested', project.id]])
    expect(await inbox(ws.api, ws.orgId)).toEqual([])

    // An update answers the request: asking again the same day is fine.
    now += 60_000
    const leadApi = await signIn(lead.user.id)
    await leadApi.post(`${base}/projects/${project.id}/updates`, { body: 'Yes', health: 'onTrack' })
    now += 60_000
    const ownerApi = await signIn(ws.owner.user.id)
    expect((await ownerApi.post(requests, { subjectType: 'project', subjectId: project.id })).status).toBe(
      201,
    )
    // And a day later, an unanswered request no longer blocks another.
    now += 86_400_000
    const later = await signIn(ws.owner.user.id)
    expect((await later.post(requests, { subjectType: 'project', subjectId: project.id })).status).toBe(201)

    const kinds = (await later.get(`${base}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds.filter((k: string) => k === 'update_request.created')).toHaveLength(3)
  })

  it('refuses a record without a lead, one the caller cannot view, and never notifies an owner who cannot view it', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const requests = `${base}/update-requests`
    const leaderless = (await ws.api.post(`${base}/projects`, { name: 'Nobody', teamIds: [ws.teamId] })).body
    expect(await ws.api.post(requests, { subjectType: 'project', subjectId: leaderless.id })).toMatchObject({
      status: 422,
      body: { code: 'no_update_owner' },
    })

    // Asking needs comment: a view-only reader of the project may not.
    const lead = await ws.addMember('member')
    const led = (
      await ws.api.post(`${base}/projects`, { name: 'Led', teamIds: [ws.teamId], leadId: lead.memberId })
    ).body
    const viewer = await teamGuest(ws, 'view')
    expect(await viewer.api.post(requests, { subjectType: 'project', subjectId: led.id })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'comment' },
    })
    const commenter = await teamGuest(ws, 'comment')
    expect((await commenter.api.post(requests, { subjectType: 'project', subjectId: led.id })).status).toBe(
      201,
    )

    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const outsider = await teamGuest(ws, 'view', design.id)
    expect(
      (await outsider.api.post(requests, { subjectType: 'project', subjectId: leaderless.id })).status,
    ).toBe(422)
    expect(
      (await ws.api.post(requests, { subjectType: 'project', subjectId: 'team_01JD3Q2R4S5T6V7W8X9YZABCDE' }))
        .status,
    ).toBe(400)

    // The initiative holds no project the guest can view: they own it in name but cannot view it.
    const initiative = (
      await ws.api.post(`${base}/initiatives`, { name: 'Hidden', ownerId: outsider.memberId })
    ).body
    const asked = await ws.api.post(requests, { subjectType: 'initiative', subjectId: initiative.id })
    expect(asked.status).toBe(201)
    expect(asked.body.recipientId).toBe(outsider.memberId)
    await notify()
    expect(await inbox(outsider.api, ws.orgId)).toEqual([])
  })
})
