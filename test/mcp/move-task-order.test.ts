import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP move_task: "move this above that"', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('puts a task above or below another of its column, project or cycle, by key', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const base = `/v1/orgs/${ws.orgId}`
    for (const title of ['One', 'Two', 'Three']) await tool(client, 'create_task', { team: 'ENG', title })
    const stateId = (await ws.api.get(`${base}/tasks?limit=1`)).body.data[0].stateId
    const order = async (filter: string) =>
      (await ws.api.get(`${base}/tasks?${filter}&sort=rank`)).body.data.map((t: { key: string }) => t.key)
    expect(await order(`stateId=${stateId}`)).toEqual(['ENG-1', 'ENG-2', 'ENG-3'])

    expect(await tool(client, 'move_task', { task: 'ENG-3', before: 'ENG-1' })).toMatchObject({
      key: 'ENG-3',
    })
    expect(await order(`stateId=${stateId}`)).toEqual(['ENG-3', 'ENG-1', 'ENG-2'])
    await tool(client, 'move_task', { task: 'eng-3', after: 'ENG-2' })
    expect(await order(`stateId=${stateId}`)).toEqual(['ENG-1', 'ENG-2', 'ENG-3'])

    // To another state and there above a task: one call.
    await tool(client, 'move_task', { task: 'ENG-1', state: 'In Progress' })
    const moved = await tool(client, 'move_task', { task: 'ENG-2', state: 'In Progress', before: 'ENG-1' })
    expect(moved).toMatchObject({ key: 'ENG-2', state: 'In Progress' })
    const started = (await ws.api.get(`${base}/tasks?limit=1&stateCategory=started`)).body.data[0].stateId
    expect(await order(`stateId=${started}`)).toEqual(['ENG-2', 'ENG-1'])

    // A task that is not in the list, or neither side named: an error the assistant can read.
    const refused = await tool(client, 'move_task', { task: 'ENG-3', before: 'ENG-1' })
    expect(refused.error).toMatchObject({ code: 'reference_not_found' })
    expect((await tool(client, 'move_task', { task: 'ENG-3' })).error).toMatchObject({
      code: 'validation_failed',
    })
    expect(
      (await tool(client, 'move_task', { task: 'ENG-3', list: 'project', after: 'ENG-1' })).error,
    ).toMatchObject({ code: 'rule_violated' })
  })
})
