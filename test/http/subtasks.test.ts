import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newTask, readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('subtasks', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('sets and clears a parent, across teams of the org, and lists children page by page', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const parent = await newTask(ws, 'Parent')
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const kids = []
    for (let i = 0; i < 4; i++) kids.push(await newTask(ws, `Kid ${i}`, { parentId: parent.id }))
    const crossTeam = await ws.api.post(tasks, {
      teamId: design.id,
      title: 'Design kid',
      parentId: parent.id,
    })
    expect(crossTeam.body.parentId).toBe(parent.id)
    const children = await readAll(ws, `${tasks}/${parent.id}/children`, 2)
    expect(children.map((c) => c.title)).toEqual(['Kid 0', 'Kid 1', 'Kid 2', 'Kid 3', 'Design kid'])
    const cleared = await ws.api.patch(`${tasks}/${kids[0].id}`, { parentId: null })
    expect(cleared.body.parentId).toBeNull()
    const history = await ws.api.get(`${tasks}/${kids[0].id}/history`)
    expect(history.body.data[0]).toMatchObject({ field: 'parentId', before: parent.id, after: null })
    expect((await readAll(ws, `${tasks}/${parent.id}/children`, 50)).length).toBe(4)
  })

  it('refuses to make a task its own ancestor, changing nothing', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const a = await newTask(ws, 'A')
    const b = await newTask(ws, 'B', { parentId: a.id })
    const c = await newTask(ws, 'C', { parentId: b.id })
    const loop = await ws.api.patch(`${tasks}/${a.id}`, { parentId: c.id })
    expect(loop.status).toBe(409)
    expect(loop.body.code).toBe('subtask_cycle')
    const self = await ws.api.patch(`${tasks}/${a.id}`, { parentId: a.id })
    expect(self.body.code).toBe('subtask_cycle')
    expect((await ws.api.get(`${tasks}/${a.id}`)).body.parentId).toBeNull()
  })

  it('nests at most five levels, counting the subtree that moves', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    let parent = await newTask(ws, 'L1')
    for (let level = 2; level <= 5; level++) parent = await newTask(ws, `L${level}`, { parentId: parent.id })
    const tooDeep = await ws.api.post(tasks, { teamId: ws.teamId, title: 'L6', parentId: parent.id })
    expect(tooDeep.status).toBe(409)
    expect(tooDeep.body).toMatchObject({ code: 'subtask_depth', maxLevels: 5 })
    // A two-level subtree under level 4 would reach level 6.
    const top = await newTask(ws, 'Top')
    await newTask(ws, 'Below top', { parentId: top.id })
    const level4 = (await ws.api.get(`${tasks}/${parent.id}`)).body.parentId
    const moved = await ws.api.patch(`${tasks}/${top.id}`, { parentId: level4 })
    expect(moved.body.code).toBe('subtask_depth')
  })

  it('asks what to do with open subtasks when archiving a parent: archive them or detach them', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const parent = await newTask(ws, 'Parent')
    const kid = await newTask(ws, 'Kid', { parentId: parent.id })
    const grandkid = await newTask(ws, 'Grandkid', { parentId: kid.id })
    const asked = await ws.api.post(`${tasks}/${parent.id}/archive`)
    expect(asked.status).toBe(409)
    expect(asked.body).toMatchObject({
      code: 'has_children',
      choices: ['archive', 'detach'],
      openChildren: 2,
    })
    expect((await ws.api.get(`${tasks}/${parent.id}`)).body.archivedAt).toBeNull()

    const archived = await ws.api.post(`${tasks}/${parent.id}/archive?children=archive`)
    expect(archived.body.archivedAt).not.toBeNull()
    for (const t of [kid, grandkid])
      expect((await ws.api.get(`${tasks}/${t.id}`)).body.archivedAt).not.toBeNull()

    const other = await newTask(ws, 'Other parent')
    const stays = await newTask(ws, 'Stays', { parentId: other.id })
    const detached = await ws.api.post(`${tasks}/${other.id}/archive?children=detach`)
    expect(detached.status).toBe(200)
    expect((await ws.api.get(`${tasks}/${stays.id}`)).body).toMatchObject({
      parentId: null,
      archivedAt: null,
    })
  })

  it('makes the subtasks of a deleted task top-level', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const parent = await newTask(ws, 'Parent')
    const kid = await newTask(ws, 'Kid', { parentId: parent.id })
    expect((await ws.api.delete(`${tasks}/${parent.id}`)).status).toBe(204)
    expect((await ws.api.get(`${tasks}/${kid.id}`)).body.parentId).toBeNull()
  })

  it('refuses a parent the caller cannot view as a bad parentId, like one that does not exist', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('guest')
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: member.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'contribute',
    })
    const hidden = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Hidden', key: 'HID' })).body
    const secret = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: hidden.id, title: 'Secret' })
    const mine = await newTask(ws, 'Mine')
    const res = await member.api.patch(`/v1/orgs/${ws.orgId}/tasks/${mine.id}`, { parentId: secret.body.id })
    expect(res).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/parentId' }] },
    })
    const missing = await member.api.patch(`/v1/orgs/${ws.orgId}/tasks/${mine.id}`, {
      parentId: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE',
    })
    expect(missing.body.detail).toBe(res.body.detail)
    expect((await member.api.get(`/v1/orgs/${ws.orgId}/tasks/${mine.id}`)).body.parentId).toBeNull()
  })

  it('validates start and due dates together', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const bad = await ws.api.post(tasks, {
      teamId: ws.teamId,
      title: 'Backwards',
      startDate: '2026-03-02',
      dueDate: '2026-03-01',
    })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].pointer).toBe('/body/startDate')
    const ok = await newTask(ws, 'Span', { startDate: '2026-03-01', dueDate: '2026-03-05' })
    expect(ok).toMatchObject({ startDate: '2026-03-01', dueDate: '2026-03-05' })
    const later = await ws.api.patch(`${tasks}/${ok.id}`, { dueDate: '2026-02-01' })
    expect(later.status).toBe(422)
    const cleared = await ws.api.patch(`${tasks}/${ok.id}`, { startDate: null, dueDate: '2026-02-01' })
    expect(cleared.body).toMatchObject({ startDate: null, dueDate: '2026-02-01' })
  })
})
