import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP tools for the daily plan', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('plans a day by task keys and text, completes and removes by key, carries over, and shows my day with suggestions', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const me = (await ws.api.get(`${base}/members`)).body.data[0].id
    const today = new Date().toISOString().slice(0, 10)
    const t1 = (
      await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Draft the memo', assigneeId: me })
    ).body
    const t2 = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Review', assigneeId: me }))
      .body
    const overdue = (
      await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title: 'Late',
        assigneeId: me,
        dueDate: '2020-01-01',
      })
    ).body
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const { tools } = await client.listTools()
    const hints = Object.fromEntries(tools.map((t) => [t.name, hintsOf(t)]))
    expect(hints.my_day).toMatchObject({ readOnlyHint: true })
    expect(hints.plan_day).toMatchObject({ readOnlyHint: false })

    const planned = await tool(client, 'plan_day', {
      date: '2030-01-10',
      add: [t1.key, t2.key.toLowerCase()],
      add_text: ['Call the printer'],
    })
    expect(planned.items.map((i: any) => i.task?.key ?? i.text)).toEqual([t1.key, t2.key, 'Call the printer'])
    expect(planned.items[0].task).toEqual({
      workspace: 'Acme',
      key: t1.key,
      title: 'Draft the memo',
      state: 'backlog',
      dueDate: null,
    })
    const changed = await tool(client, 'plan_day', {
      date: '2030-01-10',
      complete: [t1.key],
      remove: [t2.key],
    })
    expect(changed.items.map((i: any) => [i.task?.key ?? i.text, i.done])).toEqual([
      [t1.key, true],
      ['Call the printer', false],
    ])
    const missing = await tool(client, 'plan_day', { date: '2030-01-10', complete: ['ENG-999'] })
    expect(missing.error).toMatchObject({ code: 'not_found' })
    const unknownTask = await tool(client, 'plan_day', { date: '2030-01-10', add: ['ENG-999'] })
    expect(unknownTask.error).toMatchObject({ code: 'reference_not_found' })

    const carried = await tool(client, 'plan_day', { date: '2030-01-11', carry_over: true })
    expect(carried.items).toEqual([
      expect.objectContaining({
        text: 'Call the printer',
        carriedFrom: '2030-01-10',
        carryCount: 1,
        done: false,
      }),
    ])

    const day = await tool(client, 'my_day', {})
    expect(day.date).toBe(today)
    expect(day.items).toEqual([])
    expect(day.suggestions[0]).toEqual({
      reason: 'overdue',
      workspace: 'Acme',
      key: overdue.key,
      title: 'Late',
      dueDate: '2020-01-01',
    })
    const other = await tool(client, 'my_day', { date: '2030-01-11' })
    expect(other.items).toHaveLength(1)
  })
})
