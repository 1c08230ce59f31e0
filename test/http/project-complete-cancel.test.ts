import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

async function stateOf(ws: TestWorkspace, category: string): Promise<string> {
  const states = await ws.api.get(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/states`)
  return states.body.data.find((s: any) => s.category === category).id
}

describeEachDatabase('completing and canceling a project with projects.update', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  async function projectWith(ws: TestWorkspace, categories: string[]) {
    const base = `/v1/orgs/${ws.orgId}`
    const project = (
      await ws.api.post(`${base}/projects`, { name: `P${Math.random()}`, teamIds: [ws.teamId] })
    ).body
    const tasks: string[] = []
    for (const category of categories) {
      const stateId = await stateOf(ws, category)
      tasks.push(
        (
          await ws.api.post(`${base}/tasks`, {
            teamId: ws.teamId,
            title: 'T',
            projectId: project.id,
            stateId,
          })
        ).body.id,
      )
    }
    return { id: project.id as string, tasks }
  }

  async function statusOf(ws: TestWorkspace, category: string): Promise<string> {
    const statuses = (await ws.api.get(`/v1/orgs/${ws.orgId}/project-statuses`)).body.data
    return statuses.find((s: any) => s.category === category).id
  }

  it('completes a project, settling its open tasks; moving it between closed statuses is an update', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, ['started', 'completed'])
    const milestone = (await ws.api.post(`${base}/projects/${p.id}/milestones`, { name: 'M' })).body
    const completedId = await statusOf(ws, 'completed')

    const refused = await ws.api.patch(`${base}/projects/${p.id}`, { statusId: completedId })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'open_work', openTasks: 1 })

    const done = await ws.api.patch(`${base}/projects/${p.id}`, {
      statusId: completedId,
      openTasks: 'cancel',
    })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ statusCategory: 'completed', canceledAt: null })
    expect(done.body.completedAt).not.toBeNull()
    expect((await ws.api.get(`${base}/tasks/${p.tasks[0]}`)).body.stateCategory).toBe('canceled')
    // The milestone stays; its status is computed.
    expect((await ws.api.get(`${base}/milestones/${milestone.id}`)).status).toBe(200)

    // Another completed status: the project was completed already, so this is an ordinary update.
    const shipped = (
      await ws.api.post(`${base}/project-statuses`, { name: 'Shipped', category: 'completed' })
    ).body
    expect((await ws.api.patch(`${base}/projects/${p.id}`, { statusId: shipped.id })).status).toBe(200)
    const events = (await ws.api.get(`${base}/stream?limit=200`)).body.data
    const completed = events.find((e: any) => e.kind === 'project.completed')
    expect(completed.data).toMatchObject({
      openTasks: 'cancel',
      project: { id: p.id },
      changes: { statusId: { after: completedId } },
    })
    expect(events.filter((e: any) => e.kind === 'project.completed')).toHaveLength(1)
    const updated = events.filter((e: any) => e.kind === 'project.updated' && e.resourceId === p.id)
    expect(updated.at(-1).data.changes.statusId).toEqual({ before: completedId, after: shipped.id })
  })

  it('cancels with a reason, moving open tasks to another project, into a chosen canceled status', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, ['backlog', 'unstarted'])
    const target = await projectWith(ws, [])
    const status = (await ws.api.post(`${base}/project-statuses`, { name: 'Dropped', category: 'canceled' }))
      .body
    const completedStatus = (await ws.api.get(`${base}/project-statuses`)).body.data.find(
      (s: any) => s.category === 'completed',
    )

    // A reason belongs to a cancellation only.
    const wrong = await ws.api.patch(`${base}/projects/${p.id}`, {
      statusId: completedStatus.id,
      openTasks: 'keep',
      reason: 'Superseded',
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors[0].pointer).toBe('/body/reason')
    const noTarget = await ws.api.patch(`${base}/projects/${p.id}`, {
      statusId: status.id,
      openTasks: 'move',
    })
    expect(noTarget.body).toMatchObject({ status: 422, code: 'rule_violated' })
    expect((await ws.api.get(`${base}/projects/${p.id}`)).body.canceledAt).toBeNull()

    const res = await ws.api.patch(`${base}/projects/${p.id}`, {
      statusId: status.id,
      openTasks: 'move',
      moveTasksTo: target.id,
      reason: 'Superseded',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ statusId: status.id, statusCategory: 'canceled', completedAt: null })
    for (const t of p.tasks) expect((await ws.api.get(`${base}/tasks/${t}`)).body.projectId).toBe(target.id)
    const canceled = (await ws.api.get(`${base}/stream`)).body.data.find(
      (e: any) => e.kind === 'project.canceled',
    )
    expect(canceled.data).toMatchObject({ reason: 'Superseded', openTasks: 'move' })

    // Reopening is an update into an open status; then it can be completed.
    const planned = (await ws.api.get(`${base}/project-statuses`)).body.data.find(
      (s: any) => s.category === 'planned',
    )
    expect(
      (await ws.api.patch(`${base}/projects/${p.id}`, { statusId: planned.id })).body.canceledAt,
    ).toBeNull()
    expect((await ws.api.patch(`${base}/projects/${p.id}`, { statusId: completedStatus.id })).status).toBe(
      200,
    )
  })

  it('needs contribute on the project; a hidden project is a 404', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, [])
    const canceledId = await statusOf(ws, 'canceled')
    const viewer = await teamGuest(ws, 'view')
    expect((await viewer.api.patch(`${base}/projects/${p.id}`, { statusId: canceledId })).status).toBe(403)
    const other = (await ws.api.post(`${base}/teams`, { name: 'Other', key: 'OTH' })).body
    const hidden = (await ws.api.post(`${base}/projects`, { name: 'H', teamIds: [other.id] })).body
    const contributor = await teamGuest(ws, 'contribute')
    expect(
      (await contributor.api.patch(`${base}/projects/${hidden.id}`, { statusId: canceledId })).status,
    ).toBe(404)
    expect((await contributor.api.patch(`${base}/projects/${p.id}`, { statusId: canceledId })).status).toBe(
      200,
    )
    expect((await ws.api.get(`${base}/projects/${hidden.id}`)).body.canceledAt).toBeNull()
  })
})
