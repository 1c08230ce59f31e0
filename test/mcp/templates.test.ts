import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

const skeleton = {
  title: 'Rotate credentials',
  description: null,
  priority: 'high',
  estimate: null,
  labelIds: [],
  dueOffsetDays: 3,
}

describeEachDatabase('MCP tools for templates and recurring tasks', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('applies a template by name and manages a recurring task by name', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const { tools } = await client.listTools()
    const hints = Object.fromEntries(tools.map((t) => [t.name, hintsOf(t)]))
    expect(hints.apply_template).toMatchObject({ readOnlyHint: false, destructiveHint: false })
    expect(hints.manage_recurring_task).toMatchObject({ readOnlyHint: false, destructiveHint: true })

    await ws.api.post(`${base}/templates`, {
      teamId: ws.teamId,
      kind: 'task',
      name: 'Rotation',
      task: skeleton,
    })
    const applied = await tool(client, 'apply_template', {
      template: 'rotation',
      title: 'Rotate now',
      startDate: '2030-05-01',
    })
    expect(applied).toMatchObject({ kind: 'task', taskIds: [expect.stringMatching(/^task_/)] })
    const task = (await ws.api.get(`${base}/tasks/${applied.taskIds[0]}`)).body
    expect(task).toMatchObject({ title: 'Rotate now', dueDate: '2030-05-04', teamId: ws.teamId })
    expect((await tool(client, 'apply_template', { template: 'Nope' })).error).toMatchObject({
      code: 'unknown_name',
    })

    const created = await tool(client, 'manage_recurring_task', {
      action: 'create',
      name: 'Monthly rotation',
      template: 'Rotation',
      team: 'ENG',
      schedule: { frequency: 'monthly', monthDay: 1 },
      startDate: '2030-06-01',
    })
    expect(created).toMatchObject({ name: 'Monthly rotation', nextOccurrence: '2030-06-01', paused: false })
    const paused = await tool(client, 'manage_recurring_task', { action: 'pause', name: 'monthly rotation' })
    expect(paused).toMatchObject({ paused: true, nextOccurrence: null })
    const resumed = await tool(client, 'manage_recurring_task', {
      action: 'resume',
      name: 'Monthly rotation',
    })
    expect(resumed).toMatchObject({ paused: false, nextOccurrence: '2030-06-01' })
    const changed = await tool(client, 'manage_recurring_task', {
      action: 'update',
      name: 'Monthly rotation',
      schedule: { frequency: 'monthly', monthDay: 15 },
      newName: 'Mid-month rotation',
    })
    expect(changed).toMatchObject({ name: 'Mid-month rotation', nextOccurrence: '2030-06-15' })
    expect(
      await tool(client, 'manage_recurring_task', { action: 'show', name: 'Mid-month rotation' }),
    ).toEqual(changed)
    expect(
      await tool(client, 'manage_recurring_task', { action: 'delete', name: 'Mid-month rotation' }),
    ).toEqual({
      deleted: created.id,
    })
    expect((await ws.api.get(`${base}/recurrences`)).body.data).toEqual([])
  })
})
