import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('teams and workflow states', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('gives a new team the default workflow, in order', async () => {
    const ws = await newWorkspace(server)
    const states = await ws.api.get(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/states`)
    expect(states.body.data.map((s: any) => [s.name, s.category, s.position])).toEqual([
      ['Backlog', 'backlog', 0],
      ['Todo', 'unstarted', 1],
      ['In Progress', 'started', 2],
      ['In Review', 'started', 3],
      ['Done', 'completed', 4],
      ['Canceled', 'canceled', 5],
      ['Duplicate', 'canceled', 6],
    ])
  })

  it('keeps team keys unique per workspace, updates, archives and restores teams', async () => {
    const ws = await newWorkspace(server)
    const dup = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Again', key: 'ENG' })
    expect(dup.status).toBe(409)
    expect(dup.body.code).toBe('key_taken')
    const other = await newWorkspace(server)
    expect((await other.api.get(`/v1/orgs/${other.orgId}/teams/${other.teamId}`)).body.key).toBe('ENG')

    const updated = await ws.api.patch(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}`, {
      name: 'Platform',
      description: '**core**',
    })
    expect(updated.body).toMatchObject({ name: 'Platform', description: '**core**', key: 'ENG' })
    expect(
      (await ws.api.post(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/archive`)).body.archivedAt,
    ).not.toBeNull()
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/teams`)).body.data).toEqual([])
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/teams?archived=only`)).body.data).toHaveLength(1)
    const blocked = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'x' })
    expect(blocked.status).toBe(409)
    expect((await ws.api.post(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/restore`)).body.archivedAt).toBeNull()
  })

  it('refuses team changes from a member without manage', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const res = await member.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Mine', key: 'MINE' })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ code: 'capability_required', capability: 'manage' })
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/teams`)).body.data).toHaveLength(1)
  })

  it('creates a state at a position, renames it, moves and archives states', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/states`
    const created = await ws.api.post(base, {
      name: 'QA',
      category: 'started',
      color: '#112233',
      position: 3,
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`/v1/orgs/${ws.orgId}/states/${created.body.id}`)
    let names = (await ws.api.get(base)).body.data.map((s: any) => s.name)
    expect(names).toEqual([
      'Backlog',
      'Todo',
      'In Progress',
      'QA',
      'In Review',
      'Done',
      'Canceled',
      'Duplicate',
    ])

    const sameName = await ws.api.post(base, { name: 'qa', category: 'started' })
    expect(sameName.status).toBe(409)
    const renamed = await ws.api.patch(`/v1/orgs/${ws.orgId}/states/${created.body.id}`, { name: 'Testing' })
    expect(renamed.body.name).toBe('Testing')

    // One order across categories: Done may move before Backlog, and a move changes only that.
    const ids = (await ws.api.get(base)).body.data.map((s: any) => s.id)
    const moved = await ws.api.post(`/v1/orgs/${ws.orgId}/states/${ids[5]}/move`, { beforeId: ids[0] })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ id: ids[5], name: 'Done', position: 0 })
    const after = (await ws.api.get(base)).body.data
    expect(after.map((s: any) => s.id)).toEqual([ids[5], ...ids.slice(0, 5), ...ids.slice(6)])
    expect(after.map((s: any) => s.position)).toEqual(ids.map((_: unknown, i: number) => i))

    expect((await ws.api.post(`/v1/orgs/${ws.orgId}/states/${created.body.id}/archive`)).status).toBe(200)
    // An archived state is no anchor and does not move.
    const ontoArchived = await ws.api.post(`/v1/orgs/${ws.orgId}/states/${ids[0]}/move`, {
      afterId: created.body.id,
    })
    expect(ontoArchived.status).toBe(422)
    expect(ontoArchived.body.code).toBe('reference_not_found')
    const archivedMoves = await ws.api.post(`/v1/orgs/${ws.orgId}/states/${created.body.id}/move`, {
      afterId: ids[0],
    })
    expect(archivedMoves.status).toBe(409)
    expect(archivedMoves.body.code).toBe('archived')
    expect((await ws.api.post(`/v1/orgs/${ws.orgId}/states/${created.body.id}/archive`)).status).toBe(200)
    names = (await ws.api.get(base)).body.data.map((s: any) => s.name)
    expect(names).not.toContain('Testing')
    expect((await ws.api.get(`${base}?includeArchived=true`)).body.data.map((s: any) => s.name)).toContain(
      'Testing',
    )
  })

  it('refuses to archive a state that holds tasks, or the last active state', async () => {
    const ws = await newWorkspace(server)
    const todo = ws.states.Todo!.id
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'busy', stateId: todo })
    const inUse = await ws.api.post(`/v1/orgs/${ws.orgId}/states/${todo}/archive`)
    expect(inUse.status).toBe(409)
    expect(inUse.body).toMatchObject({ code: 'state_in_use', taskCount: 1 })

    const states = Object.values(ws.states)
      .map((s) => s.id)
      .filter((id) => id !== todo)
    for (const id of states)
      expect((await ws.api.post(`/v1/orgs/${ws.orgId}/states/${id}/archive`)).status).toBe(200)
    const tasks = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks`)
    await ws.api.delete(`/v1/orgs/${ws.orgId}/tasks/${tasks.body.data[0].id}`)
    const last = await ws.api.post(`/v1/orgs/${ws.orgId}/states/${todo}/archive`)
    expect(last.status).toBe(409)
    expect(last.body.code).toBe('last_state')
  })

  it('answers the states of a team whole, up to the bound its schema states: the 101st is refused', async () => {
    const ws = await newWorkspace(server)
    const states = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/states`
    // Seven defaults; one archived still counts, as the list with archived ones answers it.
    const first = await ws.api.post(states, { name: 'State 7', category: 'started' })
    expect((await ws.api.post(`/v1/orgs/${ws.orgId}/states/${first.body.id}/archive`)).status).toBe(200)
    for (let i = 8; i < 100; i++)
      expect((await ws.api.post(states, { name: `State ${i}`, category: 'started' })).status).toBe(201)
    const over = await ws.api.post(states, { name: 'State 100', category: 'started' })
    expect(over).toMatchObject({ status: 409, body: { code: 'conflict' } })
    expect(over.body.detail).toContain('at most 100')
    expect((await ws.api.get(`${states}?includeArchived=true`)).body.data).toHaveLength(100)
    expect((await ws.api.get(states)).body.data).toHaveLength(99)
  })
})
