import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP organize, names, permission parity and subscriptions', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const taskCount = async (ws: Awaited<ReturnType<typeof newWorkspace>>) =>
    (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks?limit=200&archived=include`)).body.data.length

  it('changes nothing when the last step of a plan fails', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const events = (await server.storage.read((s) => s.events.bounds(ws.orgId))).last
    const result = await tool(client, 'organize', {
      steps: [
        { action: 'create_task', handle: 'a', team: 'ENG', title: 'One' },
        { action: 'move_task', task: '$a', state: 'Todo' },
        { action: 'create_team', name: 'Engineering two', key: 'ENG' },
      ],
    })
    expect(result.error).toMatchObject({ code: 'key_taken', step: 2 })
    expect(await taskCount(ws)).toBe(0)
    expect((await server.storage.read((s) => s.events.bounds(ws.orgId))).last).toBe(events)
  })

  it('applies a 200-step plan in one call, and a dry run reports exactly what the real run does', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const steps = [{ action: 'create_team', handle: 'ops', name: 'Operations', key: 'OPS' }] as object[]
    for (let i = 0; i < 133; i++)
      steps.push({ action: 'create_task', handle: `t${i}`, team: i % 2 ? '$ops' : 'eng', title: `Task ${i}` })
    for (let i = 0; i < 66; i++) steps.push({ action: 'assign_task', task: `$t${i}`, assignee: 'me' })
    expect(steps).toHaveLength(200)

    const dry = await tool(client, 'organize', { steps, dryRun: true })
    expect(dry.dryRun).toBe(true)
    expect(await taskCount(ws)).toBe(0)
    const real = await tool(client, 'organize', { steps })
    expect(real.steps).toHaveLength(200)
    const withoutIds = (r: any) => r.steps.map(({ id: _id, ...rest }: any) => rest)
    expect(withoutIds(dry)).toEqual(withoutIds(real))
    expect(real.steps[2]).toMatchObject({ type: 'task', key: 'OPS-1', name: 'Task 1' })
    expect(await taskCount(ws)).toBe(133)
    const mine = await tool(client, 'search_tasks', { assignee: 'me', limit: 100 })
    expect(mine.tasks).toHaveLength(66)
  })

  it('refuses a plan over the documented limit of 250 steps', async () => {
    const ws = await newWorkspace(server)
    const steps = Array.from({ length: 251 }, (_, i) => ({
      action: 'create_task',
      team: 'ENG',
      title: `T${i}`,
    }))
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/plans`, { steps })
    expect(res.status).toBe(400)
    expect(await taskCount(ws)).toBe(0)
  })

  it('resolves exact names, lists candidates for ambiguous ones and the closest for unknown ones', async () => {
    const ws = await newWorkspace(server)
    const ada = await ws.addMember('member')
    await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })
    await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design Systems', key: 'DSY' })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))

    const exact = await tool(client, 'create_task', { team: 'design', title: 'x', assignee: ada.user.email })
    expect(exact.key).toBe('DES-1')
    expect(exact.assignee).toContain(ada.user.email)

    const unknown = await tool(client, 'create_task', { team: 'Desing', title: 'x' })
    expect(unknown.error.code).toBe('unknown_name')
    expect(unknown.error.candidates.map((c: any) => c.label)).toContain('DES (Design)')

    // Two teams named alike: the name matches both.
    await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'design', key: 'DS2' })
    const ambiguous = await tool(client, 'create_task', { team: 'Design', title: 'x' })
    expect(ambiguous.error.code).toBe('ambiguous_name')
    expect(ambiguous.error.candidates.map((c: any) => c.label).sort()).toEqual([
      'DES (Design)',
      'DS2 (design)',
    ])

    // Through REST too, and never leaking a team the caller cannot see.
    const guest = await ws.addMember('guest')
    const hidden = await guest.api.get(`/v1/orgs/${ws.orgId}/names?kind=team&name=Design`)
    expect(hidden.status).toBe(422)
    expect(hidden.body).toMatchObject({ code: 'unknown_name', candidates: [] })
  })

  it('decides an action the same through REST and MCP with the same token', async () => {
    const ws = await newWorkspace(server)
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Shared' })
    const viewer = await ws.addMember('guest')
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: viewer.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'view',
    })
    const member = await ws.addMember('member')
    for (const person of [viewer, member, ws.owner]) {
      const token = await mcpToken(server, person.user.id, ['work:read', 'work:write'])
      const task = (await server.request('GET', `/v1/orgs/${ws.orgId}/tasks`, { token })).body.data[0]
      const rest = await server.request('PATCH', `/v1/orgs/${ws.orgId}/tasks/${task.id}`, {
        token,
        body: { priority: 'low' },
      })
      const client = await connect(server, token)
      const mcp = await tool(client, 'update_task', { task: 'ENG-1', priority: 'high' })
      await client.close()
      if (rest.status === 200) expect(mcp.error).toBeUndefined()
      else expect(mcp.error).toMatchObject({ code: rest.body.code, status: rest.status })
    }
  })

  it('notifies a subscriber when a subscribed task changes, and not for other tasks', async () => {
    const ws = await newWorkspace(server)
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Watched' })
    const other = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Other' })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const updates: string[] = []
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
    let notified: () => void = () => {}
    const arrived = new Promise<void>((resolve) => {
      notified = resolve
    })
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri)
      notified()
    })
    const uri = `workgraph://orgs/${ws.orgId}/tasks/ENG-1`
    await client.subscribeResource({ uri })
    await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${other.body.id}`, { title: 'Not watched' })
    await tool(client, 'update_task', { task: 'ENG-1', title: 'Watched, renamed' })
    await arrived
    expect(updates).toEqual([uri])
    await client.close()
  })
})
