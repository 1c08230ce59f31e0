import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000

/** Walks every page of a list with the given page size and answers all items in order. */
async function walk(api: TestWorkspace['api'], path: string, limit: number): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null = null
  const sep = path.includes('?') ? '&' : '?'
  do {
    const res: any = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    items.push(...res.body.data)
    cursor = res.body.nextCursor
  } while (cursor)
  return items
}

const taskSkeleton = {
  title: 'Rotate credentials',
  description: 'Follow the runbook.',
  priority: 'high',
  estimate: 2,
  labelIds: [],
  dueOffsetDays: 2,
}

const projectSkeleton = {
  name: 'Launch',
  description: 'From design to GA.',
  durationDays: 30,
  milestones: [
    { name: 'Beta', description: null, targetOffsetDays: 14 },
    { name: 'GA', description: null, targetOffsetDays: 30 },
  ],
  tasks: [
    { title: 'Design', description: null, priority: 'high', milestone: null, dueOffsetDays: 5 },
    { title: 'Beta invites', description: null, priority: 'medium', milestone: 0, dueOffsetDays: 14 },
    { title: 'Announce', description: null, priority: 'low', milestone: 1, dueOffsetDays: null },
  ],
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)

/**
 * Two engines (two servers) on one database, with one clock the test moves: the scheduler must
 * create each occurrence once whichever instance runs it, and however many at once.
 */
function twoInstances(db: TestDatabase) {
  let target: DatabaseTarget
  const shared: TestDatabase = {
    ...db,
    fresh: async () => ({ ...target, drop: async () => {} }),
  }
  let shift = 0
  const clock = () => new Date(Date.now() + shift)
  const state = {
    a: undefined as unknown as Awaited<ReturnType<typeof startTestServer>>,
    b: undefined as unknown as Awaited<ReturnType<typeof startTestServer>>,
    clock,
    today: () => clock().toISOString().slice(0, 10),
    /** Moves the clock; the workspace's owner gets a new token, as the old one expires with the move. */
    async advance(days: number, ws: TestWorkspace) {
      shift += days * DAY
      const token = await state.a.engine.tokens.issueAccessToken({
        userId: ws.owner.user.id,
        scopes: ['work:read', 'work:write'],
      })
      ws.api = state.a.as(token)
    },
    /** One pass on each instance: at once on Postgres; one after the other on SQLite, whose
     * connections in one process would wait on each other's write lock synchronously. */
    async schedule() {
      const onError = (e: unknown) => {
        throw e
      }
      if (db.name === 'postgres') {
        const [x, y] = await Promise.all([
          state.a.engine.schedule({ onError }),
          state.b.engine.schedule({ onError }),
        ])
        return { tasks: x.tasks + y.tasks, reminders: x.reminders + y.reminders, failed: x.failed + y.failed }
      }
      const x = await state.a.engine.schedule({ onError })
      const y = await state.b.engine.schedule({ onError })
      return { tasks: x.tasks + y.tasks, reminders: x.reminders + y.reminders, failed: x.failed + y.failed }
    },
  }
  beforeAll(async () => {
    target = await db.fresh()
    state.a = await startTestServer(shared, { clock })
    state.b = await startTestServer(shared, { clock })
  }, 60_000)
  afterAll(async () => {
    await state.a.drop()
    await state.b.drop()
    await target.drop()
  })
  return state
}

describeEachDatabase('templates', (db) => {
  const env = twoInstances(db)

  describe('templates', () => {
    it('creates, reads, lists by page and kind, updates and deletes, emitting events', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const created = await ws.api.post(`${base}/templates`, {
        teamId: ws.teamId,
        kind: 'task',
        name: 'Rotation',
        task: taskSkeleton,
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.headers.get('location')).toBe(`${base}/templates/${created.body.id}`)
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^tmpl_/),
        kind: 'task',
        teamId: ws.teamId,
        description: null,
        task: taskSkeleton,
        project: null,
      })
      const names = ['Delta', 'Alpha', 'Charlie', 'Bravo']
      for (const name of names) {
        const res = await ws.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'project',
          name,
          project: projectSkeleton,
        })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
      }
      const all = await walk(ws.api, `${base}/templates`, 2)
      expect(all.map((t) => t.name)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Rotation'])
      const projects = await walk(ws.api, `${base}/templates?kind=project`, 3)
      expect(projects.map((t) => t.name)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta'])

      const got = await ws.api.get(`${base}/templates/${created.body.id}`)
      expect(got.body).toEqual(created.body)
      const updated = await ws.api.patch(`${base}/templates/${created.body.id}`, {
        name: 'Quarterly rotation',
        task: { ...taskSkeleton, priority: 'urgent' },
      })
      expect(updated.status).toBe(200)
      expect(updated.body).toMatchObject({ name: 'Quarterly rotation', task: { priority: 'urgent' } })
      // A task template takes no project skeleton.
      const wrong = await ws.api.patch(`${base}/templates/${created.body.id}`, { project: projectSkeleton })
      expect(wrong.status).toBe(422)
      expect(wrong.body.errors[0].pointer).toBe('/body/project')

      const deleted = await ws.api.delete(`${base}/templates/${created.body.id}`)
      expect(deleted.status).toBe(204)
      expect((await ws.api.get(`${base}/templates/${created.body.id}`)).status).toBe(404)
      const events = await ws.api.get(`${base}/stream?limit=100`)
      const kinds = events.body.data.map((e: any) => e.kind).filter((k: string) => k.startsWith('template.'))
      expect(kinds).toEqual([
        'template.created',
        'template.created',
        'template.created',
        'template.created',
        'template.created',
        'template.updated',
        'template.deleted',
      ])
    })

    it('refuses a template without its skeleton or with a milestone index that does not exist', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const none = await ws.api.post(`${base}/templates`, { teamId: ws.teamId, kind: 'task', name: 'X' })
      expect(none.status).toBe(422)
      expect(none.body.errors[0].pointer).toBe('/body/task')
      const bad = await ws.api.post(`${base}/templates`, {
        teamId: ws.teamId,
        kind: 'project',
        name: 'X',
        project: { ...projectSkeleton, tasks: [{ ...projectSkeleton.tasks[0], milestone: 5 }] },
      })
      expect(bad.status).toBe(422)
      expect(bad.body.errors[0].pointer).toBe('/body/project/tasks/0/milestone')
      const dup = await ws.api.post(`${base}/templates`, {
        teamId: ws.teamId,
        kind: 'project',
        name: 'X',
        project: {
          ...projectSkeleton,
          milestones: [projectSkeleton.milestones[0], projectSkeleton.milestones[0]],
        },
      })
      expect(dup.status).toBe(422)
    })

    it('applies a task template and a project template with dates shifted, and saves a project as one', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const taskTemplate = (
        await ws.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'task',
          name: 'T',
          task: taskSkeleton,
        })
      ).body
      const applied = await ws.api.post(`${base}/templates/${taskTemplate.id}/apply`, {
        startDate: '2030-03-01',
        title: 'Rotate in March',
      })
      expect(applied.status, JSON.stringify(applied.body)).toBe(201)
      expect(applied.body).toMatchObject({ kind: 'task', projectId: null, milestoneIds: [] })
      const task = (await ws.api.get(`${base}/tasks/${applied.body.taskIds[0]}`)).body
      expect(task).toMatchObject({
        title: 'Rotate in March',
        description: 'Follow the runbook.',
        priority: 'high',
        estimate: 2,
        dueDate: '2030-03-03',
        teamId: ws.teamId,
      })
      const misplaced = await ws.api.post(`${base}/templates/${taskTemplate.id}/apply`, { name: 'P' })
      expect(misplaced.status).toBe(422)

      const projectTemplate = (
        await ws.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'project',
          name: 'Launch',
          project: projectSkeleton,
        })
      ).body
      const launched = await ws.api.post(`${base}/templates/${projectTemplate.id}/apply`, {
        startDate: '2030-04-01',
        name: 'Launch: search',
      })
      expect(launched.status, JSON.stringify(launched.body)).toBe(201)
      expect(launched.body.milestoneIds).toHaveLength(2)
      expect(launched.body.taskIds).toHaveLength(3)
      const project = (await ws.api.get(`${base}/projects/${launched.body.projectId}`)).body
      expect(project).toMatchObject({
        name: 'Launch: search',
        startDate: '2030-04-01',
        targetDate: '2030-05-01',
      })
      const milestones = (await ws.api.get(`${base}/projects/${project.id}/milestones`)).body.data
      expect(milestones.map((m: any) => [m.name, m.targetDate])).toEqual([
        ['Beta', '2030-04-15'],
        ['GA', '2030-05-01'],
      ])
      const tasks = await Promise.all(
        launched.body.taskIds.map(async (id: string) => (await ws.api.get(`${base}/tasks/${id}`)).body),
      )
      expect(tasks.map((t) => [t.title, t.projectId, t.milestoneId, t.dueDate])).toEqual([
        ['Design', project.id, null, '2030-04-06'],
        ['Beta invites', project.id, launched.body.milestoneIds[0], '2030-04-15'],
        ['Announce', project.id, launched.body.milestoneIds[1], null],
      ])

      const saved = await ws.api.post(`${base}/projects/${project.id}/save-as-template`, {
        name: 'Saved launch',
      })
      expect(saved.status, JSON.stringify(saved.body)).toBe(201)
      expect(saved.headers.get('location')).toBe(`${base}/templates/${saved.body.id}`)
      expect(saved.body).toMatchObject({ kind: 'project', name: 'Saved launch', teamId: ws.teamId })
      expect(saved.body.project.durationDays).toBe(30)
      expect(saved.body.project.milestones.map((m: any) => [m.name, m.targetOffsetDays])).toEqual([
        ['Beta', 14],
        ['GA', 30],
      ])
      expect(
        saved.body.project.tasks
          .map((t: any) => [t.title, t.milestone, t.dueOffsetDays])
          .sort((x: any, y: any) => x[0].localeCompare(y[0])),
      ).toEqual([
        ['Announce', 1, null],
        ['Beta invites', 0, 14],
        ['Design', null, 5],
      ])
    })

    it('hides templates of teams the reader cannot view and needs contribute to apply', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const other = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
      const hidden = (
        await ws.api.post(`${base}/templates`, {
          teamId: other.id,
          kind: 'task',
          name: 'Hidden',
          task: taskSkeleton,
        })
      ).body
      const shown = (
        await ws.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'task',
          name: 'Shown',
          task: taskSkeleton,
        })
      ).body
      const viewer = await teamGuest(ws, 'view')
      const list = await walk(viewer.api, `${base}/templates`, 1)
      expect(list.map((t) => t.id)).toEqual([shown.id])
      expect((await viewer.api.get(`${base}/templates/${hidden.id}`)).status).toBe(404)
      expect((await viewer.api.post(`${base}/templates/${hidden.id}/apply`, {})).status).toBe(404)
      expect((await viewer.api.post(`${base}/templates/${shown.id}/apply`, {})).status).toBe(403)
      const contributor = await teamGuest(ws, 'contribute')
      expect((await contributor.api.post(`${base}/templates/${shown.id}/apply`, {})).status).toBe(201)
      // Into a team the contributor cannot view: a 404, as the team does not exist for them.
      expect(
        (await contributor.api.post(`${base}/templates/${shown.id}/apply`, { teamId: other.id })).status,
      ).toBe(404)
      expect((await contributor.api.delete(`${base}/templates/${shown.id}`)).status).toBe(403)
    })
  })

  describe('recurring work', () => {
    it('creates, reads, lists by page, updates and deletes, refusing incomplete schedules', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const template = (
        await ws.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'task',
          name: 'T',
          task: taskSkeleton,
        })
      ).body
      const projectTemplate = (
        await ws.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'project',
          name: 'P',
          project: projectSkeleton,
        })
      ).body
      const body = (name: string, schedule: object) => ({
        teamId: ws.teamId,
        templateId: template.id,
        name,
        schedule,
      })
      const weekly = await ws.api.post(`${base}/recurrences`, body('Weekly', { frequency: 'weekly' }))
      expect(weekly.status).toBe(422)
      expect(weekly.body.errors[0].pointer).toBe('/body/schedule/weekdays')
      const monthlyWithDays = await ws.api.post(
        `${base}/recurrences`,
        body('M', { frequency: 'monthly', monthDay: 1, weekdays: ['monday'] }),
      )
      expect(monthlyWithDays.status).toBe(422)
      const fromProject = await ws.api.post(`${base}/recurrences`, {
        ...body('P', { frequency: 'daily' }),
        templateId: projectTemplate.id,
      })
      expect(fromProject.status).toBe(422)

      const ids: string[] = []
      for (const name of ['One', 'Two', 'Three']) {
        const res = await ws.api.post(`${base}/recurrences`, {
          ...body(name, { frequency: 'monthly', monthDay: 31 }),
          startDate: '2031-02-01',
        })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
        expect(res.body).toMatchObject({
          id: expect.stringMatching(/^rcur_/),
          schedule: { frequency: 'monthly', interval: 1, monthDay: 31 },
          // February's last day stands for the 31st.
          nextOccurrence: '2031-02-28',
          lastOccurrence: null,
          pausedAt: null,
        })
        ids.push(res.body.id)
      }
      const listed = await walk(ws.api, `${base}/recurrences`, 2)
      expect(listed.map((r) => r.id)).toEqual([...ids].reverse())
      const updated = await ws.api.patch(`${base}/recurrences/${ids[0]}`, {
        schedule: { frequency: 'weekly', interval: 2, weekdays: ['friday', 'monday'] },
      })
      expect(updated.status, JSON.stringify(updated.body)).toBe(200)
      // Fortnights count from the week of 2031-02-01 (a Saturday): Monday the 3rd is in the off week.
      expect(updated.body).toMatchObject({
        schedule: { frequency: 'weekly', interval: 2, weekdays: ['monday', 'friday'] },
        nextOccurrence: '2031-02-10',
      })
      expect((await ws.api.delete(`${base}/templates/${template.id}`)).status).toBe(409)
      expect((await ws.api.delete(`${base}/recurrences/${ids[0]}`)).status).toBe(204)
      expect((await ws.api.get(`${base}/recurrences/${ids[0]}`)).status).toBe(404)
      const events = (await ws.api.get(`${base}/stream?limit=100`)).body.data
        .map((e: any) => e.kind)
        .filter((k: string) => k.startsWith('recurrence.'))
      expect(events).toEqual([
        'recurrence.created',
        'recurrence.created',
        'recurrence.created',
        'recurrence.updated',
        'recurrence.deleted',
      ])
    })

    it('creates each occurrence once with two schedulers, catches up, pauses and resumes without back-fill', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const template = (
        await ws.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'task',
          name: 'T',
          task: taskSkeleton,
        })
      ).body
      const today = env.today()
      const recurrence = (
        await ws.api.post(`${base}/recurrences`, {
          teamId: ws.teamId,
          templateId: template.id,
          name: 'Daily check',
          schedule: { frequency: 'daily' },
        })
      ).body
      expect(recurrence).toMatchObject({ startDate: today, nextOccurrence: today })
      const mine = async () =>
        (await walk(ws.api, `${base}/recurrences/${recurrence.id}/occurrences`, 2)).map((o) => [
          o.date,
          o.taskId,
        ])

      for (let round = 0; round < 3; round++) await env.schedule()
      let occurrences = await mine()
      expect(occurrences.map(([d]) => d)).toEqual([today])
      const first = (await ws.api.get(`${base}/tasks/${occurrences[0]![1]}`)).body
      expect(first).toMatchObject({
        title: 'Rotate credentials',
        teamId: ws.teamId,
        dueDate: addDays(today, 2),
        creatorId: recurrence.creatorId,
      })

      // Three days later both schedulers catch up: each missed day once.
      await env.advance(3, ws)
      await env.schedule()
      await env.schedule()
      occurrences = await mine()
      expect(occurrences.map(([d]) => d)).toEqual([3, 2, 1, 0].map((n) => addDays(today, n)))
      expect(new Set(occurrences.map(([, t]) => t)).size).toBe(4)
      const tasks = await walk(ws.api, `${base}/tasks?teamId=${ws.teamId}`, 50)
      expect(tasks.filter((t) => t.title === 'Rotate credentials')).toHaveLength(4)
      expect((await ws.api.get(`${base}/recurrences/${recurrence.id}`)).body).toMatchObject({
        lastOccurrence: addDays(today, 3),
        nextOccurrence: addDays(today, 4),
      })

      const paused = await ws.api.post(`${base}/recurrences/${recurrence.id}/pause`)
      expect(paused.body).toMatchObject({ pausedAt: expect.any(String), nextOccurrence: null })
      await env.advance(2, ws)
      await env.schedule()
      expect(await mine()).toHaveLength(4)
      const resumed = await ws.api.post(`${base}/recurrences/${recurrence.id}/resume`)
      // No back-fill: the next occurrence is today, not the days that passed while paused.
      expect(resumed.body).toMatchObject({ pausedAt: null, nextOccurrence: addDays(today, 5) })
      await env.schedule()
      occurrences = await mine()
      expect(occurrences.map(([d]) => d)).toEqual([5, 3, 2, 1, 0].map((n) => addDays(today, n)))
      const events = (await ws.api.get(`${base}/stream?limit=200`)).body.data
      expect(events.filter((e: any) => e.kind === 'recurrence.occurred')).toHaveLength(5)
    }, 60_000)

    it('pauses itself when its creator can no longer create the task', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const contributor = await teamGuest(ws, 'contribute')
      const template = (
        await contributor.api.post(`${base}/templates`, {
          teamId: ws.teamId,
          kind: 'task',
          name: 'T',
          task: taskSkeleton,
        })
      ).body
      const recurrence = (
        await contributor.api.post(`${base}/recurrences`, {
          teamId: ws.teamId,
          templateId: template.id,
          name: 'R',
          schedule: { frequency: 'daily' },
        })
      ).body
      expect((await ws.api.delete(`/v1/orgs/${ws.orgId}/members/${contributor.memberId}`)).status).toBe(204)
      await env.schedule()
      const after = (await ws.api.get(`${base}/recurrences/${recurrence.id}`)).body
      expect(after).toMatchObject({ pausedAt: expect.any(String), nextOccurrence: null })
      const occurrences = (await ws.api.get(`${base}/recurrences/${recurrence.id}/occurrences`)).body.data
      expect(occurrences).toEqual([
        expect.objectContaining({ date: recurrence.nextOccurrence, taskId: null }),
      ])
    })
  })

  describe('reminders', () => {
    it('sets, lists by page and clears my reminders, and delivers each once as a notification', async () => {
      const ws = await newWorkspace(env.a)
      const base = `/v1/orgs/${ws.orgId}`
      const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Call the vendor' })).body
      const path = `${base}/tasks/${task.id}/reminders`
      const at = (hours: number) => new Date(env.clock().getTime() + hours * 3_600_000).toISOString()
      const past = await ws.api.post(path, { remindAt: at(-1) })
      expect(past.status).toBe(422)
      const ids: string[] = []
      for (const hours of [3, 1, 2]) {
        const res = await ws.api.post(path, { remindAt: at(hours), note: `in ${hours} h` })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
        expect(res.body).toMatchObject({
          id: expect.stringMatching(/^rmd_/),
          deliveredAt: null,
          taskId: task.id,
        })
        ids.push(res.body.id)
      }
      expect((await walk(ws.api, path, 2)).map((r) => r.note)).toEqual(['in 1 h', 'in 2 h', 'in 3 h'])

      // Someone else's reminders do not exist for a reader of the task.
      const viewer = await teamGuest(ws, 'view')
      expect((await walk(viewer.api, path, 10)).length).toBe(0)
      expect((await viewer.api.delete(`${path}/${ids[0]}`)).status).toBe(404)
      expect((await ws.api.delete(`${path}/${ids[0]}`)).status).toBe(204)

      await env.advance(1 / 8, ws) // three hours
      await env.schedule()
      await env.schedule()
      const inbox = (await ws.api.get(`${base}/notifications?kind=reminder`)).body.data
      expect(inbox.map((n: any) => [n.record.id, n.summary])).toEqual([
        [task.id, `${task.key} Call the vendor — in 2 h`],
        [task.id, `${task.key} Call the vendor — in 1 h`],
      ])
      const delivered = await walk(ws.api, path, 10)
      expect(delivered.every((r) => r.deliveredAt !== null)).toBe(true)
      const events = (await ws.api.get(`${base}/stream?limit=200`)).body.data
      expect(events.filter((e: any) => e.kind.startsWith('reminder.')).map((e: any) => e.kind)).toEqual([
        'reminder.created',
        'reminder.created',
        'reminder.created',
        'reminder.deleted',
      ])
    })
  })
})
