import { newId, PLAN_DAY_MAX } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TestPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const plan = '/v1/me/daily-plan'
const DAY_MS = 86_400_000
const day = (offset: number, from = Date.now()) => new Date(from + offset * DAY_MS).toISOString().slice(0, 10)

describeEachDatabase('me.dailyPlan', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  type Api = TestWorkspace['api']
  const task = async (ws: TestWorkspace, fields: Record<string, unknown> = {}) => {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
      teamId: ws.teamId,
      title: 'Task',
      ...fields,
    })
    if (res.status !== 201) throw new Error(JSON.stringify(res.body))
    return res.body as { id: string; key: string; title: string }
  }
  const add = (api: Api, date: string, body: unknown) => api.post(`${plan}/${date}/items`, body)
  const items = async (api: Api, date: string) =>
    (await api.get(`${plan}?from=${date}&to=${date}`)).body.days[0].items as any[]
  /** Makes `person` an active member of another workspace too. */
  const join = async (ws: TestWorkspace, person: TestPerson, role: 'member' | 'guest' = 'member') => {
    const memberId = newId('MemberId')
    const now = new Date().toISOString()
    await server.storage.transaction((s) =>
      s.members.insert({
        id: memberId,
        orgId: ws.orgId,
        userId: person.user.id,
        kind: 'person',
        role,
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    return memberId
  }

  it('adds tasks of two workspaces and text items in order, by id or by key, at a position', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server, { teamKey: 'OPS' })
    const person = await a.addMember('member')
    await join(b, person)
    const date = '2030-03-11'
    const t1 = await task(a, { title: 'Write the brief', dueDate: '2030-03-12' })
    const t2 = await task(b, { title: 'Rotate keys' })

    const first = await add(person.api, date, {
      task: { orgId: a.orgId, id: t1.id },
      timeBlock: { start: '09:00', end: '10:30' },
      estimateMinutes: 90,
    })
    expect(first.status).toBe(201)
    expect(first.headers.get('location')).toBe(`${plan}/items/${first.body.id}`)
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^pli_/),
      date,
      position: 0,
      kind: 'task',
      text: null,
      task: {
        hidden: false,
        orgId: a.orgId,
        orgName: 'Acme',
        id: t1.id,
        key: t1.key,
        title: 'Write the brief',
        stateCategory: 'backlog',
        dueDate: '2030-03-12',
      },
      timeBlock: { start: '09:00', end: '10:30' },
      estimateMinutes: 90,
      source: 'manual',
      carriedFrom: null,
      carryCount: 0,
      doneAt: null,
      doneBy: null,
    })
    const second = await add(person.api, date, {
      task: { orgId: b.orgId, key: t2.key.toLowerCase() },
      source: 'suggested:dueSoon',
    })
    expect(second.status).toBe(201)
    expect(second.body).toMatchObject({
      position: 1,
      source: 'suggested:dueSoon',
      task: { id: t2.id, orgId: b.orgId },
    })
    const note = await add(person.api, date, { text: 'Call the printer', position: 0 })
    expect(note.body).toMatchObject({ kind: 'text', text: 'Call the printer', task: null, position: 0 })

    const listed = await items(person.api, date)
    expect(listed.map((i) => i.id)).toEqual([note.body.id, first.body.id, second.body.id])
    expect(listed.map((i) => i.position)).toEqual([0, 1, 2])
    const got = await person.api.get(`${plan}/items/${first.body.id}`)
    expect(got.status).toBe(200)
    expect(got.body).toEqual({ ...first.body, position: 1 })
    expect(got.headers.get('etag')).toBeTruthy()

    // Another day, and another person, are empty.
    expect(await items(person.api, '2030-03-12')).toEqual([])
    expect(await items(a.api, date)).toEqual([])
    expect((await a.api.get(`${plan}/items/${first.body.id}`)).status).toBe(404)
  })

  it('refuses bad items with clear problems and adds nothing', async () => {
    const ws = await newWorkspace(server)
    const stranger = await newWorkspace(server)
    const guest = await ws.addMember('guest')
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const hidden = await task(ws, { teamId: design, title: 'Secret' })
    const theirs = await task(stranger)
    const date = '2030-03-11'
    for (const ref of [
      { orgId: ws.orgId, id: hidden.id },
      { orgId: ws.orgId, key: hidden.key },
      { orgId: stranger.orgId, id: theirs.id },
      { orgId: ws.orgId, id: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE' },
    ]) {
      const res = await add(guest.api, date, { task: ref })
      expect(res).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/body/task' }] },
      })
      expect(JSON.stringify(res.body)).not.toContain('Secret')
    }
    const both = await add(ws.api, date, { task: { orgId: ws.orgId, id: hidden.id }, text: 'x' })
    expect(both).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const neither = await add(ws.api, date, {})
    expect(neither).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const idAndKey = await add(ws.api, date, { task: { orgId: ws.orgId, id: hidden.id, key: hidden.key } })
    expect(idAndKey).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const backwards = await add(ws.api, date, { text: 'x', timeBlock: { start: '11:00', end: '10:00' } })
    expect(backwards).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/timeBlock/end' }] } })
    expect((await add(ws.api, date, { text: 'x', timeBlock: { start: '25:00', end: '26:00' } })).status).toBe(
      400,
    )
    expect((await add(ws.api, date, { text: 'x'.repeat(501) })).status).toBe(400)
    expect(await add(ws.api, '2030-02-30', { text: 'x' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', errors: [{ pointer: '/params/date' }] },
    })
    expect((await add(ws.api, 'tomorrow', { text: 'x' })).status).toBe(400)
    const once = await add(ws.api, date, { task: { orgId: ws.orgId, id: hidden.id } })
    expect(once.status).toBe(201)
    const twice = await add(ws.api, date, { task: { orgId: ws.orgId, id: hidden.id } })
    expect(twice).toMatchObject({ status: 409, body: { code: 'conflict' } })
    expect(await items(guest.api, date)).toEqual([])
    expect((await items(ws.api, date)).map((i) => i.id)).toEqual([once.body.id])
  })

  it('updates, moves within and across days, completes, reopens and removes items', async () => {
    const ws = await newWorkspace(server)
    const date = '2030-04-01'
    const t = await task(ws)
    const taskItem = (await add(ws.api, date, { task: { orgId: ws.orgId, id: t.id } })).body
    const a = (await add(ws.api, date, { text: 'A' })).body
    const b = (await add(ws.api, date, { text: 'B' })).body

    const path = (id: string) => `${plan}/items/${id}`
    const changed = await ws.api.patch(path(a.id), {
      text: 'A2',
      estimateMinutes: 30,
      timeBlock: { start: '14:00', end: '14:30' },
    })
    expect(changed).toMatchObject({
      status: 200,
      body: { text: 'A2', estimateMinutes: 30, timeBlock: { start: '14:00', end: '14:30' } },
    })
    const cleared = await ws.api.patch(path(a.id), { timeBlock: null, estimateMinutes: null })
    expect(cleared.body).toMatchObject({ timeBlock: null, estimateMinutes: null, text: 'A2' })
    const textOnTask = await ws.api.patch(path(taskItem.id), { text: 'nope' })
    expect(textOnTask).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/text' }] } })
    expect((await ws.api.patch(path(a.id), {})).status).toBe(400)

    const first = await ws.api.post(`${path(b.id)}/move`, { beforeId: taskItem.id })
    expect(first).toMatchObject({ status: 200, body: { id: b.id, position: 0 } })
    const last = await ws.api.post(`${path(a.id)}/move`, { afterId: taskItem.id })
    expect(last).toMatchObject({ status: 200, body: { id: a.id, position: 2 } })
    expect((await items(ws.api, date)).map((i) => [i.id, i.position])).toEqual([
      [b.id, 0],
      [taskItem.id, 1],
      [a.id, 2],
    ])
    // Another day's item is no anchor.
    const elsewhere = (await add(ws.api, '2030-04-03', { text: 'Later' })).body
    const acrossDays = await ws.api.post(`${path(a.id)}/move`, { beforeId: elsewhere.id })
    expect(acrossDays).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/beforeId' }] },
    })

    // Moving to another day puts it at that day's end and closes the gap it leaves.
    const moved = await ws.api.patch(path(b.id), { date: '2030-04-02' })
    expect(moved.body).toMatchObject({ date: '2030-04-02', position: 0 })
    expect((await items(ws.api, date)).map((i) => [i.id, i.position])).toEqual([
      [taskItem.id, 0],
      [a.id, 1],
    ])
    // The task once per day holds for moves too.
    await add(ws.api, '2030-04-02', { task: { orgId: ws.orgId, id: t.id } })
    expect((await ws.api.patch(path(taskItem.id), { date: '2030-04-02' })).status).toBe(409)

    const done = await ws.api.post(`${path(a.id)}/complete`)
    expect(done.body).toMatchObject({ doneBy: 'me', doneAt: expect.any(String) })
    const again = await ws.api.post(`${path(a.id)}/complete`)
    expect(again.body.doneAt).toBe(done.body.doneAt)
    const reopened = await ws.api.post(`${path(a.id)}/reopen`)
    expect(reopened.body).toMatchObject({ doneAt: null, doneBy: null })

    // A task completed anywhere shows its item done; the item cannot be reopened until the task is.
    await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${t.id}`, { stateId: ws.states.Done!.id })
    const byTask = (await ws.api.get(path(taskItem.id))).body
    expect(byTask).toMatchObject({
      doneBy: 'system:taskCompleted',
      doneAt: expect.any(String),
      task: { stateCategory: 'completed' },
    })
    expect((await ws.api.post(`${path(taskItem.id)}/reopen`)).body.code).toBe('conflict')
    await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${t.id}`, { stateId: ws.states.Todo!.id })
    expect((await ws.api.get(path(taskItem.id))).body).toMatchObject({ doneBy: null, doneAt: null })

    const etag = (await ws.api.get(path(a.id))).headers.get('etag')!
    const stale = await ws.api.patch(path(a.id), { text: 'A3' }, { 'if-match': '"stale"' })
    expect(stale.status).toBe(412)
    expect((await ws.api.patch(path(a.id), { text: 'A3' }, { 'if-match': etag })).status).toBe(200)

    expect((await ws.api.delete(path(taskItem.id))).status).toBe(204)
    expect((await ws.api.delete(path(taskItem.id))).status).toBe(404)
    expect((await items(ws.api, date)).map((i) => [i.id, i.position])).toEqual([[a.id, 0]])
    // The task itself is untouched.
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${t.id}`)).status).toBe(200)
  })

  it('never reveals a task the person can no longer view: access removed, task deleted, membership ended', async () => {
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server, { teamKey: 'OPS' })
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const guest = await ws.addMember('guest')
    const otherMember = await join(other, guest)
    const grant = async (teamId: string) =>
      (
        await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
          subjectType: 'member',
          subjectId: guest.memberId,
          containerType: 'team',
          containerId: teamId,
          capability: 'view',
        })
      ).body.id as string
    await grant(ws.teamId)
    const designGrant = await grant(design)
    const secret = await task(ws, { teamId: design, title: 'Secret merger' })
    const doomed = await task(ws, { title: 'Doomed task' })
    const elsewhere = await task(other, { title: 'Elsewhere work' })
    const date = '2030-05-05'
    const i1 = (await add(guest.api, date, { task: { orgId: ws.orgId, id: secret.id } })).body
    const i2 = (await add(guest.api, date, { task: { orgId: ws.orgId, id: doomed.id } })).body
    const i3 = (await add(guest.api, date, { task: { orgId: other.orgId, id: elsewhere.id } })).body
    expect(i1.task.title).toBe('Secret merger')

    await ws.api.delete(`/v1/orgs/${ws.orgId}/grants/${designGrant}`)
    await ws.api.delete(`/v1/orgs/${ws.orgId}/tasks/${doomed.id}`)
    await other.api.delete(`/v1/orgs/${other.orgId}/members/${otherMember}`)

    const dayRes = await guest.api.get(`${plan}?from=${date}&to=${date}`)
    expect(dayRes.body.days[0].items.map((i: any) => [i.id, i.task])).toEqual([
      [i1.id, { hidden: true, reason: 'no_access' }],
      [i2.id, { hidden: true, reason: 'no_access' }],
      [i3.id, { hidden: true, reason: 'membership_ended' }],
    ])
    const text = JSON.stringify(dayRes.body)
    for (const leak of ['Secret merger', 'Doomed task', 'Elsewhere work', secret.key, secret.id, other.orgId])
      expect(text).not.toContain(leak)
    const one = await guest.api.get(`${plan}/items/${i1.id}`)
    expect(one.body.task).toEqual({ hidden: true, reason: 'no_access' })
    // Hidden items can still be ordered and removed; access back shows the task again.
    const order = [i3.id, i2.id, i1.id]
    expect((await guest.api.post(`${plan}/items/${i3.id}/move`, { beforeId: i1.id })).status).toBe(200)
    expect((await guest.api.post(`${plan}/items/${i2.id}/move`, { afterId: i3.id })).status).toBe(200)
    await grant(design)
    const back = await items(guest.api, date)
    expect(back.map((i) => i.id)).toEqual(order)
    expect(back[2].task).toMatchObject({ hidden: false, title: 'Secret merger' })
    expect((await guest.api.delete(`${plan}/items/${i3.id}`)).status).toBe(204)
  })

  it('carries unfinished items over from earlier days once, merging a task planned on both', async () => {
    const ws = await newWorkspace(server)
    const t1 = await task(ws, { title: 'Open task' })
    const t2 = await task(ws, { title: 'Both days' })
    const t3 = await task(ws, { title: 'Completed elsewhere' })
    const d1 = '2030-06-01'
    const d2 = '2030-06-02'
    const d3 = '2030-06-03'
    const open1 = (await add(ws.api, d1, { task: { orgId: ws.orgId, id: t1.id } })).body
    const done1 = (await add(ws.api, d1, { text: 'Done already' })).body
    await ws.api.post(`${plan}/items/${done1.id}/complete`)
    const text2 = (await add(ws.api, d2, { text: 'Open note' })).body
    const both2 = (await add(ws.api, d2, { task: { orgId: ws.orgId, id: t2.id } })).body
    const completed = (await add(ws.api, d2, { task: { orgId: ws.orgId, id: t3.id } })).body
    await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${t3.id}`, { stateId: ws.states.Done!.id })
    const kept = (await add(ws.api, d3, { task: { orgId: ws.orgId, id: t2.id } })).body

    const res = await ws.api.post(`${plan}/${d3}/carry-over`)
    expect(res.status).toBe(200)
    expect(res.body.carried).toBe(3)
    expect(res.body.items.map((i: any) => [i.id, i.position, i.carriedFrom, i.carryCount])).toEqual([
      [kept.id, 0, null, 0],
      [open1.id, 1, d1, 1],
      [text2.id, 2, d2, 1],
    ])
    // Done items stay on their day; the merged item is gone.
    expect((await items(ws.api, d1)).map((i) => [i.id, i.position])).toEqual([[done1.id, 0]])
    expect((await items(ws.api, d2)).map((i) => [i.id, i.position])).toEqual([[completed.id, 0]])
    expect((await ws.api.get(`${plan}/items/${both2.id}`)).status).toBe(404)

    const again = await ws.api.post(`${plan}/${d3}/carry-over`)
    expect(again.body.carried).toBe(0)
    expect(again.body.items).toEqual(res.body.items)

    // Carried again to a later day, the count grows.
    const later = await ws.api.post(`${plan}/2030-06-04/carry-over`)
    expect(later.body.items.map((i: any) => [i.id, i.carriedFrom, i.carryCount])).toEqual([
      [kept.id, d3, 1],
      [open1.id, d3, 2],
      [text2.id, d3, 2],
    ])
  })

  it('suggests assigned open work across workspaces, ranked, permission-scoped and not yet planned', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server, { teamKey: 'OPS' })
    const person = await a.addMember('member')
    const memberB = await join(b, person)
    const memberA = person.memberId
    const today = day(0)
    const cycle = await a.api.post(`/v1/orgs/${a.orgId}/teams/${a.teamId}/cycles`, {
      startsAt: new Date(Date.now() - 2 * DAY_MS).toISOString(),
      endsAt: new Date(Date.now() + 5 * DAY_MS).toISOString(),
    })
    expect(cycle.status).toBe(201)
    const overdue = await task(b, { title: 'Overdue', assigneeId: memberB, dueDate: day(-2) })
    const dueToday = await task(a, { title: 'Due today', assigneeId: memberA, dueDate: today })
    const soon = await task(a, { title: 'Soon', assigneeId: memberA, dueDate: day(2) })
    const inCycle = await task(a, { title: 'In cycle', assigneeId: memberA, cycleId: cycle.body.id })
    const freed = await task(b, { title: 'Freed', assigneeId: memberB })
    const blocker = await task(b, { title: 'Blocker' })
    await b.api.put(`/v1/orgs/${b.orgId}/tasks/${freed.id}/blockers/${blocker.id}`)
    const stillBlocked = await task(b, { title: 'Still blocked', assigneeId: memberB })
    const openBlocker = await task(b, { title: 'Open blocker' })
    await b.api.put(`/v1/orgs/${b.orgId}/tasks/${stillBlocked.id}/blockers/${openBlocker.id}`)
    await b.api.put(`/v1/orgs/${b.orgId}/tasks/${stillBlocked.id}/blockers/${blocker.id}`)
    await b.api.patch(`/v1/orgs/${b.orgId}/tasks/${blocker.id}`, { stateId: b.states.Done!.id })
    // Not suggested: someone else's, done, far off, undated, and already planned.
    await task(a, { title: 'Theirs', dueDate: today })
    await task(a, { title: 'Done', assigneeId: memberA, dueDate: today, stateId: a.states.Done!.id })
    await task(a, { title: 'Far', assigneeId: memberA, dueDate: day(30) })
    await task(a, { title: 'Undated', assigneeId: memberA })
    const planned = await task(a, { title: 'Planned', assigneeId: memberA, dueDate: day(-1) })
    await add(person.api, today, { task: { orgId: a.orgId, id: planned.id } })
    // A task assigned to the person in a team they cannot view is not suggested.
    const design = (await a.api.post(`/v1/orgs/${a.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const guest = await a.addMember('guest')
    await task(a, { teamId: design, title: 'Invisible', assigneeId: guest.memberId, dueDate: today })

    const res = await person.api.get(`${plan}/${today}/suggestions`)
    expect(res.status).toBe(200)
    expect(res.body.partial).toEqual([])
    expect(res.body.data.map((s: any) => [s.reason, s.task.title])).toEqual([
      ['overdue', 'Overdue'],
      ['dueToday', 'Due today'],
      ['unblocked', 'Freed'],
      ['currentCycle', 'In cycle'],
      ['dueSoon', 'Soon'],
    ])
    expect(res.body.data[0].task).toEqual({
      hidden: false,
      orgId: b.orgId,
      orgName: 'Acme',
      id: overdue.id,
      key: overdue.key,
      title: 'Overdue',
      stateCategory: 'backlog',
      dueDate: day(-2),
    })
    void dueToday
    void soon
    void inCycle
    expect((await person.api.get(`${plan}/${today}/suggestions?limit=2`)).body.data).toHaveLength(2)
    expect((await guest.api.get(`${plan}/${today}/suggestions`)).body.data).toEqual([])

    // A workspace the person left contributes nothing.
    await b.api.delete(`/v1/orgs/${b.orgId}/members/${memberB}`)
    const after = await person.api.get(`${plan}/${today}/suggestions`)
    expect(after.body.data.map((s: any) => s.task.title)).toEqual(['Due today', 'In cycle', 'Soon'])
  })

  it(`holds at most ${PLAN_DAY_MAX} items a day`, async () => {
    const ws = await newWorkspace(server)
    const date = '2030-07-07'
    const stored = new Date().toISOString()
    await server.storage.transaction(async (s) => {
      for (let i = 0; i < PLAN_DAY_MAX; i++)
        await s.planItems.insert({
          id: newId('PlanItemId'),
          userId: ws.owner.user.id,
          date,
          position: i,
          kind: 'text',
          orgId: null,
          taskId: null,
          text: `Item ${i}`,
          timeStart: null,
          timeEnd: null,
          estimateMinutes: null,
          source: 'manual',
          carriedFrom: null,
          carryCount: 0,
          doneAt: null,
          createdAt: stored,
          updatedAt: stored,
        })
    })
    expect(await add(ws.api, date, { text: 'One too many' })).toMatchObject({
      status: 409,
      body: { code: 'conflict' },
    })
  }, 60_000)

  it('lists a range of days, empty days too, with hidden tasks hidden; refuses a bad or too long range', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const guest = await ws.addMember('guest')
    const grant = (
      await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
        subjectType: 'member',
        subjectId: guest.memberId,
        containerType: 'team',
        containerId: design,
        capability: 'view',
      })
    ).body.id
    const t = await task(ws, { teamId: design, title: 'Sketch' })
    const a = (await add(guest.api, '2030-04-01', { text: 'Standup' })).body
    const b = (await add(guest.api, '2030-04-03', { task: { orgId: ws.orgId, id: t.id } })).body
    const c = (await add(guest.api, '2030-04-03', { text: 'Review', position: 0 })).body
    await add(guest.api, '2030-04-08', { text: 'Outside the range' })
    await add(ws.api, '2030-04-02', { text: 'Someone else’s' })
    const week = await guest.api.get(`${plan}?from=2030-04-01&to=2030-04-07`)
    expect(week.status).toBe(200)
    expect(week.body.from).toBe('2030-04-01')
    expect(week.body.days.map((d: any) => [d.date, d.items.map((i: any) => i.id)])).toEqual([
      ['2030-04-01', [a.id]],
      ['2030-04-02', []],
      ['2030-04-03', [c.id, b.id]],
      ['2030-04-04', []],
      ['2030-04-05', []],
      ['2030-04-06', []],
      ['2030-04-07', []],
    ])
    expect(week.body.days[2]).toEqual(
      (await guest.api.get(`${plan}?from=2030-04-03&to=2030-04-03`)).body.days[0],
    )
    await ws.api.delete(`/v1/orgs/${ws.orgId}/grants/${grant}`)
    const hidden = await guest.api.get(`${plan}?from=2030-04-03&to=2030-04-03`)
    expect(hidden.body.days[0].items[1].task).toEqual({ hidden: true, reason: 'no_access' })
    expect(JSON.stringify(hidden.body)).not.toContain('Sketch')

    const month = await guest.api.get(`${plan}?from=2030-04-01&to=2030-05-01`)
    expect(month.body.days).toHaveLength(31)
    for (const [query, pointer, status, code] of [
      ['from=2030-04-01&to=2030-05-02', '/query/to', 422, 'rule_violated'],
      ['from=2030-04-05&to=2030-04-04', '/query/to', 422, 'rule_violated'],
      ['from=2030-02-30&to=2030-03-02', '/query/from', 400, 'validation_failed'],
    ] as const) {
      const res = await guest.api.get(`${plan}?${query}`)
      expect(res).toMatchObject({ status, body: { code, errors: [{ pointer }] } })
    }
    expect((await guest.api.get(`${plan}?from=2030-04-01`)).status).toBe(400)
  })
})
