import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP projects: names, tools, resources and plans', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('resolves projects and milestones: exact, ambiguous with candidates, closest matches, hidden ones', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const des = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const launch = (await ws.api.post(`${base}/projects`, { name: 'Launch', teamIds: [ws.teamId] })).body
    const brand = (await ws.api.post(`${base}/projects`, { name: 'Brand', teamIds: [des.id] })).body
    const beta = (await ws.api.post(`${base}/projects/${launch.id}/milestones`, { name: 'Beta' })).body
    const brandBeta = (await ws.api.post(`${base}/projects/${brand.id}/milestones`, { name: 'Beta' })).body
    const names = (q: string, api = ws.api) => api.get(`${base}/names?${q}`)

    expect((await names('kind=project&name=launch')).body).toEqual({
      kind: 'project',
      id: launch.id,
      label: 'Launch',
    })
    const unknown = await names('kind=project&name=Lanch')
    expect(unknown).toMatchObject({ status: 422, body: { code: 'unknown_name' } })
    expect(unknown.body.candidates.map((c: any) => c.label)).toContain('Launch')
    const ambiguous = await names('kind=milestone&name=Beta')
    expect(ambiguous).toMatchObject({ status: 422, body: { code: 'ambiguous_name' } })
    expect(ambiguous.body.candidates.map((c: any) => c.label).sort()).toEqual([
      'Beta (Brand)',
      'Beta (Launch)',
    ])
    expect((await names('kind=milestone&name=Beta&project=Brand')).body.id).toBe(brandBeta.id)
    expect((await names('kind=milestone&name=Launch/Beta')).body.id).toBe(beta.id)
    expect((await names(`kind=milestone&name=Beta&project=${launch.id}`)).body.id).toBe(beta.id)

    // A guest of ENG sees only ENG's project: Brand's milestone is not a candidate, Brand is unknown.
    const guest = await teamGuest(ws, 'view')
    expect((await names('kind=milestone&name=Beta', guest.api)).body.id).toBe(beta.id)
    const hidden = await names('kind=project&name=Brand', guest.api)
    expect(hidden.body.code).toBe('unknown_name')
    expect(JSON.stringify(hidden.body)).not.toContain(brand.id)
  })

  it('creates, changes, fills and reports on a project by names, and reads it back whole', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const created = await tool(client, 'manage_project', {
      action: 'create',
      name: 'Checkout',
      teams: ['ENG'],
      status: 'planned',
      lead: 'me',
      targetDate: '2031-03-31',
    })
    expect(created).toMatchObject({
      name: 'Checkout',
      status: 'Planned (planned)',
      teams: ['ENG'],
      lead: expect.stringContaining(ws.owner.user.email),
      targetDate: '2031-03-31',
    })
    const changed = await tool(client, 'manage_project', {
      action: 'update',
      project: 'checkout',
      status: 'In Progress',
      add_teams: ['Design'],
      lead: null,
    })
    expect(changed).toMatchObject({ status: 'In Progress (started)', teams: ['ENG', 'DES'], lead: null })

    const milestone = (
      await ws.api.post(`${base}/projects/${created.id}/milestones`, {
        name: 'Card form',
        targetDate: '2031-01-31',
      })
    ).body
    for (const title of ['Form', 'API', 'Docs'])
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title })
    const eng1 = (await ws.api.get(`${base}/tasks/by-key/ENG-1`)).body
    const eng2 = (await ws.api.get(`${base}/tasks/by-key/ENG-2`)).body
    await ws.api.put(`${base}/tasks/${eng1.id}/blockers/${eng2.id}`)
    const added = await tool(client, 'manage_project', {
      action: 'add_tasks',
      project: 'Checkout',
      tasks: ['ENG-1', 'ENG-2'],
      milestone: 'card form',
    })
    expect(added).toEqual({ project: 'Checkout', milestone: 'card form', added: ['ENG-1', 'ENG-2'] })
    expect((await ws.api.get(`${base}/tasks/${eng1.id}`)).body).toMatchObject({
      projectId: created.id,
      milestoneId: milestone.id,
    })
    const wrong = await tool(client, 'manage_project', {
      action: 'add_tasks',
      project: 'Checkout',
      tasks: ['ENG-3'],
      milestone: 'Nope',
    })
    expect(wrong.error.code).toBe('unknown_name')

    const posted = await tool(client, 'manage_project', {
      action: 'post_update',
      project: 'Checkout',
      health: 'at risk',
      body: 'Card form slipped a week.',
    })
    expect(posted).toMatchObject({ health: 'atRisk', progress: { tasks: 2, completedTasks: 0 } })
    const badHealth = await tool(client, 'manage_project', {
      action: 'post_update',
      project: 'Checkout',
      health: 'fine',
      body: 'x',
    })
    expect(badHealth.error.code).toBe('validation_failed')

    const read = await tool(client, 'get_project', { project: 'Checkout' })
    expect(read).toMatchObject({
      name: 'Checkout',
      status: 'In Progress (started)',
      teams: ['ENG', 'DES'],
      health: 'atRisk',
      progress: { tasks: 2, completed: 0 },
      milestones: [{ name: 'Card form', status: expect.any(String), targetDate: '2031-01-31' }],
      latestUpdate: { health: 'atRisk', body: 'Card form slipped a week.' },
      blockers: [{ key: 'ENG-1', title: 'Form', blockedBy: ['ENG-2'] }],
    })
    const missing = await tool(client, 'get_project', { project: 'Nothing' })
    expect(missing.error.code).toBe('unknown_name')

    // Completing with open tasks asks what happens to them; `move` takes a project by name.
    await tool(client, 'manage_project', { action: 'create', name: 'Later', teams: ['ENG'] })
    const asked = await tool(client, 'manage_project', {
      action: 'update',
      project: 'Checkout',
      status: 'completed',
    })
    expect(asked.error).toMatchObject({ code: 'open_work', openTasks: 2 })
    const closed = await tool(client, 'manage_project', {
      action: 'update',
      project: 'Checkout',
      status: 'completed',
      open_tasks: 'move',
      move_tasks_to: 'later',
    })
    expect(closed).toMatchObject({ status: 'Completed (completed)' })
    expect((await ws.api.get(`${base}/tasks/${eng1.id}`)).body).toMatchObject({ milestoneId: null })
    expect((await ws.api.get(`${base}/tasks/${eng1.id}`)).body.projectId).not.toBe(created.id)
    await client.close()
  })

  it('reads projects and milestones as resources, and notifies their subscribers', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: 'Launch', teamIds: [ws.teamId] })).body
    const milestone = (await ws.api.post(`${base}/projects/${project.id}/milestones`, { name: 'Beta' })).body
    const other = (await ws.api.post(`${base}/projects`, { name: 'Other', teamIds: [ws.teamId] })).body
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toContain(`workgraph://orgs/${ws.orgId}/projects/${project.id}`)
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((t) => t.name)).toEqual(expect.arrayContaining(['project', 'milestone']))

    const projectUri = `workgraph://orgs/${ws.orgId}/projects/${project.id}`
    const milestoneUri = `workgraph://orgs/${ws.orgId}/milestones/${milestone.id}`
    const text = async (uri: string) =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)
    expect(await text(projectUri)).toMatchObject({ id: project.id, name: 'Launch' })
    expect(await text(milestoneUri)).toMatchObject({ id: milestone.id, name: 'Beta', projectId: project.id })

    const updates: string[] = []
    let wanted = 0
    let arrived: () => void = () => {}
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri)
      if (updates.length >= wanted) arrived()
    })
    const expectNotified = async (count: number, act: () => Promise<unknown>) => {
      wanted = updates.length + count
      const done = new Promise<void>((resolve) => {
        arrived = resolve
      })
      await act()
      await done
    }
    await client.subscribeResource({ uri: projectUri })
    await client.subscribeResource({ uri: milestoneUri })
    // A comment on the milestone concerns the milestone; a status update concerns the project.
    await expectNotified(1, () => ws.api.post(`${base}/milestones/${milestone.id}/comments`, { body: 'Q' }))
    expect(updates.at(-1)).toBe(milestoneUri)
    await expectNotified(1, () =>
      ws.api.post(`${base}/projects/${project.id}/updates`, { body: 'On it', health: 'onTrack' }),
    )
    expect(updates.at(-1)).toBe(projectUri)
    await expectNotified(1, () => ws.api.post(`${base}/projects/${project.id}/reactions`, { emoji: '🚀' }))
    expect(updates.at(-1)).toBe(projectUri)
    // A task entering the milestone concerns both.
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    await expectNotified(2, () => ws.api.patch(`${base}/tasks/${task.id}`, { milestoneId: milestone.id }))
    expect(updates.slice(-2).sort()).toEqual([milestoneUri, projectUri].sort())
    // Changes to another project notify nobody here.
    const before = updates.length
    await ws.api.patch(`${base}/projects/${other.id}`, { name: 'Renamed' })
    await expectNotified(1, () => ws.api.patch(`${base}/projects/${project.id}`, { name: 'Launch 2' }))
    expect(updates.slice(before)).toEqual([projectUri])

    const gone = await client
      .readResource({ uri: `workgraph://orgs/${ws.orgId}/projects/proj_01JD3Q2R4S5T6V7W8X9YZABCDE` })
      .catch((e) => e)
    expect(gone.code).toBe(-32002)
    await client.close()
  })

  it('organizes with project, milestone and update steps in one plan, by names and handles', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Existing' })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const report = await tool(client, 'organize', {
      steps: [
        { action: 'create_project', handle: 'p', name: 'Mobile', team: 'ENG', priority: 'high' },
        { action: 'create_milestone', handle: 'm', project: '$p', name: 'Alpha', targetDate: '2031-02-01' },
        { action: 'create_task', handle: 't', team: 'ENG', title: 'Login screen' },
        { action: 'add_to_project', task: '$t', project: '$p', milestone: '$m' },
        { action: 'add_to_project', task: 'ENG-1', project: '$p', milestone: 'Alpha' },
        { action: 'post_update', project: '$p', health: 'onTrack', body: 'Started.' },
      ],
    })
    expect(report.error).toBeUndefined()
    expect(report.steps.map((s: any) => [s.action, s.type, s.name, s.changed])).toEqual([
      ['create_project', 'project', 'Mobile', ['name', 'team', 'priority']],
      ['create_milestone', 'milestone', 'Alpha', ['name', 'targetDate']],
      ['create_task', 'task', 'Login screen', ['team', 'title']],
      ['add_to_project', 'task', 'Login screen', ['project', 'milestone']],
      ['add_to_project', 'task', 'Existing', ['project', 'milestone']],
      ['post_update', 'update', 'Mobile', ['health', 'body']],
    ])
    const projectId = report.steps[0].id
    const tasks = (await ws.api.get(`${base}/projects/${projectId}/tasks`)).body.data
    expect(tasks.map((t: any) => t.milestoneId)).toEqual([report.steps[1].id, report.steps[1].id])
    expect((await ws.api.get(`${base}/projects/${projectId}`)).body.health).toBe('onTrack')

    // Names that do not resolve stop the whole plan before anything changes.
    const failed = await tool(client, 'organize', {
      steps: [
        { action: 'create_project', name: 'Never', team: 'ENG' },
        { action: 'add_to_project', task: 'ENG-1', project: 'Mobile', milestone: 'Omega' },
        { action: 'post_update', project: 'Nowhere', health: 'atRisk', body: 'x' },
      ],
    })
    expect(failed.error.code).toBe('unknown_name')
    expect(failed.error.errors.map((e: any) => e.pointer)).toEqual([
      '/body/steps/1/milestone',
      '/body/steps/2/project',
    ])
    const all = (await ws.api.get(`${base}/projects`)).body.data.map((p: any) => p.name)
    expect(all).toEqual(['Mobile'])
    await client.close()
  })
})
