import { RULE_CHAIN_LIMIT } from '@workgraph/core'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../support/matrix.ts'
import { ruleInstances } from '../support/rule-instances.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('automation rules', (db) => {
  // Two engines (two servers) on one database, as two instances of a deployment.
  const instances = ruleInstances(db)
  const { settle, rulesOf, rule, task, read, runsOf } = instances
  const label = async (ws: TestWorkspace, name: string) =>
    (await ws.api.post(`/v1/orgs/${ws.orgId}/labels`, { name })).body.id as string

  it('is created, read, changed and deleted by the team’s managers, each change an event', async () => {
    const ws = await newWorkspace(instances.a)
    const member = await ws.addMember('member')
    const admin = await ws.addMember('admin')
    const body = {
      trigger: { on: 'stateEntered', stateId: ws.states.Done!.id },
      conditions: { priority: 'urgent' },
      actions: [{ type: 'comment', value: 'Shipped.' }],
    }
    const created = await rule(ws, body)
    expect(created).toMatchObject({ ...body, enabled: true, teamId: ws.teamId, name: 'A rule' })
    const item = `/v1/orgs/${ws.orgId}/automation-rules/${created.id}`
    expect((await ws.api.get(item)).body).toEqual(created)
    expect((await ws.api.get(rulesOf(ws))).body).toEqual({ data: [created], nextCursor: null })

    // Only managers of the team: a member holds `assign`.
    const refused = await member.api.post(rulesOf(ws), { name: 'Mine', ...body })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'capability_required', capability: 'manage' })
    expect((await member.api.get(item)).status).toBe(403)

    // Whoever changes it becomes its author: it then acts with their rights.
    const changed = await admin.api.patch(item, { enabled: false })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ enabled: false, authorId: admin.memberId })
    expect((await admin.api.patch(item, { enabled: false })).body).toEqual(changed.body)

    expect((await ws.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    const events = await instances.a.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))
    expect(events.filter((e) => e.resourceId === created.id).map((e) => [e.kind, e.teamId])).toEqual([
      ['automation_rule.created', ws.teamId],
      ['automation_rule.updated', ws.teamId],
      ['automation_rule.deleted', ws.teamId],
    ])
  })

  it('refuses conditions a saved view would refuse, and actions of the wrong kind, pointing at them', async () => {
    const ws = await newWorkspace(instances.a)
    const other = await newWorkspace(instances.a, { teamKey: 'OPS' })
    const base = { trigger: { on: 'taskCreated' }, actions: [{ type: 'setPriority', value: 'high' }] }
    const cases: Array<[object, number, string]> = [
      [{ conditions: { nonsense: 1 } }, 400, '/body/conditions'],
      [{ conditions: { priority: 'very' } }, 400, '/body/conditions/priority'],
      // An act's value that is not of its kind fails the act's schema (one of a union): the act is named.
      [{ actions: [{ type: 'setPriority', value: 'very' }] }, 400, '/body/actions/0'],
      [{ actions: [{ type: 'setState', value: null }] }, 400, '/body/actions/0'],
      [{ actions: [{ type: 'addLabel', value: 'bug' }] }, 400, '/body/actions/0'],
      [{ actions: [{ type: 'setState', value: other.states.Done!.id }] }, 422, '/body/actions/0/value'],
      [{ trigger: { on: 'taskCreated', stateId: ws.states.Done!.id } }, 400, '/body/trigger'],
      [{ trigger: { on: 'stateEntered', stateId: other.states.Done!.id } }, 422, '/body/trigger/stateId'],
      [{ actions: [] }, 400, '/body/actions'],
    ]
    for (const [change, status, pointer] of cases) {
      const res = await ws.api.post(rulesOf(ws), { name: 'Bad', ...base, ...change })
      expect(res.status, JSON.stringify(change)).toBe(status)
      expect(res.body.errors[0].pointer, JSON.stringify(change)).toMatch(new RegExp(`^${pointer}`))
    }
    expect((await ws.api.get(rulesOf(ws))).body.data).toEqual([])
  })

  it('acts once per event with two engines, as its author, the history naming the rule', async () => {
    const ws = await newWorkspace(instances.a)
    const bug = await label(ws, 'bug')
    const ui = await label(ws, 'ui')
    const created = await rule(ws, {
      trigger: { on: 'labelAdded', labelId: bug },
      actions: [
        { type: 'setPriority', value: 'urgent' },
        { type: 'comment', value: 'Bugs are urgent here.' },
      ],
    })
    const me = created.authorId
    const id = await task(ws)
    await ws.api.put(`/v1/orgs/${ws.orgId}/tasks/${id}/labels/${ui}`)
    expect(await settle()).toBe(0)
    expect((await read(ws, id)).priority).toBe('none')

    await ws.api.put(`/v1/orgs/${ws.orgId}/tasks/${id}/labels/${bug}`)
    expect(await settle()).toBe(1)
    expect((await read(ws, id)).priority).toBe('urgent')
    const comments = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${id}/comments`)).body.data
    expect(comments.map((c: any) => [c.body, c.authorId])).toEqual([['Bugs are urgent here.', me]])
    const history = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${id}/history`)).body.data
    expect(history[0]).toMatchObject({
      field: 'priority',
      after: 'urgent',
      actorId: me,
      automation: created.id,
    })
    expect(history.filter((h: any) => h.automation !== null)).toHaveLength(1)
    const runs = await runsOf(ws, created.id)
    expect(runs).toEqual([
      expect.objectContaining({ taskId: id, outcome: 'succeeded', error: null, depth: 1 }),
    ])
  })

  it('acts only on tasks in its conditions’ list, read as its author', async () => {
    const ws = await newWorkspace(instances.a)
    const member = await ws.addMember('member')
    // Created before the rule: never its business, though the engine has not run since.
    const earlier = await task(ws, { priority: 'high' })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const created = await rule(ws, {
      trigger: { on: 'taskCreated' },
      conditions: { priority: 'high' },
      actions: [{ type: 'setAssignee', value: member.memberId }],
    })
    const low = await task(ws, { priority: 'low' })
    const high = await task(ws, { priority: 'high' })
    expect(await settle()).toBe(1)
    expect((await read(ws, low)).assigneeId).toBeNull()
    expect((await read(ws, earlier)).assigneeId).toBeNull()
    expect((await read(ws, high)).assigneeId).toBe(member.memberId)
    expect((await runsOf(ws, created.id)).map((r) => r.taskId)).toEqual([high])
  })

  it('records a failed run, doing nothing, when its author lost the right or an act fails', async () => {
    const ws = await newWorkspace(instances.a)
    const admin = await ws.addMember('admin')
    const demoted = await rule(
      ws,
      { trigger: { on: 'taskCreated' }, actions: [{ type: 'setPriority', value: 'low' }] },
      admin.api,
    )
    const gone = (await ws.api.post(`/v1/orgs/${ws.orgId}/labels`, { name: 'gone' })).body.id
    const failing = await rule(ws, {
      trigger: { on: 'taskCreated' },
      actions: [
        { type: 'setPriority', value: 'high' },
        { type: 'addLabel', value: gone },
      ],
    })
    expect((await ws.api.delete(`/v1/orgs/${ws.orgId}/labels/${gone}`)).status).toBe(204)
    expect(
      (await ws.api.patch(`/v1/orgs/${ws.orgId}/members/${admin.memberId}`, { role: 'member' })).status,
    ).toBe(200)
    const id = await task(ws)
    expect(await settle()).toBe(2)
    // The failing rule's first act was undone with the second.
    expect((await read(ws, id)).priority).toBe('none')
    expect(await runsOf(ws, demoted.id)).toEqual([
      expect.objectContaining({ outcome: 'failed', error: expect.stringContaining('`manage`') }),
    ])
    expect(await runsOf(ws, failing.id)).toEqual([
      expect.objectContaining({ outcome: 'failed', error: expect.stringMatching(/^addLabel: /) }),
    ])
    // The log goes on: a later event still runs the rules.
    await task(ws)
    expect(await settle()).toBe(2)
  })

  it(`stops a loop of rules after ${RULE_CHAIN_LIMIT} acts`, async () => {
    const ws = await newWorkspace(instances.a)
    const { Todo, 'In Progress': started } = ws.states
    const there = await rule(ws, {
      trigger: { on: 'stateEntered', stateId: Todo!.id },
      actions: [{ type: 'setState', value: started!.id }],
    })
    const back = await rule(ws, {
      trigger: { on: 'stateEntered', stateId: started!.id },
      actions: [{ type: 'setState', value: Todo!.id }],
    })
    const id = await task(ws, { stateId: ws.states.Backlog!.id })
    await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${id}`, { stateId: Todo!.id })
    expect(await settle()).toBe(RULE_CHAIN_LIMIT + 1)
    const history = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${id}/history`)).body.data
    const automated = history.filter((h: any) => h.field === 'stateId' && h.automation !== null)
    // Which rule made each change (the runs below give their order by depth).
    expect(automated.map((h: any) => h.automation).sort()).toEqual([there.id, there.id, back.id].sort())
    expect((await read(ws, id)).stateId).toBe(started!.id)
    const byDepth = (runs: any[]) => runs.map((r) => [r.outcome, r.depth]).sort((x, y) => y[1] - x[1])
    expect(byDepth(await runsOf(ws, back.id))).toEqual([
      ['loopStopped', 4],
      ['succeeded', 2],
    ])
    expect(byDepth(await runsOf(ws, there.id))).toEqual([
      ['succeeded', 3],
      ['succeeded', 1],
    ])
  })
})
