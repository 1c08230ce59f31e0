import { nextUpdateDue } from '@workgraph/core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('project updates', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('posts updates with a progress snapshot, lists them newest first by page, filters, edits with history', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const list = `${base}/projects/${project.id}/updates`
    // One project's updates are `updates.list` filtered by subject.
    const listed = `${base}/updates?subjectType=project&subjectId=${project.id}`

    const empty = await ws.api.post(list, { body: 'Kickoff', health: 'onTrack' })
    expect(empty.status).toBe(201)
    expect(empty.headers.get('location')).toBe(`${base}/updates/${empty.body.id}`)
    expect(empty.body).toMatchObject({
      id: expect.stringMatching(/^upd_/),
      subjectType: 'project',
      subjectId: project.id,
      body: 'Kickoff',
      health: 'onTrack',
      authorId: expect.stringMatching(/^mem_/),
      progress: null,
      editedAt: null,
      archivedAt: null,
    })

    const me = empty.body.authorId
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'a', projectId: project.id })
    await ws.api.post(`${base}/tasks`, {
      teamId: ws.teamId,
      title: 'b',
      projectId: project.id,
      stateId: ws.states.Done!.id,
    })
    const risky = await ws.api.post(list, { body: 'Slipping', health: 'atRisk' })
    expect(risky.body.progress).toEqual({ tasks: 2, completedTasks: 1, completedRatio: 0.5 })
    const late = (await ws.api.post(list, { body: 'Late', health: 'offTrack' })).body
    // The snapshot stays as it was, whatever happens to the tasks later.
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'c', projectId: project.id })
    expect((await ws.api.get(`${base}/updates/${risky.body.id}`)).body.progress.tasks).toBe(2)

    const first = await ws.api.get(`${listed}&limit=2`)
    const second = await ws.api.get(`${listed}&limit=2&cursor=${first.body.nextCursor}`)
    expect([...first.body.data, ...second.body.data].map((u: any) => u.body)).toEqual([
      'Late',
      'Slipping',
      'Kickoff',
    ])
    expect(second.body.nextCursor).toBeNull()
    const atRisk = await ws.api.get(`${listed}&health=atRisk`)
    expect(atRisk.body.data.map((u: any) => u.id)).toEqual([risky.body.id])

    const item = `${base}/updates/${late.id}`
    const edited = await ws.api.patch(item, { body: 'Late, recovering', health: 'atRisk' })
    expect(edited.body).toMatchObject({
      body: 'Late, recovering',
      health: 'atRisk',
      editedAt: expect.any(String),
    })
    await ws.api.patch(item, { health: 'onTrack' })
    // An edit that changes nothing keeps no revision.
    await ws.api.patch(item, { health: 'onTrack' })
    expect((await ws.api.get(item)).body).toMatchObject({ body: 'Late, recovering', health: 'onTrack' })
    const h1 = await ws.api.get(`${item}/history?limit=1`)
    const h2 = await ws.api.get(`${item}/history?limit=1&cursor=${h1.body.nextCursor}`)
    expect([...h1.body.data, ...h2.body.data].map((r: any) => [r.body, r.health, r.editorId])).toEqual([
      ['Late, recovering', 'atRisk', me],
      ['Late', 'offTrack', me],
    ])
    expect(h2.body.nextCursor).toBeNull()

    const archived = await ws.api.post(`${item}/archive`)
    expect(archived.body.archivedAt).not.toBeNull()
    expect((await ws.api.get(listed)).body.data.map((u: any) => u.id)).not.toContain(late.id)
    expect((await ws.api.get(`${listed}&archived=only`)).body.data.map((u: any) => u.id)).toEqual([late.id])
    expect((await ws.api.get(`${listed}&archived=include`)).body.data.map((u: any) => u.id)).toEqual([
      late.id,
      risky.body.id,
      empty.body.id,
    ])
    expect((await ws.api.post(`${item}/restore`)).body.archivedAt).toBeNull()

    expect((await ws.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    expect((await ws.api.get(`${item}/history`)).status).toBe(404)
    const kinds = (await ws.api.get(`${base}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(
      expect.arrayContaining([
        'project_update.created',
        'project_update.updated',
        'project_update.archived',
        'project_update.restored',
        'project_update.deleted',
      ]),
    )
  })

  it('refuses updates on an archived project, and deletes updates with their project', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const update = (
      await ws.api.post(`${base}/projects/${project.id}/updates`, { body: 'x', health: 'onTrack' })
    ).body
    await ws.api.patch(`${base}/updates/${update.id}`, { body: 'y' })
    await ws.api.post(`${base}/projects/${project.id}/archive`)
    const refused = await ws.api.post(`${base}/projects/${project.id}/updates`, {
      body: 'z',
      health: 'onTrack',
    })
    expect(refused).toMatchObject({ status: 409, body: { code: 'archived' } })
    expect((await ws.api.delete(`${base}/projects/${project.id}`)).status).toBe(204)
    expect((await ws.api.get(`${base}/updates/${update.id}`)).status).toBe(404)
  })

  it('lets the author or a manager edit; hides the updates of a project the caller cannot view', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const hidden = (await ws.api.post(`${base}/projects`, { name: 'Hidden', teamIds: [design.id] })).body
    const shared = (await ws.api.post(`${base}/projects`, { name: 'Shared', teamIds: [ws.teamId] })).body
    const secret = (
      await ws.api.post(`${base}/projects/${hidden.id}/updates`, { body: 'secret', health: 'offTrack' })
    ).body

    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    // The feed never lists the updates of a project the caller cannot view, archived or not.
    const hiddenFeed = `${base}/updates?subjectType=project&subjectId=${hidden.id}&archived=include`
    expect((await viewer.api.get(hiddenFeed)).body).toEqual({ data: [], nextCursor: null })
    expect((await ws.api.get(hiddenFeed)).body.data.map((u: any) => u.id)).toEqual([secret.id])
    expect((await viewer.api.get(`${base}/updates/${secret.id}`)).status).toBe(404)
    expect((await viewer.api.get(`${base}/updates/${secret.id}/history`)).status).toBe(404)
    expect((await viewer.api.patch(`${base}/updates/${secret.id}`, { body: 'x' })).status).toBe(404)
    expect((await viewer.api.delete(`${base}/updates/${secret.id}`)).status).toBe(404)
    const post = await viewer.api.post(`${base}/projects/${shared.id}/updates`, {
      body: 'x',
      health: 'onTrack',
    })
    expect(post).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })

    const author = await ws.addMember('guest')
    await grant(ws, author.memberId, 'contribute')
    const own = await author.api.post(`${base}/projects/${shared.id}/updates`, {
      body: 'mine',
      health: 'atRisk',
    })
    expect(own.status).toBe(201)
    expect(own.body.authorId).toBe(author.memberId)
    expect((await author.api.patch(`${base}/updates/${own.body.id}`, { body: 'mine, edited' })).status).toBe(
      200,
    )
    expect((await author.api.post(`${base}/updates/${own.body.id}/archive`)).status).toBe(200)
    expect((await author.api.post(`${base}/updates/${own.body.id}/restore`)).status).toBe(200)

    const other = await ws.addMember('guest')
    await grant(ws, other.memberId, 'contribute')
    const foreign = await other.api.patch(`${base}/updates/${own.body.id}`, { body: 'not mine' })
    expect(foreign).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'manage' },
    })
    expect((await other.api.delete(`${base}/updates/${own.body.id}`)).status).toBe(403)
    expect((await other.api.post(`${base}/updates/${own.body.id}/archive`)).status).toBe(403)

    const manager = await ws.addMember('guest')
    await grant(ws, manager.memberId, 'manage')
    expect((await manager.api.patch(`${base}/updates/${own.body.id}`, { health: 'onTrack' })).status).toBe(
      200,
    )
    const history = await manager.api.get(`${base}/updates/${own.body.id}/history`)
    expect(history.body.data.map((r: any) => [r.body, r.editorId])).toEqual([
      ['mine, edited', manager.memberId],
      ['mine', author.memberId],
    ])
    expect((await author.api.delete(`${base}/updates/${own.body.id}`)).status).toBe(204)
  })
})

/** A Monday, noon UTC. The server's clock reads `now`, which a test may move on. */
const START = Date.parse('2030-03-04T12:00:00.000Z')

describeEachDatabase('project health and update cadence', (db) => {
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
  async function signIn(ws: Awaited<ReturnType<typeof newWorkspace>>) {
    const token = await server.engine.tokens.issueAccessToken({
      userId: ws.owner.user.id,
      scopes: ['work:read', 'work:write'],
    })
    return server.as(token)
  }

  it('takes health from the latest unarchived update, filters projects by it, and says when an update is due', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const quiet = (await ws.api.post(`${base}/projects`, { name: 'Quiet', teamIds: [ws.teamId] })).body
    expect(quiet).toMatchObject({
      health: null,
      lastUpdateAt: null,
      updateCadence: 'orgDefault',
      updateWeekday: 'friday',
      nextUpdateDueAt: null,
      updateDue: false,
    })
    const project = (
      await ws.api.post(`${base}/projects`, {
        name: 'Busy',
        teamIds: [ws.teamId],
        updateCadence: 'weekly',
        updateWeekday: 'monday',
      })
    ).body
    // Before the first update the cadence counts from the project's creation.
    expect(project.nextUpdateDueAt).toBe(
      nextUpdateDue('weekly', 'monday', project.createdAt, project.statusCategory, false),
    )
    expect(project.updateDue).toBe(false)
    const updates = `${base}/projects/${project.id}/updates`
    const first = (await ws.api.post(updates, { body: 'a', health: 'onTrack' })).body
    const second = (await ws.api.post(updates, { body: 'b', health: 'offTrack' })).body
    const read = (await ws.api.get(`${base}/projects/${project.id}`)).body
    expect(read).toMatchObject({ health: 'offTrack', lastUpdateAt: second.createdAt })
    expect(read.nextUpdateDueAt).toBe(nextUpdateDue('weekly', 'monday', second.createdAt, 'backlog', false))

    const healthOf = async (health: string) =>
      (await ws.api.get(`${base}/projects?health=${health}`)).body.data.map((p: any) => p.name)
    expect(await healthOf('offTrack')).toEqual(['Busy'])
    expect(await healthOf('onTrack')).toEqual([])
    expect(await healthOf('none')).toEqual(['Quiet'])

    // Archiving the latest update falls back to the one before it; editing its health counts at once.
    await ws.api.post(`${base}/updates/${second.id}/archive`)
    expect((await ws.api.get(`${base}/projects/${project.id}`)).body).toMatchObject({
      health: 'onTrack',
      lastUpdateAt: first.createdAt,
    })
    expect(await healthOf('onTrack')).toEqual(['Busy'])
    await ws.api.patch(`${base}/updates/${first.id}`, { health: 'atRisk' })
    expect((await ws.api.get(`${base}/projects/${project.id}`)).body.health).toBe('atRisk')
    await ws.api.post(`${base}/updates/${first.id}/archive`)
    expect(await healthOf('none')).toEqual(['Busy', 'Quiet'])

    const off = await ws.api.patch(`${base}/projects/${project.id}`, { updateCadence: 'none' })
    expect(off.body).toMatchObject({ updateCadence: 'none', nextUpdateDueAt: null, updateDue: false })
  })

  it('marks an update due once its day has come, until one is posted', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const project = (
      await ws.api.post(`${base}/projects`, {
        name: 'P',
        teamIds: [ws.teamId],
        updateCadence: 'weekly',
        updateWeekday: 'wednesday',
      })
    ).body
    expect(project).toMatchObject({ nextUpdateDueAt: '2030-03-06T00:00:00.000Z', updateDue: false })
    now = Date.parse('2030-03-06T00:30:00.000Z')
    let api = await signIn(ws)
    const item = `${base}/projects/${project.id}`
    expect((await api.get(item)).body.updateDue).toBe(true)
    expect((await api.get(`${base}/projects`)).body.data[0].updateDue).toBe(true)
    await api.post(`${item}/updates`, { body: 'Done for the week', health: 'onTrack' })
    expect((await api.get(item)).body).toMatchObject({
      nextUpdateDueAt: '2030-03-13T00:00:00.000Z',
      updateDue: false,
    })
    now = Date.parse('2030-03-13T01:00:00.000Z')
    api = await signIn(ws)
    expect((await api.get(item)).body.updateDue).toBe(true)
    const statuses = (await api.get(`${base}/project-statuses`)).body.data
    const completed = statuses.find((s: any) => s.category === 'completed').id
    const done = await api.patch(item, { statusId: completed })
    expect(done.body).toMatchObject({ nextUpdateDueAt: null, updateDue: false })
  })
})

describe('nextUpdateDue', () => {
  // 2030-01-04 is a Friday.
  const due = (cadence: 'none' | 'weekly' | 'biweekly', since: string, weekday = 'friday' as const) =>
    nextUpdateDue(cadence, weekday, since, 'started', false)?.slice(0, 10) ?? null

  it('is the first weekday at least period - 6 days after the latest update, at 00:00 UTC', () => {
    expect(due('weekly', '2030-01-04T10:00:00.000Z')).toBe('2030-01-11')
    expect(due('weekly', '2030-01-03T23:59:00.000Z')).toBe('2030-01-04')
    expect(due('weekly', '2030-01-05T00:00:00.000Z')).toBe('2030-01-11')
    expect(due('biweekly', '2030-01-04T10:00:00.000Z')).toBe('2030-01-18')
    // Eight days after a Thursday is a Friday: the gap is 8 to 14 days.
    expect(due('biweekly', '2030-01-03T10:00:00.000Z')).toBe('2030-01-11')
    expect(due('biweekly', '2030-01-05T10:00:00.000Z')).toBe('2030-01-18')
    expect(nextUpdateDue('weekly', 'monday', '2030-01-04T10:00:00.000Z', 'started', false)).toBe(
      '2030-01-07T00:00:00.000Z',
    )
  })

  it('expects nothing without a cadence, or of an archived, completed or canceled project', () => {
    expect(due('none', '2030-01-04T10:00:00.000Z')).toBeNull()
    expect(nextUpdateDue('weekly', 'friday', '2030-01-04T10:00:00.000Z', 'started', true)).toBeNull()
    expect(nextUpdateDue('weekly', 'friday', '2030-01-04T10:00:00.000Z', 'completed', false)).toBeNull()
    expect(nextUpdateDue('weekly', 'friday', '2030-01-04T10:00:00.000Z', 'canceled', false)).toBeNull()
    expect(nextUpdateDue('weekly', 'friday', '2030-01-04T10:00:00.000Z', 'paused', false)).not.toBeNull()
  })
})
