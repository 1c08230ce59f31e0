import { newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('tasks', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('creates tasks with team-scoped keys, the default state and every field', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const a = await ws.api.post(tasks, { teamId: ws.teamId, title: 'First' })
    expect(a.status).toBe(201)
    expect(a.body).toMatchObject({
      key: 'ENG-1',
      number: 1,
      stateId: ws.states.Backlog!.id,
      stateCategory: 'backlog',
      priority: 'none',
    })
    expect(a.headers.get('location')).toBe(`${tasks}/${a.body.id}`)
    const b = await ws.api.post(tasks, {
      teamId: ws.teamId,
      title: 'Second',
      description: '# Heading\n\nbody',
      priority: 'high',
      estimate: 3,
      dueDate: '2026-12-24',
      assigneeId: (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data[0].id,
      stateId: ws.states['In Progress']!.id,
    })
    expect(b.body).toMatchObject({
      key: 'ENG-2',
      priority: 'high',
      estimate: 3,
      dueDate: '2026-12-24',
      stateCategory: 'started',
    })
    expect(b.body.startedAt).toBe(b.body.createdAt)
    const otherTeam = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })
    const c = await ws.api.post(tasks, { teamId: otherTeam.body.id, title: 'Third' })
    expect(c.body.key).toBe('DES-1')
  })

  it('answers a create with exactly what a read of the new task answers', async () => {
    // The create builds its answer from what it wrote instead of reading the task back (issue 31).
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const labels = []
    for (const name of ['bug', 'ui', 'api'])
      labels.push((await ws.api.post(`${org}/labels`, { name })).body.id)
    const text = (await ws.api.post(`${org}/custom-fields`, { name: 'Customer', type: 'text' })).body.id
    const points = (await ws.api.post(`${org}/custom-fields`, { name: 'Points', type: 'number' })).body.id
    const project = await ws.api.post(`${org}/projects`, { name: 'Launch', teamIds: [ws.teamId] })
    const created = await ws.api.post(`${org}/tasks`, {
      teamId: ws.teamId,
      title: 'Everything at once',
      description: 'with labels out of order',
      stateId: ws.states.Done!.id,
      priority: 'low',
      estimate: 2,
      startDate: '2026-12-01',
      dueDate: '2026-12-24',
      projectId: project.body.id,
      labelIds: [...labels].reverse(),
      fields: { [points]: 2.5, [text]: 'Acme' },
    })
    expect(created.status).toBe(201)
    const read = await ws.api.get(`${org}/tasks/${created.body.id}`)
    expect(created.body).toStrictEqual(read.body)
    expect(JSON.stringify(created.body)).toBe(JSON.stringify(read.body))
    expect(created.body.labelIds).toHaveLength(3)
    expect(created.body.fields).toStrictEqual({ [points]: 2.5, [text]: 'Acme' })
    expect(created.body.completedAt).toBe(created.body.createdAt)
  })

  it('answers a create with the estimate a read answers, however fine', async () => {
    // On Postgres the create answers the row it wrote, unread (held-writes.ts): what it wrote must read back the same.
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    for (const estimate of [1.23456789, 0.1, 999.999]) {
      const created = await ws.api.post(`${org}/tasks`, { teamId: ws.teamId, title: 'Fine', estimate })
      expect(created.status).toBe(201)
      const read = await ws.api.get(`${org}/tasks/${created.body.id}`)
      expect(created.body).toStrictEqual(read.body)
    }
  })

  it('writes the labels, values, history, subscriptions and event of a create with it', async () => {
    // Postgres writes them in the task's insert statement, SQLite one after the other (issue 31).
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const member = await ws.addMember('member')
    const label = (await ws.api.post(`${org}/labels`, { name: 'bug' })).body.id
    const field = (await ws.api.post(`${org}/custom-fields`, { name: 'Customer', type: 'text' })).body.id
    const created = await ws.api.post(`${org}/tasks`, {
      teamId: ws.teamId,
      title: 'Written together',
      assigneeId: member.memberId,
      labelIds: [label],
      fields: { [field]: ' Acme ' },
    })
    expect(created.status).toBe(201)
    const id = created.body.id
    const history = (await ws.api.get(`${org}/tasks/${id}/history`)).body.data
    expect(history.map((e: any) => [e.field, e.before, e.after]).sort()).toEqual(
      [
        ['created', null, { key: 'ENG-1', title: 'Written together' }],
        [`fields.${field}`, null, 'Acme'],
        ['labelIds', [], [label]],
      ].sort(),
    )
    const subscribers = await readAll(ws, `${org}/tasks/${id}/subscribers`, 10)
    expect(subscribers.map((s: any) => s.actorId).sort()).toEqual(
      [created.body.creatorId, member.memberId].sort(),
    )
    const events = (await server.storage.read((s) => s.events.list(ws.orgId, 0, 100_000))).filter(
      (e) => e.resourceId === id,
    )
    expect(events.map((e) => [e.kind, e.data])).toEqual([['task.created', { task: created.body }]])
    // Assigned to its creator: one subscription.
    const own = await ws.api.post(`${org}/tasks`, {
      teamId: ws.teamId,
      title: 'Mine',
      assigneeId: created.body.creatorId,
    })
    const mine = await readAll(ws, `${org}/tasks/${own.body.id}/subscribers`, 10)
    expect(mine.map((s: any) => s.actorId)).toEqual([created.body.creatorId])
  })

  it('judges what a create names in the order it always did, writing nothing when refused', async () => {
    // One read gathers the team, states, project, labels and fields; the first problem is still named.
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${org}/projects`, { name: 'Launch', teamIds: [ws.teamId] })).body.id
    await ws.api.post(`${org}/projects/${project}/archive`)
    const missingLabel = newId('LabelId')
    const missingField = newId('CustomFieldId')
    const send = (body: Record<string, unknown>) =>
      ws.api.post(`${org}/tasks`, { teamId: ws.teamId, title: 'Refused', ...body })
    const pointer = async (body: Record<string, unknown>) => {
      const res = await send(body)
      expect(res.status).toBe(422)
      return res.body.errors[0].pointer
    }
    const everything = { labelIds: [missingLabel], fields: { [missingField]: 'x' }, projectId: project }
    expect(await pointer({ ...everything, teamId: other.teamId })).toBe('/body/teamId')
    expect(await pointer({ ...everything, stateId: other.states.Done!.id })).toBe('/body/stateId')
    expect(await pointer(everything)).toBe('/body/projectId')
    expect(await pointer({ labelIds: [missingLabel], fields: { [missingField]: 'x' } })).toBe(
      '/body/labelIds/0',
    )
    expect(await pointer({ fields: { [missingField]: 'x' } })).toBe(`/body/fields/${missingField}`)
    expect((await ws.api.get(`${org}/tasks`)).body.data).toEqual([])
    // The next task still takes the team's first number: the refused ones took none.
    expect((await send({})).body.key).toBe('ENG-1')
  })

  it('keeps lifecycle timestamps through state changes', async () => {
    const ws = await newWorkspace(server)
    const t = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Flow' })
    const path = `/v1/orgs/${ws.orgId}/tasks/${t.body.id}`
    const started = await ws.api.patch(path, { stateId: ws.states['In Progress']!.id })
    expect(started.body.startedAt).not.toBeNull()
    const done = await ws.api.patch(path, { stateId: ws.states.Done!.id })
    expect(done.body.completedAt).not.toBeNull()
    expect(done.body.startedAt).toBe(started.body.startedAt)
    const reopened = await ws.api.patch(path, { stateId: ws.states.Todo!.id })
    expect(reopened.body).toMatchObject({ completedAt: null, startedAt: started.body.startedAt })
    const canceled = await ws.api.patch(path, { stateId: ws.states.Canceled!.id })
    expect(canceled.body.canceledAt).not.toBeNull()
  })

  it('refuses a state of another team and an assignee who is not a member, changing nothing', async () => {
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server)
    const t = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Keep' })
    const path = `/v1/orgs/${ws.orgId}/tasks/${t.body.id}`
    const badState = await ws.api.patch(path, { stateId: other.states.Done!.id, title: 'Changed' })
    expect(badState.status).toBe(422)
    expect(badState.body).toMatchObject({
      code: 'reference_not_found',
      errors: [{ pointer: '/body/stateId' }],
    })
    const stranger = (await other.api.get(`/v1/orgs/${other.orgId}/members`)).body.data[0].id
    const badAssignee = await ws.api.patch(path, { assigneeId: stranger })
    expect(badAssignee.status).toBe(422)
    expect((await ws.api.get(path)).body).toMatchObject({
      title: 'Keep',
      assigneeId: null,
      updatedAt: t.body.updatedAt,
    })
  })

  it('needs assign to change the assignee; a guest cannot write at all', async () => {
    const ws = await newWorkspace(server)
    const t = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Who' })
    const member = await ws.addMember('member')
    const guest = await ws.addMember('guest')
    expect((await guest.api.get(`/v1/orgs/${ws.orgId}/tasks/${t.body.id}`)).status).toBe(404)
    await server.storage.transaction((s) =>
      s.access.insertGrant({
        id: newId('GrantId'),
        orgId: ws.orgId,
        subjectType: 'member',
        subjectId: guest.memberId,
        containerType: 'team',
        containerId: ws.teamId,
        capability: 'view',
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        createdBy: null,
      }),
    )
    const path = `/v1/orgs/${ws.orgId}/tasks/${t.body.id}`
    expect((await member.api.patch(path, { assigneeId: member.memberId })).body.assigneeId).toBe(
      member.memberId,
    )
    const guestEdit = await guest.api.patch(path, { title: 'Mine now' })
    expect(guestEdit.status).toBe(403)
    expect(guestEdit.body).toMatchObject({ code: 'capability_required', capability: 'contribute' })
    expect((await guest.api.get(path)).body.title).toBe('Who')
    const memberDelete = await member.api.delete(path)
    expect(memberDelete.status).toBe(403)
    expect(memberDelete.body.capability).toBe('manage')
  })

  it('archives, restores and deletes; a deleted task is gone and its key is not reused', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const t = await ws.api.post(tasks, { teamId: ws.teamId, title: 'Old' })
    const path = `${tasks}/${t.body.id}`
    expect((await ws.api.post(`${path}/archive`)).body.archivedAt).not.toBeNull()
    expect((await ws.api.get(tasks)).body.data).toEqual([])
    expect((await ws.api.get(`${tasks}?archived=only`)).body.data.map((x: any) => x.id)).toEqual([t.body.id])
    expect((await ws.api.post(`${path}/restore`)).body.archivedAt).toBeNull()
    const deleted = await ws.api.delete(path)
    expect(deleted.status).toBe(204)
    expect((await ws.api.get(path)).status).toBe(404)
    expect((await ws.api.delete(path)).status).toBe(404)
    expect((await ws.api.get(`${tasks}?archived=include`)).body.data).toEqual([])
    expect((await ws.api.post(tasks, { teamId: ws.teamId, title: 'Next' })).body.key).toBe('ENG-2')
  })

  it('filters by team, state, state category, assignee, priority and updated-since', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const me = (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data[0].id
    const design = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })
    const a = await ws.api.post(tasks, { teamId: ws.teamId, title: 'a', assigneeId: me, priority: 'urgent' })
    const b = await ws.api.post(tasks, {
      teamId: ws.teamId,
      title: 'b',
      stateId: ws.states['In Progress']!.id,
    })
    const c = await ws.api.post(tasks, { teamId: design.body.id, title: 'c' })
    const ids = async (query: string) =>
      (await ws.api.get(`${tasks}?${query}`)).body.data.map((t: any) => t.title).sort()
    expect(await ids(`teamId=${ws.teamId}`)).toEqual(['a', 'b'])
    expect(await ids(`stateId=${ws.states['In Progress']!.id}`)).toEqual(['b'])
    expect(await ids('stateCategory=started,completed')).toEqual(['b'])
    expect(await ids('stateCategory=backlog')).toEqual(['a', 'c'])
    expect(await ids(`assigneeId=${me}`)).toEqual(['a'])
    expect(await ids('assigneeId=none')).toEqual(['b', 'c'])
    expect(await ids('priority=urgent')).toEqual(['a'])
    await new Promise((r) => setTimeout(r, 5))
    const since = new Date().toISOString()
    await ws.api.patch(`${tasks}/${c.body.id}`, { title: 'c2' })
    expect(await ids(`updatedSince=${encodeURIComponent(since)}`)).toEqual(['c2'])
    expect([a.status, b.status]).toEqual([201, 201])
    const bad = await ws.api.get(`${tasks}?stateCategory=doing`)
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].pointer).toBe('/query/stateCategory')
  })

  it('pages exactly through every task in both sort orders, and rejects altered cursors', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const created: string[] = []
    for (let i = 0; i < 23; i++)
      created.push((await ws.api.post(tasks, { teamId: ws.teamId, title: `t${i}` })).body.id)
    for (const sort of ['createdAt', '-createdAt', 'updatedAt', '-updatedAt']) {
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: any = await ws.api.get(
          `${tasks}?limit=5&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`,
        )
        expect(page.body.data.length).toBe(
          cursor === null || page.body.nextCursor ? 5 : page.body.data.length,
        )
        seen.push(...page.body.data.map((t: any) => t.id))
        cursor = page.body.nextCursor
      } while (cursor)
      expect(seen).toEqual(sort.startsWith('-') ? [...created].reverse() : created)
    }
    const first = await ws.api.get(`${tasks}?limit=5`)
    const cursor = first.body.nextCursor as string
    const tampered = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`
    const res = await ws.api.get(`${tasks}?limit=5&cursor=${tampered}`)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('invalid_cursor')
    const otherFilter = await ws.api.get(`${tasks}?limit=5&priority=high&cursor=${cursor}`)
    expect(otherFilter.body.code).toBe('invalid_cursor')
    expect((await ws.api.get(`${tasks}?limit=201`)).status).toBe(400)
    expect((await ws.api.get(tasks)).body.data).toHaveLength(23)
  })
})
