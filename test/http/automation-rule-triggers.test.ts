import { beforeEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../support/matrix.ts'
import { ruleInstances } from '../support/rule-instances.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/** Noon UTC; each test starts here, and moves the clock both engines read. */
const START = Date.parse('2030-03-04T12:00:00.000Z')

describeEachDatabase('automation rules: due dates, linked tasks, notify', (db) => {
  // Two engines (two servers) on one database, as two instances of a deployment, on one clock.
  let now = START
  const instances = ruleInstances(db, { clock: () => new Date(now) })
  const { settle, rulesOf, rule, task, read, runsOf } = instances
  beforeEach(async () => {
    now = START
    // The database is the suite's: an earlier test's rules take no part in this one's passes.
    await instances.a.storage.db.updateTable('automationRules').set({ enabled: 0 }).execute()
  })

  /** Moves the clock; the owner signs in again, as access tokens live 15 minutes of it. */
  async function at(time: string, ws: TestWorkspace) {
    now = Date.parse(time)
    const token = await instances.a.engine.tokens.issueAccessToken({
      userId: ws.owner.user.id,
      scopes: ['work:read', 'work:write'],
    })
    ws.api = instances.a.as(token)
  }
  const patch = (ws: TestWorkspace, id: string, body: object) =>
    ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${id}`, body)
  const commentsOn = async (ws: TestWorkspace, id: string) =>
    (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${id}/comments`)).body.data as any[]
  const eventsOf = (ws: TestWorkspace) =>
    instances.a.storage.read((s) => s.events.list(ws.orgId as never, 0, 10_000))

  it('fires dueDatePassed once when the due day ends (UTC), again when a moved date passes', async () => {
    const ws = await newWorkspace(instances.a)
    const created = await rule(ws, {
      trigger: { on: 'dueDatePassed' },
      actions: [
        { type: 'setPriority', value: 'urgent' },
        { type: 'comment', value: 'This is overdue.' },
      ],
    })
    const due = await task(ws, { dueDate: '2030-03-05' })
    const done = await task(ws, { dueDate: '2030-03-05', stateId: ws.states.Done!.id })
    const undated = await task(ws)
    // Its date passed before the rule existed: the past, never the rule's business.
    const earlier = await task(ws, { dueDate: '2030-03-01' })
    expect(await settle()).toBe(0)

    await at('2030-03-05T23:59:59.999Z', ws)
    expect(await settle()).toBe(0)
    expect((await read(ws, due)).priority).toBe('none')

    await at('2030-03-06T00:00:00.000Z', ws)
    expect(await settle()).toBe(1)
    expect((await read(ws, due)).priority).toBe('urgent')
    for (const id of [done, undated, earlier]) expect((await read(ws, id)).priority).toBe('none')
    expect((await commentsOn(ws, due)).map((c) => [c.body, c.authorId, c.automation])).toEqual([
      ['This is overdue.', created.authorId, created.id],
    ])
    const history = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${due}/history`)).body.data
    expect(history[0]).toMatchObject({ field: 'priority', actorId: created.authorId, automation: created.id })
    const passed = (await eventsOf(ws)).filter((e) => e.kind === 'task.due_date_passed')
    expect(passed.map((e) => [e.resourceId, e.actorId, e.data.dueDate, e.data.passedAt])).toEqual([
      [due, null, '2030-03-05', '2030-03-06T00:00:00.000Z'],
    ])

    // Unchanged, it never fires again, whatever else changes.
    await patch(ws, due, { priority: 'none', title: 'Still work' })
    await at('2030-03-07T09:00:00.000Z', ws)
    expect(await settle()).toBe(0)
    expect((await read(ws, due)).priority).toBe('none')

    // Moved, it fires when the new date passes; a task closed in time does not.
    await patch(ws, due, { dueDate: '2030-03-08' })
    const closed = await task(ws, { dueDate: '2030-03-08' })
    await patch(ws, closed, { stateId: ws.states.Done!.id })
    await at('2030-03-09T00:30:00.000Z', ws)
    expect(await settle()).toBe(1)
    expect((await read(ws, due)).priority).toBe('urgent')
    expect((await read(ws, closed)).priority).toBe('none')
    expect((await runsOf(ws, created.id)).map((r) => [r.taskId, r.outcome])).toEqual([
      [due, 'succeeded'],
      [due, 'succeeded'],
    ])
    expect((await eventsOf(ws)).filter((e) => e.kind === 'task.due_date_passed')).toHaveLength(2)
  })

  it('fires linkedItemStateChanged on the tasks linked to the one that moved, narrowed by relation and category', async () => {
    const ws = await newWorkspace(instances.a)
    const base = `/v1/orgs/${ws.orgId}/tasks`
    const blocker = await task(ws, { title: 'Build the API' })
    const blocked = await task(ws, { title: 'Ship the client', stateId: ws.states.Backlog!.id })
    const parent = await task(ws, { title: 'Launch' })
    const child = await task(ws, { title: 'Write the notes', parentId: parent })
    expect((await ws.api.put(`${base}/${blocked}/blockers/${blocker}`)).status).toBe(200)
    const unblock = await rule(ws, {
      trigger: { on: 'linkedItemStateChanged', relation: 'blockedBy', category: 'completed' },
      actions: [{ type: 'setState', value: ws.states.Todo!.id }],
    })
    const rollUp = await rule(ws, {
      trigger: { on: 'linkedItemStateChanged', relation: 'child' },
      actions: [{ type: 'comment', value: 'A subtask moved.' }],
    })

    // Started, not completed: the category keeps the first rule still.
    await patch(ws, blocker, { stateId: ws.states['In Progress']!.id })
    expect(await settle()).toBe(0)
    await patch(ws, blocker, { stateId: ws.states.Done!.id })
    expect(await settle()).toBe(1)
    expect((await read(ws, blocked)).stateId).toBe(ws.states.Todo!.id)
    expect((await runsOf(ws, unblock.id)).map((r) => [r.taskId, r.outcome])).toEqual([[blocked, 'succeeded']])

    // The subtask moved: its parent hears of it; the parent moving wakes no `child` rule on the subtask.
    await patch(ws, child, { stateId: ws.states.Done!.id })
    expect(await settle()).toBe(1)
    expect((await commentsOn(ws, parent)).map((c) => c.body)).toEqual(['A subtask moved.'])
    await patch(ws, parent, { stateId: ws.states.Done!.id })
    expect(await settle()).toBe(0)
    expect(await commentsOn(ws, child)).toEqual([])
    expect((await runsOf(ws, rollUp.id)).map((r) => r.taskId)).toEqual([parent])
  })

  it('notify reaches the assignee, the subscribers and named members once, as ruleNotified', async () => {
    const ws = await newWorkspace(instances.a)
    const assignee = await ws.addMember('member')
    const follower = await ws.addMember('member')
    const named = await ws.addMember('member')
    const bystander = await ws.addMember('member')
    const rules = rulesOf(ws)
    // Someone who is not a member of the workspace is refused, pointing at them.
    const bad = await ws.api.post(rules, {
      name: 'Bad',
      trigger: { on: 'stateEntered' },
      actions: [
        { type: 'notify', value: { to: ['assignee', 'mem_01J00000000000000000000000'], message: 'x' } },
      ],
    })
    expect(bad.status).toBe(422)
    expect(bad.body).toMatchObject({
      code: 'reference_not_found',
      errors: [{ pointer: '/body/actions/0/value/to/1' }],
    })
    const empty = await ws.api.post(rules, {
      name: 'Bad',
      trigger: { on: 'stateEntered' },
      actions: [{ type: 'notify', value: { to: ['assignee'], message: '' } }],
    })
    expect(empty.status).toBe(400)

    const notifying = (to: string[]) => [{ type: 'notify', value: { to, message: 'Work started' } }]
    const draft = await rule(ws, {
      trigger: { on: 'stateEntered', stateId: ws.states['In Progress']!.id },
      actions: notifying(['assignee', 'subscribers', named.memberId]),
    })
    const item = `/v1/orgs/${ws.orgId}/automation-rules/${draft.id}`
    const created = (
      await ws.api.patch(item, {
        actions: notifying(['assignee', 'subscribers', named.memberId, draft.authorId]),
      })
    ).body
    const id = await task(ws, { title: 'Ship it', assigneeId: assignee.memberId })
    expect(
      (await ws.api.put(`/v1/orgs/${ws.orgId}/tasks/${id}/subscribers/${follower.memberId}`)).status,
    ).toBe(200)
    await patch(ws, id, { stateId: ws.states['In Progress']!.id })
    expect(await settle()).toBe(1)
    // Both notifiers, at once on Postgres (SQLite's connections in one process would wait on each other).
    const notify = (s: typeof instances.a) =>
      s.engine.notify({
        onError: (error) => {
          throw error
        },
      })
    if (db.name === 'postgres') await Promise.all([notify(instances.a), notify(instances.b)])
    else for (const s of [instances.a, instances.b]) await notify(s)

    const key = (await read(ws, id)).key
    const notified = async (api: TestWorkspace['api']) =>
      ((await api.get(`/v1/orgs/${ws.orgId}/notifications?view=all`)).body.data as any[])
        .filter((n) => n.kind === 'ruleNotified')
        .map((n) => [n.summary, n.record.id, n.actorId])
    const expected = [[`Work started (${key} Ship it)`, id, created.authorId]]
    for (const person of [assignee, follower, named]) expect(await notified(person.api)).toEqual(expected)
    // The author named themselves: they asked, so they hear it too.
    expect(await notified(ws.api)).toEqual(expected)
    expect(await notified(bystander.api)).toEqual([])
    const events = (await eventsOf(ws)).filter((e) => e.kind === 'automation_rule.notified')
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ actorId: created.authorId, teamId: ws.teamId, resourceId: created.id })
  })
})
