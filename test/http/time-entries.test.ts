import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const now = '2030-01-16T12:00:00.000Z'

describeEachDatabase('time entries', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  afterAll(() => server.drop())

  const base = (ws: TestWorkspace) => `/v1/orgs/${ws.orgId}`
  const task = async (ws: TestWorkspace, fields: Record<string, unknown> = {}) =>
    (await ws.api.post(`${base(ws)}/tasks`, { teamId: ws.teamId, title: 'Work', ...fields })).body

  it('logs time on a task and reads it back, with an event', async () => {
    const ws = await newWorkspace(server)
    const t = await task(ws)
    const created = await ws.api.post(`${base(ws)}/tasks/${t.id}/time-entries`, {
      minutes: 90,
      date: '2030-01-15',
      note: 'Debugging',
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      taskId: t.id,
      projectId: null,
      minutes: 90,
      date: '2030-01-15',
      note: 'Debugging',
      source: 'manual',
      startedAt: null,
    })
    expect(created.headers.get('location')).toBe(`${base(ws)}/time-entries/${created.body.id}`)
    expect((await ws.api.get(`${base(ws)}/time-entries/${created.body.id}`)).body).toEqual(created.body)
    const today = await ws.api.post(`${base(ws)}/tasks/${t.id}/time-entries`, { minutes: 5 })
    expect(today.body.date).toBe('2030-01-16')
    const events = await ws.api.get(`${base(ws)}/stream`)
    expect(events.body.data.map((e: any) => e.kind)).toContain('timeEntry.created')
  })

  it('refuses bad minutes, a non-date and a future day, pointing at the field, and logs nothing', async () => {
    const ws = await newWorkspace(server)
    const t = await task(ws)
    const path = `${base(ws)}/tasks/${t.id}/time-entries`
    // A future day matches the schema: logging only days already worked is a rule on the clock (422).
    for (const [body, pointer, status, code] of [
      [{ minutes: 0 }, '/body/minutes', 400, 'validation_failed'],
      [{ minutes: 1441 }, '/body/minutes', 400, 'validation_failed'],
      [{ minutes: 10, date: '2030-02-30' }, '/body/date', 400, 'validation_failed'],
      [{ minutes: 10, date: '2030-01-20' }, '/body/date', 422, 'rule_violated'],
    ] as const) {
      const res = await ws.api.post(path, body)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(res.body.code).toBe(code)
      expect(JSON.stringify(res.body.errors)).toContain(pointer)
    }
    expect((await ws.api.get(`${base(ws)}/time-entries`)).body.data).toEqual([])
  })

  it('shows entries and their minutes only on tasks the reader can view', async () => {
    const ws = await newWorkspace(server)
    const design = await ws.api.post(`${base(ws)}/teams`, { name: 'Design', key: 'DES' })
    const seen = await task(ws)
    const hidden = await task(ws, { teamId: design.body.id })
    await ws.api.post(`${base(ws)}/tasks/${seen.id}/time-entries`, { minutes: 30 })
    const secret = await ws.api.post(`${base(ws)}/tasks/${hidden.id}/time-entries`, { minutes: 45 })
    const guest = await teamGuest(ws, 'view')
    const listed = await guest.api.get(`${base(ws)}/time-entries`)
    expect(listed.body.data.map((e: any) => e.taskId)).toEqual([seen.id])
    expect((await guest.api.get(`${base(ws)}/time-entries/${secret.body.id}`)).status).toBe(404)
    expect((await guest.api.get(`${base(ws)}/time-entries?taskId=${hidden.id}`)).body.data).toEqual([])
    const summary = await guest.api.get(`${base(ws)}/time-entries/summary?groupBy=task`)
    expect(summary.body).toEqual({
      groupBy: 'task',
      totalMinutes: 30,
      entries: 1,
      groups: [{ key: seen.id, minutes: 30, entries: 1 }],
      truncated: false,
    })
    const all = await ws.api.get(`${base(ws)}/time-entries/summary?groupBy=task`)
    expect(all.body.totalMinutes).toBe(75)
    // A viewer cannot log time: that needs contribute.
    const denied = await guest.api.post(`${base(ws)}/tasks/${seen.id}/time-entries`, { minutes: 5 })
    expect(denied).toMatchObject({ status: 403, body: { code: 'capability_required' } })
  })

  it('lets people change their own entries; others need manage on the task', async () => {
    const ws = await newWorkspace(server)
    const t = await task(ws)
    const member = await ws.addMember('member')
    const mine = await member.api.post(`${base(ws)}/tasks/${t.id}/time-entries`, { minutes: 20 })
    expect(mine.status).toBe(201)
    const entry = `${base(ws)}/time-entries/${mine.body.id}`
    const edited = await member.api.patch(entry, { minutes: 25, note: 'Review' })
    expect(edited.body).toMatchObject({ minutes: 25, note: 'Review' })
    const other = await ws.addMember('member')
    const refused = await other.api.patch(entry, { minutes: 1 })
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'manage' },
    })
    expect((await other.api.delete(entry)).status).toBe(403)
    expect((await ws.api.get(entry)).body.minutes).toBe(25)
    // The owner manages every task.
    expect((await ws.api.patch(entry, { date: '2030-01-14' })).body.date).toBe('2030-01-14')
    expect((await ws.api.delete(entry)).status).toBe(204)
    expect((await ws.api.get(entry)).status).toBe(404)
    const kinds = (await ws.api.get(`${base(ws)}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(expect.arrayContaining(['timeEntry.updated', 'timeEntry.deleted']))
  })

  it('filters by person, task, project and dates, and pages newest day first', async () => {
    const ws = await newWorkspace(server)
    const project = await ws.api.post(`${base(ws)}/projects`, { name: 'Launch', teamIds: [ws.teamId] })
    const inProject = await task(ws, { projectId: project.body.id })
    const loose = await task(ws)
    const member = await ws.addMember('member')
    const days = ['2030-01-10', '2030-01-11', '2030-01-12', '2030-01-13', '2030-01-14']
    for (const date of days) {
      await ws.api.post(`${base(ws)}/tasks/${inProject.id}/time-entries`, { minutes: 10, date })
      await member.api.post(`${base(ws)}/tasks/${loose.id}/time-entries`, { minutes: 20, date })
    }
    const list = async (query: string) => {
      const seen: any[] = []
      let cursor: string | null = null
      do {
        const page: any = await ws.api.get(
          `${base(ws)}/time-entries?limit=3&${query}${cursor ? `&cursor=${cursor}` : ''}`,
        )
        expect(page.status).toBe(200)
        seen.push(...page.body.data)
        cursor = page.body.nextCursor
      } while (cursor)
      return seen
    }
    const all = await list('')
    expect(all).toHaveLength(10)
    expect(all.map((e) => e.date)).toEqual([...days, ...days].sort().reverse())
    expect(new Set(all.map((e) => e.id)).size).toBe(10)
    expect((await list(`projectId=${project.body.id}`)).every((e) => e.taskId === inProject.id)).toBe(true)
    expect((await list(`memberId=${member.memberId}`)).map((e) => e.minutes)).toEqual([20, 20, 20, 20, 20])
    expect((await list(`taskId=${loose.id}&from=2030-01-12&to=2030-01-13`)).map((e) => e.date)).toEqual([
      '2030-01-13',
      '2030-01-12',
    ])
    const badRange = await ws.api.get(`${base(ws)}/time-entries?from=2030-01-13&to=2030-01-12`)
    expect(badRange.status).toBe(422)

    const byProject = await ws.api.get(`${base(ws)}/time-entries/summary?groupBy=project`)
    expect(byProject.body.groups).toEqual([
      { key: null, minutes: 100, entries: 5 },
      { key: project.body.id, minutes: 50, entries: 5 },
    ])
    const byPerson = await ws.api.get(`${base(ws)}/time-entries/summary?groupBy=person&from=2030-01-14`)
    expect(byPerson.body.groups.map((g: any) => g.minutes)).toEqual([20, 10])
    expect(byPerson.body.groups[0].key).toBe(member.memberId)
    // 2030-01-10 is a Thursday of ISO week 2; the 14th a Monday of week 3.
    const byWeek = await ws.api.get(`${base(ws)}/time-entries/summary?groupBy=week`)
    expect(byWeek.body.groups).toEqual([
      { key: '2030-W02', minutes: 120, entries: 8 },
      { key: '2030-W03', minutes: 30, entries: 2 },
    ])
  })
})
