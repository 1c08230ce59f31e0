import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

const DAY = 86_400_000
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString()

describeEachDatabase('MCP organize: labels, cycles, links, parents and comments', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('creates a label and a cycle and uses them by handle in later steps', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const steps = [
      { action: 'create_label', handle: 'bug', name: 'Bug', team: 'ENG', color: '#eb5757' },
      {
        action: 'create_cycle',
        handle: 'sprint',
        team: 'ENG',
        name: 'Sprint',
        startsAt: at(-1),
        endsAt: at(6),
      },
      { action: 'create_task', handle: 'epic', team: 'ENG', title: 'Checkout' },
      {
        action: 'create_task',
        handle: 'form',
        team: 'ENG',
        title: 'Card form',
        parent: '$epic',
        cycle: '$sprint',
      },
      { action: 'create_task', handle: 'api', team: 'ENG', title: 'Payments API' },
      { action: 'label_task', task: '$epic', label: '$bug' },
      { action: 'label_task', task: '$api', label: 'bug' },
      { action: 'add_to_cycle', task: '$api', cycle: '$sprint' },
      { action: 'link_tasks', task: '$api', link: 'blocks', other: '$form' },
      { action: 'set_parent', task: '$api', parent: '$epic' },
      { action: 'comment', task: '$epic', body: 'Planned by the agent.' },
    ]
    const dry = await tool(client, 'organize', { steps, dryRun: true })
    expect(dry.error).toBeUndefined()
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/labels`)).body.data).toHaveLength(0)

    const report = await tool(client, 'organize', { steps })
    expect(report.steps.map((s: any) => s.type)).toEqual([
      'label',
      'cycle',
      'task',
      'task',
      'task',
      'task',
      'task',
      'task',
      'task',
      'task',
      'comment',
    ])
    expect(report.steps[1]).toMatchObject({ handle: 'sprint', name: 'Sprint' })
    expect(report.steps[10]).toMatchObject({ key: 'ENG-1', changed: ['comments'] })

    const label = report.steps[0].id
    const cycle = report.steps[1].id
    const get = async (key: string) => (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/${key}`)).body
    const [epic, form, api] = [await get('ENG-1'), await get('ENG-2'), await get('ENG-3')]
    expect(epic.labelIds).toEqual([label])
    expect(api).toMatchObject({ labelIds: [label], cycleId: cycle, parentId: epic.id })
    expect(form).toMatchObject({ parentId: epic.id, cycleId: cycle, isBlocked: true })
    const comments = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${epic.id}/comments`)).body.data
    expect(comments.map((c: any) => c.body)).toEqual(['Planned by the agent.'])

    // Handles are typed: a label handle is not a task.
    const wrong = await tool(client, 'organize', {
      steps: [
        { action: 'create_label', handle: 'l', name: 'Other' },
        { action: 'label_task', task: '$l', label: '$l' },
      ],
    })
    expect(wrong.error).toMatchObject({ code: 'rule_violated' })
    expect(wrong.error.errors[0]).toMatchObject({ pointer: '/body/steps/1/task' })
  })

  it('changes nothing when the last step would close a dependency cycle', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    await tool(client, 'organize', {
      steps: [
        { action: 'create_task', handle: 'a', team: 'ENG', title: 'A' },
        { action: 'create_task', handle: 'b', team: 'ENG', title: 'B' },
        { action: 'link_tasks', task: '$a', link: 'blocks', other: '$b' },
      ],
    })
    const events = (await server.storage.read((s) => s.events.bounds(ws.orgId))).last
    const result = await tool(client, 'organize', {
      steps: [
        { action: 'create_label', handle: 'l', name: 'Risky' },
        { action: 'create_task', handle: 'c', team: 'ENG', title: 'C' },
        { action: 'label_task', task: 'ENG-1', label: '$l' },
        { action: 'comment', task: 'ENG-2', body: 'About to loop' },
        { action: 'link_tasks', task: 'ENG-2', link: 'blocks', other: 'ENG-1' },
      ],
    })
    expect(result.error).toMatchObject({ code: 'dependency_cycle', status: 409, step: 4 })
    expect((await server.storage.read((s) => s.events.bounds(ws.orgId))).last).toBe(events)
    const tasks = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks?limit=50`)).body.data
    expect(tasks.map((t: any) => t.key).sort()).toEqual(['ENG-1', 'ENG-2'])
    expect(tasks.every((t: any) => t.labelIds.length === 0)).toBe(true)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/labels`)).body.data).toHaveLength(0)
    const b = tasks.find((t: any) => t.key === 'ENG-2')
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${b.id}/comments`)).body.data).toHaveLength(0)
  })

  it('resolves cycle and label names against the team of a task created in the same plan', async () => {
    const ws = await newWorkspace(server)
    await ws.api.post(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`, { startsAt: at(-1), endsAt: at(6) })
    await ws.api.post(`/v1/orgs/${ws.orgId}/labels`, { name: 'Frontend', teamId: ws.teamId })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const report = await tool(client, 'organize', {
      steps: [
        { action: 'create_task', handle: 't', team: 'ENG', title: 'T' },
        { action: 'add_to_cycle', task: '$t', cycle: 'current' },
        { action: 'label_task', task: '$t', label: 'frontend' },
      ],
    })
    expect(report.steps.map((s: any) => s.changed)).toEqual([['team', 'title'], ['cycle'], ['labels']])
    const unknown = await tool(client, 'organize', {
      steps: [
        { action: 'create_task', handle: 't', team: 'ENG', title: 'U' },
        { action: 'add_to_cycle', task: '$t', cycle: 'next' },
      ],
    })
    expect(unknown.error).toMatchObject({ code: 'unknown_name', step: 1 })
    expect(unknown.error.errors[0].pointer).toBe('/arguments/steps/1/cycle')
  })
})
