import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP log_time', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = Date.parse('2030-01-16T09:00:00.000Z')
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  afterAll(() => server.drop())

  it('logs minutes on a task by key, and times one with the timer', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Fix' })).body
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const logged = await tool(client, 'log_time', { task: task.key, minutes: 45, note: 'Review' })
    expect(logged.entry).toMatchObject({ minutes: 45, note: 'Review', source: 'manual', date: '2030-01-16' })
    const started = await tool(client, 'log_time', { task: task.key, timer: 'start' })
    expect(started).toMatchObject({ timer: { task: task.key }, stopped: null })
    now += 7 * 60_000
    const stopped = await tool(client, 'log_time', { timer: 'stop' })
    expect(stopped).toMatchObject({ entry: { minutes: 7, source: 'timer' }, discarded: null })
    const summary = await ws.api.get(`${base}/time-entries/summary?groupBy=task`)
    expect(summary.body.totalMinutes).toBe(52)
    expect((await tool(client, 'log_time', { task: task.key })).error).toMatchObject({
      code: 'validation_failed',
    })
  })
})
