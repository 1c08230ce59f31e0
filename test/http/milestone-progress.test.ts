import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('milestone progress, order and tasks', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('derives progress per milestone over the tasks the reader may view', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const project = (
      await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId, design.id] })
    ).body
    const list = `/v1/orgs/${ws.orgId}/projects/${project.id}/milestones`
    const m = (await ws.api.post(list, { name: 'M' })).body
    const empty = (await ws.api.post(list, { name: 'Empty' })).body
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const mk = (teamId: string, extra: object) =>
      ws.api.post(tasks, { teamId, title: 't', milestoneId: m.id, ...extra })
    await mk(ws.teamId, { estimate: 3 })
    await mk(ws.teamId, { estimate: 1, stateId: ws.states.Done!.id })
    await mk(ws.teamId, { stateId: ws.states.Canceled!.id, estimate: 2 })
    await mk(design.id, { estimate: 8 })

    const all = (await ws.api.get(`/v1/orgs/${ws.orgId}/milestones/${m.id}`)).body
    expect(all.progress.total).toEqual({ tasks: 4, points: 14 })
    expect(all.progress.byCategory.completed).toEqual({ tasks: 1, points: 1 })
    expect(all.progress.byCategory.canceled).toEqual({ tasks: 1, points: 2 })
    expect(all.progress.completedRatio).toBeCloseTo(1 / 12)
    const none = (await ws.api.get(`/v1/orgs/${ws.orgId}/milestones/${empty.id}`)).body
    expect(none.progress).toMatchObject({ total: { tasks: 0, points: 0 }, completedRatio: 0 })

    const guest = await teamGuest(ws, 'view')
    const mine = (await guest.api.get(list)).body.data.find((x: any) => x.id === m.id)
    expect(mine.progress.total).toEqual({ tasks: 3, points: 6 })
    expect(mine.progress.completedRatio).toBeCloseTo(1 / 4)
    expect(mine.status).toBe('next')
  })

  it('moves a milestone before or after another, renumbering the project, and `next` follows', async () => {
    const ws = await newWorkspace(server)
    const project = (await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId] }))
      .body
    const list = `/v1/orgs/${ws.orgId}/projects/${project.id}/milestones`
    const a = (await ws.api.post(list, { name: 'A' })).body
    const b = (await ws.api.post(list, { name: 'B' })).body
    const c = (await ws.api.post(list, { name: 'C' })).body
    const move = (id: string, body: object) => ws.api.post(`/v1/orgs/${ws.orgId}/milestones/${id}/move`, body)
    const order = async () =>
      (await ws.api.get(list)).body.data.map((x: any) => [x.name, x.position, x.status])

    const moved = await move(c.id, { beforeId: a.id })
    expect(moved).toMatchObject({ status: 200, body: { id: c.id, position: 0, status: 'next' } })
    expect(await order()).toEqual([
      ['C', 0, 'next'],
      ['A', 1, 'unstarted'],
      ['B', 2, 'unstarted'],
    ])
    await move(c.id, { afterId: b.id })
    expect(await order()).toEqual([
      ['A', 0, 'next'],
      ['B', 1, 'unstarted'],
      ['C', 2, 'unstarted'],
    ])
    // Already there: nothing changes and nothing is emitted.
    const stream = `/v1/orgs/${ws.orgId}/stream`
    const before = (await ws.api.get(stream)).body.data.filter((e: any) => e.kind === 'milestone.moved')
    expect(before).toHaveLength(2)
    expect(before[1].data.order).toEqual([a.id, b.id, c.id])
    expect((await move(c.id, { afterId: b.id })).body.position).toBe(2)
    const after = (await ws.api.get(stream)).body.data.filter((e: any) => e.kind === 'milestone.moved')
    expect(after).toHaveLength(2)

    const other = (await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'Q', teamIds: [ws.teamId] }))
      .body
    const foreign = (await ws.api.post(`/v1/orgs/${ws.orgId}/projects/${other.id}/milestones`, { name: 'X' }))
      .body
    expect(await move(a.id, { afterId: foreign.id })).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/afterId' }] },
    })
    expect(await move(a.id, { afterId: a.id })).toMatchObject({ status: 422 })
    expect((await move(a.id, { afterId: b.id, beforeId: c.id })).status).toBe(400)
    const viewer = await teamGuest(ws, 'view')
    expect(
      (await viewer.api.post(`/v1/orgs/${ws.orgId}/milestones/${a.id}/move`, { afterId: c.id })).status,
    ).toBe(403)
  })

  it("lists a milestone's tasks as tasks.list does, page by page", async () => {
    const ws = await newWorkspace(server)
    const secret = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Secret', key: 'SEC' })).body
    const project = (
      await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId, secret.id] })
    ).body
    const m = (await ws.api.post(`/v1/orgs/${ws.orgId}/projects/${project.id}/milestones`, { name: 'M' }))
      .body
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    for (const title of ['one', 'two', 'three']) {
      await ws.api.post(tasks, { teamId: ws.teamId, title, milestoneId: m.id })
    }
    await ws.api.post(tasks, { teamId: secret.id, title: 'hidden', milestoneId: m.id })
    await ws.api.post(tasks, { teamId: ws.teamId, title: 'elsewhere', projectId: project.id })
    const archived = (await ws.api.post(tasks, { teamId: ws.teamId, title: 'old', milestoneId: m.id })).body
    await ws.api.post(`${tasks}/${archived.id}/archive`)

    const guest = await teamGuest(ws, 'view')
    const base = `${tasks}?milestoneId=${m.id}`
    const titles: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await guest.api.get(`${base}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      titles.push(...page.body.data.map((t: any) => t.title))
      cursor = page.body.nextCursor
    } while (cursor)
    const expected = (
      await guest.api.get(`/v1/orgs/${ws.orgId}/projects/${project.id}/tasks?milestoneId=${m.id}`)
    ).body.data.map((t: any) => t.title)
    expect(titles).toEqual(expected)
    expect(titles).toEqual(['three', 'two', 'one'])
    expect((await ws.api.get(base)).body.data).toHaveLength(4)
    expect((await ws.api.get(`${base}&archived=only`)).body.data.map((t: any) => t.title)).toEqual(['old'])
    // Tasks in no milestone: the project's other task, and none of the milestone's.
    const loose = await ws.api.get(`${tasks}?projectId=${project.id}&milestoneId=none`)
    expect(loose.body.data.map((t: any) => t.title)).toEqual(['elsewhere'])
    const outside = await ws.api.get(`${tasks}?milestoneId=none`)
    expect(outside.body.data.map((t: any) => t.title)).toEqual(['elsewhere'])
    // A cursor belongs to its filter: sent with another milestone filter it is refused.
    const first = await ws.api.get(`${base}&limit=1`)
    const mixed = await ws.api.get(`${tasks}?milestoneId=none&limit=1&cursor=${first.body.nextCursor}`)
    expect(mixed).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } })
    // Someone who sees none of the project's teams sees none of its tasks.
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.get(base)).body.data).toEqual([])
    expect((await ws.api.get(`${tasks}?milestoneId=mile_x`)).status).toBe(400)
  })
})
