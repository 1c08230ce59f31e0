import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newTask } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('task keys', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('finds a task by its key, case-insensitively', async () => {
    const ws = await newWorkspace(server)
    const t = await newTask(ws, 'Find me')
    const byKey = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/eng-1`)
    expect(byKey.status).toBe(200)
    expect(byKey.body.id).toBe(t.id)
    expect(byKey.headers.get('etag')).toBeTruthy()
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/ENG-99`)).status).toBe(404)
  })

  it('moves a task to another team: new key, mapped state, history; the old key still resolves', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    await ws.api.post(tasks, { teamId: design.id, title: 'Existing design task' })
    const t = await newTask(ws, 'Mover', { stateId: ws.states['In Progress']!.id })
    const moved = await ws.api.patch(`${tasks}/${t.id}`, { teamId: design.id })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ teamId: design.id, key: 'DES-2', number: 2, stateCategory: 'started' })
    expect(moved.body.startedAt).toBe(t.startedAt)
    expect((await ws.api.get(`${tasks}/by-key/ENG-1`)).body.id).toBe(t.id)
    expect((await ws.api.get(`${tasks}/by-key/des-2`)).body.id).toBe(t.id)
    const history = (await ws.api.get(`${tasks}/${t.id}/history`)).body.data
    expect(history.map((e: any) => e.field)).toEqual(expect.arrayContaining(['teamId', 'stateId', 'key']))
    expect(history.find((e: any) => e.field === 'key')).toMatchObject({ before: 'ENG-1', after: 'DES-2' })
    // A new task in the old team does not take the old number.
    expect((await newTask(ws, 'Next')).key).toBe('ENG-2')
  })

  it('needs contribute on the target team too, and refuses a state of the old team', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const t = await newTask(ws, 'Stay')
    const guest = await teamGuest(ws, 'contribute')
    const hidden = await guest.api.patch(`${tasks}/${t.id}`, { teamId: design.id })
    // A team the caller cannot see is answered like one that does not exist: a bad reference in the body.
    expect(hidden.status).toBe(422)
    expect(hidden.body).toMatchObject({ code: 'reference_not_found', errors: [{ pointer: '/body/teamId' }] })
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: design.id,
      capability: 'view',
    })
    const viewOnly = await guest.api.patch(`${tasks}/${t.id}`, { teamId: design.id })
    expect(viewOnly.status).toBe(403)
    const badState = await ws.api.patch(`${tasks}/${t.id}`, {
      teamId: design.id,
      stateId: ws.states.Todo!.id,
    })
    expect(badState.status).toBe(422)
    expect((await ws.api.get(`${tasks}/${t.id}`)).body).toMatchObject({ key: 'ENG-1', teamId: ws.teamId })
    expect((await ws.api.get(`${tasks}/by-key/DES-1`)).status).toBe(404)
  })
})
