import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

async function stateOf(ws: TestWorkspace, category: string): Promise<string> {
  const states = await ws.api.get(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/states`)
  return states.body.data.find((s: any) => s.category === category).id
}

describeEachDatabase('projects.complete and projects.cancel', (db) => {
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

  it('completes a project, settling its open tasks, and refuses to close it twice', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, ['started', 'completed'])
    const milestone = (await ws.api.post(`${base}/projects/${p.id}/milestones`, { name: 'M' })).body

    const refused = await ws.api.post(`${base}/projects/${p.id}/complete`, {})
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'open_work', openTasks: 1 })

    const done = await ws.api.post(`${base}/projects/${p.id}/complete`, { openTasks: 'cancel' })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ statusCategory: 'completed', canceledAt: null })
    expect(done.body.completedAt).not.toBeNull()
    expect((await ws.api.get(`${base}/tasks/${p.tasks[0]}`)).body.stateCategory).toBe('canceled')
    // The milestone stays; its status is computed.
    expect((await ws.api.get(`${base}/milestones/${milestone.id}`)).status).toBe(200)

    for (const verb of ['complete', 'cancel']) {
      const again = await ws.api.post(`${base}/projects/${p.id}/${verb}`, { openTasks: 'keep' })
      expect(again.status).toBe(409)
      expect(again.body).toMatchObject({ code: 'conflict', statusCategory: 'completed' })
    }
    const events = (await ws.api.get(`${base}/stream`)).body.data
    const completed = events.find((e: any) => e.kind === 'project.completed')
    expect(completed.data).toMatchObject({ openTasks: 'cancel', project: { id: p.id } })
    expect(events.filter((e: any) => e.kind === 'project.completed')).toHaveLength(1)
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

    const wrong = await ws.api.post(`${base}/projects/${p.id}/cancel`, {
      statusId: completedStatus.id,
      openTasks: 'keep',
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors[0].pointer).toBe('/body/statusId')
    const noTarget = await ws.api.post(`${base}/projects/${p.id}/cancel`, { openTasks: 'move' })
    expect(noTarget.body).toMatchObject({ status: 400, code: 'validation_failed' })
    expect((await ws.api.get(`${base}/projects/${p.id}`)).body.canceledAt).toBeNull()

    const res = await ws.api.post(`${base}/projects/${p.id}/cancel`, {
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
    expect((await ws.api.post(`${base}/projects/${p.id}/complete`, {})).status).toBe(200)
  })

  it('needs contribute on the project; a hidden project is a 404', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, [])
    const viewer = await teamGuest(ws, 'view')
    expect((await viewer.api.post(`${base}/projects/${p.id}/complete`, {})).status).toBe(403)
    expect((await viewer.api.post(`${base}/projects/${p.id}/cancel`, {})).status).toBe(403)
    const other = (await ws.api.post(`${base}/teams`, { name: 'Other', key: 'OTH' })).body
    const hidden = (await ws.api.post(`${base}/projects`, { name: 'H', teamIds: [other.id] })).body
    const contributor = await teamGuest(ws, 'contribute')
    expect((await contributor.api.post(`${base}/projects/${hidden.id}/cancel`, {})).status).toBe(404)
    expect((await contributor.api.post(`${base}/projects/${p.id}/cancel`, {})).status).toBe(200)
    expect((await ws.api.get(`${base}/projects/${hidden.id}`)).body.canceledAt).toBeNull()
  })
})
