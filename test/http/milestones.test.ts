import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
const date = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10)

describeEachDatabase('milestones', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('creates milestones in order, reads, renames and deletes them', async () => {
    const ws = await newWorkspace(server)
    const project = (await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId] }))
      .body
    const list = `/v1/orgs/${ws.orgId}/projects/${project.id}/milestones`
    const alpha = await ws.api.post(list, { name: 'Alpha', targetDate: date(10), description: 'First' })
    expect(alpha.status).toBe(201)
    expect(alpha.headers.get('location')).toBe(`/v1/orgs/${ws.orgId}/milestones/${alpha.body.id}`)
    expect(alpha.body).toMatchObject({ projectId: project.id, position: 0, status: 'next' })
    const beta = await ws.api.post(list, { name: 'Beta' })
    expect(beta.body).toMatchObject({ position: 1, status: 'unstarted' })
    const clash = await ws.api.post(list, { name: 'alpha' })
    expect(clash).toMatchObject({
      status: 409,
      body: { code: 'conflict', errors: [{ pointer: '/body/name' }] },
    })

    const item = `/v1/orgs/${ws.orgId}/milestones/${beta.body.id}`
    const renamed = await ws.api.patch(item, { name: 'Beta 2', targetDate: date(20) })
    expect(renamed.body).toMatchObject({ name: 'Beta 2', targetDate: date(20) })
    expect((await ws.api.get(item)).body).toEqual(renamed.body)

    const first = await ws.api.get(`${list}?limit=1`)
    const second = await ws.api.get(`${list}?limit=1&cursor=${first.body.nextCursor}`)
    expect([...first.body.data, ...second.body.data].map((m: any) => m.name)).toEqual(['Alpha', 'Beta 2'])
    expect(second.body.nextCursor).toBeNull()

    expect((await ws.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(
      expect.arrayContaining(['milestone.created', 'milestone.updated', 'milestone.deleted']),
    )
  })

  it('derives status: done when all its tasks are finished, overdue past its date, next for the first other', async () => {
    const ws = await newWorkspace(server)
    const project = (await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId] }))
      .body
    const list = `/v1/orgs/${ws.orgId}/projects/${project.id}/milestones`
    const done = (await ws.api.post(list, { name: 'Done' })).body
    const late = (await ws.api.post(list, { name: 'Late', targetDate: date(-2) })).body
    await ws.api.post(list, { name: 'Soon', targetDate: date(5) })
    await ws.api.post(list, { name: 'Later', targetDate: date(50) })
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const t1 = await ws.api.post(tasks, { teamId: ws.teamId, title: 'a', milestoneId: done.id })
    await ws.api.post(tasks, {
      teamId: ws.teamId,
      title: 'b',
      milestoneId: done.id,
      stateId: ws.states.Done!.id,
    })
    await ws.api.post(tasks, { teamId: ws.teamId, title: 'c', milestoneId: late.id })
    const status = async () => (await ws.api.get(list)).body.data.map((m: any) => [m.name, m.status])
    // One task of `Done` is still open: it is the next milestone.
    expect(await status()).toEqual([
      ['Done', 'next'],
      ['Late', 'overdue'],
      ['Soon', 'unstarted'],
      ['Later', 'unstarted'],
    ])
    await ws.api.patch(`${tasks}/${t1.body.id}`, { stateId: ws.states.Canceled!.id })
    expect(await status()).toEqual([
      ['Done', 'done'],
      ['Late', 'overdue'],
      ['Soon', 'next'],
      ['Later', 'unstarted'],
    ])
  })

  it('puts tasks in a project and milestone with the rules that keep them consistent', async () => {
    const ws = await newWorkspace(server)
    const projects = `/v1/orgs/${ws.orgId}/projects`
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const p1 = (await ws.api.post(projects, { name: 'P1', teamIds: [ws.teamId] })).body
    const p2 = (await ws.api.post(projects, { name: 'P2', teamIds: [ws.teamId] })).body
    const m1 = (await ws.api.post(`${projects}/${p1.id}/milestones`, { name: 'M1' })).body
    const m2 = (await ws.api.post(`${projects}/${p2.id}/milestones`, { name: 'M2' })).body

    const inP1 = await ws.api.post(tasks, { teamId: ws.teamId, title: 'In P1', projectId: p1.id })
    expect(inP1.body).toMatchObject({ projectId: p1.id, milestoneId: null })
    const wrong = await ws.api.post(tasks, {
      teamId: ws.teamId,
      title: 'x',
      projectId: p1.id,
      milestoneId: m2.id,
    })
    expect(wrong).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/milestoneId' }] },
    })
    const item = `${tasks}/${inP1.body.id}`
    // A milestone alone moves the task to its project.
    expect((await ws.api.patch(item, { milestoneId: m2.id })).body).toMatchObject({
      projectId: p2.id,
      milestoneId: m2.id,
    })
    const wrongUpdate = await ws.api.patch(item, { milestoneId: m1.id, projectId: p2.id })
    expect(wrongUpdate).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/milestoneId' }] } })
    // Another project leaves the milestone; no project leaves both.
    expect((await ws.api.patch(item, { projectId: p1.id })).body).toMatchObject({
      projectId: p1.id,
      milestoneId: null,
    })
    await ws.api.patch(item, { milestoneId: m1.id })
    expect((await ws.api.patch(item, { projectId: null })).body).toMatchObject({
      projectId: null,
      milestoneId: null,
    })
    await ws.api.post(`${projects}/${p2.id}/archive`)
    const archived = await ws.api.patch(item, { projectId: p2.id })
    expect(archived).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/projectId' }] } })
    expect((await ws.api.get(item)).body.projectId).toBeNull()

    await ws.api.patch(item, { milestoneId: m1.id })
    const deleted = await ws.api.delete(`/v1/orgs/${ws.orgId}/milestones/${m1.id}`)
    expect(deleted.status).toBe(204)
    expect((await ws.api.get(item)).body).toMatchObject({ projectId: p1.id, milestoneId: null })
    const history = await ws.api.get(`${item}/history`)
    expect(history.body.data.map((h: any) => h.field)).toEqual(
      expect.arrayContaining(['projectId', 'milestoneId']),
    )
    expect((await ws.api.get(`${tasks}?projectId=${p1.id}`)).body.data.map((t: any) => t.id)).toEqual([
      inP1.body.id,
    ])
    expect((await ws.api.get(`${tasks}?projectId=none`)).body.data).toEqual([])
  })

  it("lists a project's tasks and progress over only the tasks the reader may view", async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const project = (
      await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId, design.id] })
    ).body
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const mk = (teamId: string, title: string, extra: object = {}) =>
      ws.api.post(tasks, { teamId, title, projectId: project.id, ...extra })
    await mk(ws.teamId, 'open', { estimate: 3 })
    await mk(ws.teamId, 'done', { estimate: 1, stateId: ws.states.Done!.id })
    await mk(ws.teamId, 'third')
    await mk(design.id, 'hidden', { estimate: 8 })
    await ws.api.post(tasks, { teamId: ws.teamId, title: 'not in project' })
    const base = `/v1/orgs/${ws.orgId}/projects/${project.id}`

    const all = await ws.api.get(`${base}/progress`)
    expect(all.body).toMatchObject({ projectId: project.id, total: { tasks: 4, points: 12 } })
    expect(all.body.byCategory.completed).toEqual({ tasks: 1, points: 1 })
    expect(all.body.completedRatio).toBeCloseTo(1 / 12)

    const guest = await ws.addMember('guest')
    await grant(ws, guest.memberId, 'view')
    const mine = await guest.api.get(`${base}/progress`)
    expect(mine.body.total).toEqual({ tasks: 3, points: 4 })
    expect(mine.body.byCategory.backlog).toEqual({ tasks: 2, points: 3 })
    expect(mine.body.completedRatio).toBeCloseTo(1 / 4)

    const titles: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await guest.api.get(`${base}/tasks?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      titles.push(...page.body.data.map((t: any) => t.title))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(titles).toEqual(['third', 'done', 'open'])
    expect((await ws.api.get(`${base}/tasks`)).body.data).toHaveLength(4)
    expect((await ws.api.get(`${base}/tasks?milestoneId=none`)).body.data).toHaveLength(4)
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.get(`${base}/tasks`)).status).toBe(404)
    expect((await stranger.api.get(`${base}/progress`)).status).toBe(404)
  })
})
