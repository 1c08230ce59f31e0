import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * A page of the task list builds each task from the driver's row (arrays of values on SQLite,
 * objects on Postgres), apart from the read of one task: every property of every task on a page,
 * each column set or not, equals what the task's own read answers, for the plain list (compiled
 * once) and a filtered one (built per request), archived tasks included.
 */
describeEachDatabase('task list rows', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  let base: string

  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    base = `/v1/orgs/${ws.orgId}`
    const post = async (path: string, body?: unknown) => {
      const res = await ws.api.post(`${base}${path}`, body)
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      return res.body
    }
    const project = await post('/projects', { name: 'P', teamIds: [ws.teamId] })
    const milestone = await post(`/projects/${project.id}/milestones`, { name: 'Beta' })
    const now = Date.now()
    const cycle = await post(`/teams/${ws.teamId}/cycles`, {
      startsAt: new Date(now - 86_400_000).toISOString(),
      endsAt: new Date(now + 6 * 86_400_000).toISOString(),
    })
    const label = await post('/labels', { name: 'Bug' })
    const field = await post('/custom-fields', { name: 'Customer', type: 'text' })
    const states = Object.values(ws.states)
    const plain = await post('/tasks', { teamId: ws.teamId, title: 'Plain' })
    const full = await post('/tasks', {
      teamId: ws.teamId,
      title: 'Every column',
      description: 'Set',
      estimate: 3,
      priority: 'high',
      dueDate: '2026-12-24',
      startDate: '2026-12-01',
      parentId: plain.id,
      projectId: project.id,
      milestoneId: milestone.id,
      cycleId: cycle.id,
      labelIds: [label.id],
      fields: { [field.id]: 'Acme' },
    })
    // A blocker, open: the full task is blocked.
    const blocker = await post('/tasks', { teamId: ws.teamId, title: 'Blocker' })
    expect((await ws.api.put(`${base}/tasks/${full.id}/blockers/${blocker.id}`)).status).toBe(200)
    for (const category of ['completed', 'canceled', 'started'] as const) {
      const stateId = states.find((s) => s.category === category)!.id
      const task = await post('/tasks', { teamId: ws.teamId, title: category, stateId })
      if (category === 'completed') await post(`/tasks/${task.id}/archive`)
    }
  })
  afterAll(() => server.close())

  it.each([
    ['the plain list', '?limit=50&archived=include'],
    ['a filtered list', '?limit=50&archived=include&priority=high'],
    ['a filtered list of every task', '?limit=50&archived=include&assigneeId=none'],
  ])('%s: each task as its own read answers it', async (_, query) => {
    const page = await ws.api.get(`${base}/tasks${query}`)
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    expect(page.body.data.length).toBeGreaterThan(0)
    for (const task of page.body.data) {
      const one = await ws.api.get(`${base}/tasks/${task.id}`)
      expect(task).toEqual(one.body)
    }
  })

  it('a page with every column set carries each of them', async () => {
    const page = await ws.api.get(`${base}/tasks?limit=50&archived=include`)
    const full = page.body.data.find((t: { title: string }) => t.title === 'Every column')
    expect(full).toMatchObject({ estimate: 3, isBlocked: true, dueDate: '2026-12-24', priority: 'high' })
    expect(full.labelIds).toHaveLength(1)
    expect(Object.values(full.fields)).toEqual(['Acme'])
    expect(page.body.data.find((t: { title: string }) => t.title === 'completed').archivedAt).not.toBeNull()
  })
})
