import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('projects.duplicate and tasks.convertToProject', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('duplicates a project: milestones, open tasks, labels and members, dates moved to the new start', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const member = await ws.addMember('member')
    const source = (
      await ws.api.post(`${o}/projects`, {
        name: 'Launch',
        teamIds: [ws.teamId],
        startDate: '2030-01-01',
        targetDate: '2030-01-31',
      })
    ).body
    const label = (await ws.api.post(`${o}/labels`, { name: 'Big' })).body
    await ws.api.put(`${o}/projects/${source.id}/labels/${label.id}`)
    await ws.api.put(`${o}/projects/${source.id}/members/${member.memberId}`)
    const milestone = (
      await ws.api.post(`${o}/projects/${source.id}/milestones`, { name: 'Beta', targetDate: '2030-01-11' })
    ).body
    const task = (title: string, extra: object = {}) =>
      ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title, projectId: source.id, ...extra })
    await task('open', { milestoneId: milestone.id, dueDate: '2030-01-06' })
    await task('finished', { stateId: ws.states.Done!.id })

    const copy = await ws.api.post(`${o}/projects/${source.id}/duplicate`, { startDate: '2030-03-01' })
    expect(copy.status).toBe(201)
    expect(copy.headers.get('location')).toBe(`${o}/projects/${copy.body.id}`)
    expect(copy.body).toMatchObject({
      name: 'Copy of Launch',
      startDate: '2030-03-01',
      targetDate: '2030-03-31',
      labelIds: [label.id],
      teamIds: [ws.teamId],
    })
    const milestones = (await ws.api.get(`${o}/projects/${copy.body.id}/milestones`)).body.data
    expect(milestones).toMatchObject([{ name: 'Beta', targetDate: '2030-03-11' }])
    const tasks = (await ws.api.get(`${o}/projects/${copy.body.id}/tasks`)).body.data
    expect(tasks).toMatchObject([{ title: 'open', dueDate: '2030-03-06', milestoneId: milestones[0].id }])
    const members = (await ws.api.get(`${o}/projects/${copy.body.id}/members`)).body.data
    expect(members.map((m: any) => m.memberId)).toContain(member.memberId)

    const bare = await ws.api.post(`${o}/projects/${source.id}/duplicate`, {
      name: 'Shell',
      tasks: false,
      members: false,
    })
    expect(bare.body.name).toBe('Shell')
    expect((await ws.api.get(`${o}/projects/${bare.body.id}/tasks`)).body.data).toEqual([])
  })

  it('converts a task into a project: subtasks move in, the task is archived and recorded', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const parent = (await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'Grown', priority: 'high' }))
      .body
    const child = (await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'Part', parentId: parent.id }))
      .body
    const res = await ws.api.post(`${o}/tasks/${parent.id}/convert-to-project`, {})
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Grown',
      priority: 'high',
      teamIds: [ws.teamId],
      convertedFromTaskId: parent.id,
    })
    const moved = (await ws.api.get(`${o}/tasks/${child.id}`)).body
    expect(moved).toMatchObject({ projectId: res.body.id, parentId: null })
    expect((await ws.api.get(`${o}/tasks/${parent.id}`)).body.archivedAt).not.toBeNull()
    const again = await ws.api.post(`${o}/tasks/${parent.id}/convert-to-project`, {})
    expect(again).toMatchObject({ status: 409, body: { code: 'archived' } })
  })

  it('a viewer gets 403 and an outsider 404, and nothing is created', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${o}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const task = (await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const viewer = await teamGuest(ws, 'view')
    const outsider = await ws.addMember('guest')
    for (const path of [
      `${o}/projects/${project.id}/duplicate`,
      `${o}/tasks/${task.id}/convert-to-project`,
    ]) {
      expect(await viewer.api.post(path, {}), path).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'contribute' },
      })
      expect((await outsider.api.post(path, {})).status, path).toBe(404)
    }
    expect((await ws.api.get(`${o}/projects`)).body.data).toHaveLength(1)
    expect((await ws.api.get(`${o}/tasks/${task.id}`)).body.archivedAt).toBeNull()
  })
})
