import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP tool for custom field values', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('sets and clears a task’s custom fields by field, option and person names', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const def = async (body: object) => (await ws.api.post(`${base}/custom-fields`, body)).body
    const size = await def({ name: 'Size', type: 'select', options: [{ name: 'Small' }, { name: 'Large' }] })
    const areas = await def({
      name: 'Areas',
      type: 'multiSelect',
      options: [{ name: 'API' }, { name: 'Web' }],
    })
    await def({ name: 'Cost', type: 'number' })
    await def({ name: 'Reviewer', type: 'person' })
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Checkout' })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const { tools } = await client.listTools()
    const described = tools.find((t) => t.name === 'set_task_field')!
    expect(hintsOf(described!)).toMatchObject({ readOnlyHint: false, destructiveHint: false })
    expect(JSON.stringify(described.inputSchema)).not.toContain('"anyOf"')

    expect(await tool(client, 'set_task_field', { task: 'ENG-1', field: 'size', value: 'large' })).toEqual({
      key: 'ENG-1',
      fields: { Size: 'Large' },
    })
    await tool(client, 'set_task_field', { task: 'ENG-1', field: 'Areas', value: ['Web', 'API'] })
    await tool(client, 'set_task_field', { task: 'ENG-1', field: 'Cost', value: '12.5' })
    const all = await tool(client, 'set_task_field', { task: 'ENG-1', field: 'Reviewer', value: 'me' })
    expect(all.fields).toMatchObject({ Size: 'Large', Areas: ['API', 'Web'], Cost: 12.5 })
    expect(all.fields.Reviewer).toMatch(/^mem_/)
    const task = (await ws.api.get(`${base}/tasks?limit=1`)).body.data[0]
    expect(task.fields[size.id]).toBe(size.options[1].id)
    expect(task.fields[areas.id]).toEqual(areas.options.map((o: any) => o.id))

    const cleared = await tool(client, 'set_task_field', { task: 'ENG-1', field: 'Size', value: null })
    expect(cleared.fields.Size).toBeUndefined()
    expect(
      (await tool(client, 'set_task_field', { task: 'ENG-1', field: 'Nope', value: 'x' })).error,
    ).toMatchObject({
      code: 'unknown_name',
    })
    expect(
      (await tool(client, 'set_task_field', { task: 'ENG-1', field: 'Size', value: 'Huge' })).error,
    ).toMatchObject({ code: 'unknown_name' })
    expect(
      (await tool(client, 'set_task_field', { task: 'ENG-1', field: 'Size', value: {} })).error,
    ).toMatchObject({
      code: 'validation_failed',
    })
    // A viewer's token cannot change values: the operation's capability applies.
    const viewer = await teamGuest(ws, 'view')
    const viewerClient = await connect(server, await mcpToken(server, viewer.user.id))
    const refused = await tool(viewerClient, 'set_task_field', { task: 'ENG-1', field: 'Cost', value: 1 })
    expect(refused.error).toMatchObject({ code: 'capability_required' })
  }, 90_000)
})
