import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

async function statusOf(ws: TestWorkspace, category: string): Promise<string> {
  const statuses = await ws.api.get(`/v1/orgs/${ws.orgId}/project-statuses`)
  return statuses.body.data.find((s: any) => s.category === category).id
}

async function stateOf(ws: TestWorkspace, category: string, teamId = ws.teamId): Promise<string> {
  const states = await ws.api.get(`/v1/orgs/${ws.orgId}/teams/${teamId}/states`)
  return states.body.data.find((s: any) => s.category === category).id
}

describeEachDatabase('completing and canceling projects, labels filter, relations from either side', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A project with one task per state category named in `categories`, on the workspace's team. */
  async function projectWith(ws: TestWorkspace, categories: string[], teamId = ws.teamId) {
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: `P${Math.random()}`, teamIds: [teamId] }))
      .body
    const tasks: string[] = []
    for (const [i, category] of categories.entries()) {
      const stateId = await stateOf(ws, category, teamId)
      const task = await ws.api.post(`${base}/tasks`, {
        teamId,
        title: `T${i}`,
        projectId: project.id,
        stateId,
      })
      tasks.push(task.body.id)
    }
    return { id: project.id as string, tasks }
  }

  it('refuses to complete or cancel a project with open tasks unless told what happens to them', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, ['backlog', 'started', 'started', 'completed'])
    const completed = await statusOf(ws, 'completed')

    const refused = await ws.api.patch(`${base}/projects/${p.id}`, { statusId: completed })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      code: 'open_work',
      openTasks: 3,
      byCategory: { triage: 0, backlog: 1, unstarted: 0, started: 2 },
      choices: ['keep', 'cancel', 'move'],
    })
    expect((await ws.api.get(`${base}/projects/${p.id}`)).body.completedAt).toBeNull()

    // Bad combinations are named precisely.
    const noTarget = await ws.api.patch(`${base}/projects/${p.id}`, {
      statusId: completed,
      openTasks: 'move',
    })
    expect(noTarget).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/moveTasksTo' }] } })
    const notClosing = await ws.api.patch(`${base}/projects/${p.id}`, { name: 'X', openTasks: 'keep' })
    expect(notClosing).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/openTasks' }] } })

    // keep: the status changes, the tasks stay open in the project.
    const kept = await ws.api.patch(`${base}/projects/${p.id}`, { statusId: completed, openTasks: 'keep' })
    expect(kept.status).toBe(200)
    expect(kept.body.completedAt).not.toBeNull()
    const tasks = await ws.api.get(`${base}/projects/${p.id}/tasks?limit=50`)
    expect(tasks.body.data.filter((t: any) => t.stateCategory === 'started')).toHaveLength(2)
  })

  it('cancels the open tasks, or moves them to another project, each as a task.updated', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const canceled = await statusOf(ws, 'canceled')
    const completed = await statusOf(ws, 'completed')

    const a = await projectWith(ws, ['unstarted', 'started', 'completed'])
    const res = await ws.api.patch(`${base}/projects/${a.id}`, { statusId: canceled, openTasks: 'cancel' })
    expect(res.status).toBe(200)
    expect(res.body.canceledAt).not.toBeNull()
    const after = await Promise.all(a.tasks.map(async (id) => (await ws.api.get(`${base}/tasks/${id}`)).body))
    expect(after.map((t) => t.stateCategory)).toEqual(['canceled', 'canceled', 'completed'])

    const b = await projectWith(ws, ['backlog', 'completed'])
    const target = await projectWith(ws, [])
    const moved = await ws.api.patch(`${base}/projects/${b.id}`, {
      statusId: completed,
      openTasks: 'move',
      moveTasksTo: target.id,
    })
    expect(moved.status).toBe(200)
    expect((await ws.api.get(`${base}/tasks/${b.tasks[0]}`)).body.projectId).toBe(target.id)
    expect((await ws.api.get(`${base}/tasks/${b.tasks[1]}`)).body.projectId).toBe(b.id)
    const self = await projectWith(ws, ['backlog'])
    const intoItself = await ws.api.patch(`${base}/projects/${self.id}`, {
      statusId: completed,
      openTasks: 'move',
      moveTasksTo: self.id,
    })
    expect(intoItself).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })

    const events = await server.storage.read((s) => s.events.list(ws.orgId as never, 0, 10_000))
    const updatedTasks = events.filter((e) => e.kind === 'task.updated').map((e) => e.resourceId)
    expect(updatedTasks).toEqual(expect.arrayContaining([a.tasks[0], a.tasks[1], b.tasks[0]]))
  })

  it('counts tasks the caller cannot see, and refuses to cancel them for a caller without contribute', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const hidden = (await ws.api.post(`${base}/teams`, { name: 'Hidden', key: 'HID' })).body
    const p = await projectWith(ws, ['started'])
    await ws.api.put(`${base}/projects/${p.id}/teams/${hidden.id}`)
    const secret = await ws.api.post(`${base}/tasks`, { teamId: hidden.id, title: 'Secret', projectId: p.id })
    expect(secret.status).toBe(201)
    const guest = await ws.addMember('guest')
    await grant(ws, guest.memberId, 'contribute')
    const completed = await statusOf(ws, 'completed')

    const refused = await guest.api.patch(`${base}/projects/${p.id}`, { statusId: completed })
    expect(refused.body).toMatchObject({ code: 'open_work', openTasks: 2 })
    expect(JSON.stringify(refused.body)).not.toContain(secret.body.id)
    const cancel = await guest.api.patch(`${base}/projects/${p.id}`, {
      statusId: completed,
      openTasks: 'cancel',
    })
    expect(cancel.body).toMatchObject({
      code: 'capability_required',
      capability: 'contribute',
      refusedTasks: 1,
    })
    // Nothing changed: the disposition and the status change share one transaction.
    expect((await ws.api.get(`${base}/tasks/${p.tasks[0]}`)).body.stateCategory).toBe('started')
    expect((await ws.api.get(`${base}/projects/${p.id}`)).body.completedAt).toBeNull()
  })

  it('filters projects by label, page by page', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const bug = (await ws.api.post(`${base}/labels`, { name: 'Bug' })).body
    const labeled: string[] = []
    for (let i = 0; i < 5; i++) {
      const p = (await ws.api.post(`${base}/projects`, { name: `L${i}`, teamIds: [ws.teamId] })).body
      if (i % 2 === 0) {
        await ws.api.put(`${base}/projects/${p.id}/labels/${bug.id}`)
        labeled.push(p.id)
      }
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(
        `${base}/projects?labelId=${bug.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((p: any) => p.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual([...labeled].reverse())
    const bad = await ws.api.get(`${base}/projects?labelId=nope`)
    expect(bad.status).toBe(400)
  })

  it('deletes a relation from the blocked side with contribute there, and not with view alone', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const blocker = await projectWith(ws, [])
    const blocked = await projectWith(ws, [], design.id)
    const relation = (
      await ws.api.post(`${base}/projects/${blocker.id}/relations`, {
        type: 'blocks',
        relatedProjectId: blocked.id,
      })
    ).body
    const item = `${base}/project-relations/${relation.id}`

    // A designer contributes on the blocked project and only views the blocker.
    const designer = await ws.addMember('guest')
    await grant(ws, designer.memberId, 'contribute', { type: 'team', id: design.id })
    await grant(ws, designer.memberId, 'view')
    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view', { type: 'team', id: design.id })
    await grant(ws, viewer.memberId, 'view')
    expect(await viewer.api.delete(item)).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    const outsider = await ws.addMember('guest')
    await grant(ws, outsider.memberId, 'contribute', { type: 'team', id: design.id })
    expect((await outsider.api.delete(item)).status).toBe(404)

    expect((await designer.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    expect((await ws.api.get(`${base}/projects/${blocked.id}`)).body.blocked).toBe(false)
  })
})
