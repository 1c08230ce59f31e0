import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newTask, readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('task dependencies', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('links blockers across teams, lists both directions page by page, and says whether a task is blocked', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const blocked = await newTask(ws, 'Ship')
    const blockers = [
      await newTask(ws, 'Build'),
      await newTask(ws, 'Test'),
      (await ws.api.post(tasks, { teamId: design.id, title: 'Mockups' })).body,
    ]
    for (const b of blockers) {
      const res = await ws.api.put(`${tasks}/${blocked.id}/blockers/${b.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ blockerId: b.id, blockedId: blocked.id })
    }
    expect((await readAll(ws, `${tasks}/${blocked.id}/blockers`, 2)).map((t) => t.title)).toEqual([
      'Build',
      'Test',
      'Mockups',
    ])
    expect((await readAll(ws, `${tasks}/${blockers[0].id}/blocking`, 1)).map((t) => t.id)).toEqual([
      blocked.id,
    ])
    expect((await ws.api.get(`${tasks}/${blocked.id}`)).body.isBlocked).toBe(true)

    // Finishing or canceling every blocker unblocks; reopening one blocks again.
    await ws.api.patch(`${tasks}/${blockers[0].id}`, { stateId: ws.states.Done!.id })
    await ws.api.patch(`${tasks}/${blockers[1].id}`, { stateId: ws.states.Canceled!.id })
    expect((await ws.api.get(`${tasks}/${blocked.id}`)).body.isBlocked).toBe(true)
    const desStates = (await ws.api.get(`/v1/orgs/${ws.orgId}/teams/${design.id}/states`)).body.data
    const desDone = desStates.find((s: any) => s.category === 'completed').id
    await ws.api.patch(`${tasks}/${blockers[2].id}`, { stateId: desDone })
    expect((await ws.api.get(`${tasks}/${blocked.id}`)).body.isBlocked).toBe(false)
    await ws.api.patch(`${tasks}/${blockers[0].id}`, { stateId: ws.states.Todo!.id })
    expect((await ws.api.get(`${tasks}/${blocked.id}`)).body.isBlocked).toBe(true)

    const removed = await ws.api.delete(`${tasks}/${blocked.id}/blockers/${blockers[0].id}`)
    expect(removed.status).toBe(204)
    expect((await ws.api.get(`${tasks}/${blocked.id}`)).body.isBlocked).toBe(false)
    // Idempotent: a pair no longer linked is already as asked, and nothing more is recorded.
    expect((await ws.api.delete(`${tasks}/${blocked.id}/blockers/${blockers[0].id}`)).status).toBe(204)
    const history = (await ws.api.get(`${tasks}/${blocked.id}/history`)).body.data
    expect(history.filter((e: any) => e.field === 'blockedBy').length).toBe(4)
  })

  it('refuses a link that closes a cycle with 409 dependency_cycle naming the path', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const [a, b, c] = [await newTask(ws, 'A'), await newTask(ws, 'B'), await newTask(ws, 'C')]
    await ws.api.put(`${tasks}/${b.id}/blockers/${a.id}`) // A blocks B
    await ws.api.put(`${tasks}/${c.id}/blockers/${b.id}`) // B blocks C
    const cycle = await ws.api.put(`${tasks}/${a.id}/blockers/${c.id}`) // C blocks A?
    expect(cycle.status).toBe(409)
    expect(cycle.body).toMatchObject({ code: 'dependency_cycle', path: [c.id, a.id, b.id, c.id] })
    expect(cycle.body.detail).toContain('ENG-3 blocks ENG-1 blocks ENG-2 blocks ENG-3')
    const self = await ws.api.put(`${tasks}/${a.id}/blockers/${a.id}`)
    expect(self.status).toBe(422)
    expect((await ws.api.get(`${tasks}/${a.id}/blockers`)).body.data).toEqual([])
  })

  it('needs contribute on the blocked task and view on the blocker', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const hidden = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Hidden', key: 'HID' })).body
    const secret = (await ws.api.post(tasks, { teamId: hidden.id, title: 'Secret' })).body
    const mine = await newTask(ws, 'Mine')
    const other = await newTask(ws, 'Other')
    const contributor = await teamGuest(ws, 'contribute')
    const hiddenBlocker = await contributor.api.put(`${tasks}/${mine.id}/blockers/${secret.id}`)
    expect(hiddenBlocker.status).toBe(404)
    const viewer = await teamGuest(ws, 'view')
    const refused = await viewer.api.put(`${tasks}/${mine.id}/blockers/${other.id}`)
    expect(refused.status).toBe(403)
    expect(refused.body.capability).toBe('contribute')
    // A blocker the reader cannot view is left out of the listing.
    await ws.api.put(`${tasks}/${mine.id}/blockers/${secret.id}`)
    expect((await contributor.api.get(`${tasks}/${mine.id}/blockers`)).body.data).toEqual([])
  })

  it('never reveals a task the reader cannot view: not in isBlocked, the blocked filter, or a cycle path', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const hidden = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Hidden', key: 'HID' })).body
    const secret = (await ws.api.post(tasks, { teamId: hidden.id, title: 'Secret' })).body
    const [mine, next] = [await newTask(ws, 'Mine'), await newTask(ws, 'Next')]
    await ws.api.put(`${tasks}/${mine.id}/blockers/${secret.id}`) // Secret blocks Mine
    await ws.api.put(`${tasks}/${secret.id}/blockers/${next.id}`) // Next blocks Secret
    const guest = await teamGuest(ws, 'contribute')

    // The owner sees the hidden blocker; the guest sees an unblocked task, everywhere alike.
    expect((await ws.api.get(`${tasks}/${mine.id}`)).body.isBlocked).toBe(true)
    expect((await guest.api.get(`${tasks}/${mine.id}`)).body.isBlocked).toBe(false)
    const blockedForGuest = await guest.api.get(`${tasks}?blocked=true`)
    expect(blockedForGuest.body.data.map((t: any) => t.id)).not.toContain(mine.id)
    const blockedForOwner = await ws.api.get(`${tasks}?blocked=true`)
    expect(blockedForOwner.body.data.map((t: any) => t.id)).toContain(mine.id)

    // Mine blocks Next would close Next → Secret → Mine → Next: the hidden task is counted, not named.
    const cycle = await guest.api.put(`${tasks}/${next.id}/blockers/${mine.id}`)
    expect(cycle.status).toBe(409)
    expect(cycle.body).toMatchObject({ code: 'dependency_cycle', path: [mine.id, next.id, null, mine.id] })
    expect(cycle.body.detail).toContain('a task you cannot view')
    expect(JSON.stringify(cycle.body)).not.toContain(secret.id)
    expect(JSON.stringify(cycle.body)).not.toContain('HID-')
    // The owner, who sees every task, gets every one named.
    const named = await ws.api.put(`${tasks}/${next.id}/blockers/${mine.id}`)
    expect(named.body.path).toEqual([mine.id, next.id, secret.id, mine.id])
  })

  it('forgets the links of a deleted task', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const [a, b] = [await newTask(ws, 'A'), await newTask(ws, 'B')]
    await ws.api.put(`${tasks}/${b.id}/blockers/${a.id}`)
    await ws.api.delete(`${tasks}/${a.id}`)
    expect((await ws.api.get(`${tasks}/${b.id}`)).body.isBlocked).toBe(false)
    expect((await ws.api.get(`${tasks}/${b.id}/blockers`)).body.data).toEqual([])
  })
})
