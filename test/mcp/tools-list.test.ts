import { TOOLS } from '@workgraph/mcp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

const DAY = 86_400_000
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString()

describeEachDatabase('MCP tools/list, structured answers and name errors', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('lists every tool in under 40 KB, with output schemas its answers match', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const { tools } = await client.listTools()
    // 54 tools before the list was made smaller, none dropped to make it fit; then import_status.
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort())
    expect(tools).toHaveLength(55)
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThan(40_000)
    for (const t of tools.filter((t) => t.outputSchema)) expect(t.outputSchema!.type).toBe('object')
    expect(tools.filter((t) => t.outputSchema).map((t) => t.name)).toEqual(
      expect.arrayContaining(['get_task', 'search_tasks', 'create_task']),
    )

    // The SDK client checks `structuredContent` against the listed output schema on every call.
    await tool(client, 'create_task', { team: 'ENG', title: 'Structured' })
    const found = await client.callTool({ name: 'search_tasks', arguments: { team: 'ENG' } })
    expect(found.structuredContent).toEqual(JSON.parse((found.content as { text: string }[])[0]!.text))
    expect(found.structuredContent).toMatchObject({ tasks: [{ key: 'ENG-1', title: 'Structured' }] })
  })

  it('get_task names the project, milestone and cycle of the task, with their ids', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    await tool(client, 'create_task', { team: 'ENG', title: 'Ship it' })
    const plan = await tool(client, 'organize', {
      steps: [
        { action: 'create_project', handle: 'p', name: 'Launch', team: 'ENG' },
        { action: 'create_milestone', handle: 'm', project: '$p', name: 'Beta' },
        { action: 'add_to_project', task: 'ENG-1', project: '$p', milestone: '$m' },
        { action: 'create_cycle', handle: 'c', team: 'ENG', startsAt: at(-1), endsAt: at(6) },
        { action: 'add_to_cycle', task: 'ENG-1', cycle: '$c' },
      ],
    })
    const [project, milestone] = plan.steps.map((s: { id: string }) => s.id)
    const result = await client.callTool({ name: 'get_task', arguments: { task: 'ENG-1' } })
    expect(result.structuredContent).toMatchObject({
      key: 'ENG-1',
      project: { id: project, name: 'Launch' },
      milestone: { id: milestone, name: 'Beta' },
      cycle: { id: expect.stringMatching(/^cyc_/), number: 1, status: 'active' },
    })
    const plain = await tool(client, 'create_task', { team: 'ENG', title: 'Loose' })
    expect(await tool(client, 'get_task', { task: plain.key })).toMatchObject({
      project: null,
      milestone: null,
      cycle: null,
    })
  })

  it('an unknown or ambiguous name points at the argument that carried it, with close matches', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const team = await tool(client, 'search_tasks', { team: 'ENGG' })
    expect(team.error).toMatchObject({
      code: 'unknown_name',
      argument: 'team',
      name: 'ENGG',
      errors: [{ pointer: '/arguments/team' }],
      candidates: [expect.objectContaining({ label: expect.stringContaining('ENG') })],
    })
    expect(team.error.detail).toContain('(argument `team`)')

    await tool(client, 'create_task', { team: 'ENG', title: 'Someone’s' })
    const person = await tool(client, 'assign_task', { task: 'ENG-1', assignee: 'nobody@example.com' })
    expect(person.error).toMatchObject({
      code: 'unknown_name',
      argument: 'assignee',
      errors: [{ pointer: '/arguments/assignee' }],
    })

    await tool(client, 'manage_project', { action: 'create', name: 'Twin', teams: ['ENG'] })
    await tool(client, 'manage_project', { action: 'create', name: 'twin', teams: ['ENG'] })
    const twin = await tool(client, 'get_project', { project: 'Twin' })
    expect(twin.error).toMatchObject({
      code: 'ambiguous_name',
      argument: 'project',
      errors: [{ pointer: '/arguments/project' }],
    })
    expect(twin.error.candidates).toHaveLength(2)
  })
})
