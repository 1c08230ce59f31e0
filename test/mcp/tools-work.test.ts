import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

const DAY = 86_400_000
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString()

describeEachDatabase('MCP tools for comments, labels, links, cycles and history', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('lists the new tools with honest hints', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const { tools } = await client.listTools()
    const hints = Object.fromEntries(tools.map((t) => [t.name, hintsOf(t)]))
    for (const name of ['get_task', 'search_tasks', 'list_cycles', 'task_history'])
      expect(hints[name]).toMatchObject({ readOnlyHint: true, destructiveHint: false })
    for (const name of ['comment', 'label_task', 'link_tasks', 'create_label'])
      expect(hints[name]).toMatchObject({ readOnlyHint: false, destructiveHint: false })
    expect(hints.manage_cycle).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    for (const t of tools) expect(JSON.stringify(t.inputSchema), t.name).not.toContain('"anyOf"')
    // A curated set: intent-level tools with actions, far from one tool per REST operation
    // (projects add two, get_project and manage_project; documents two, write_document and search_documents;
    // insights one, cycle_insights; custom fields one, set_task_field; templates two, apply_template and
    // manage_recurring_task; programs and initiatives four, get_ and manage_ of each;
    // the hub five, search, inbox, portfolio, agenda and whats_new; the daily plan two, my_day and plan_day;
    // away one, set_away; imports one, import_status).
    expect(tools.length).toBeLessThanOrEqual(55)
  })

  it('builds a task up through tools and reads it back whole with get_task', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    await tool(client, 'create_label', { name: 'Bug', team: 'ENG' })
    await tool(client, 'create_task', { team: 'ENG', title: 'Checkout' })
    await tool(client, 'create_task', { team: 'ENG', title: 'Card form', parent: 'ENG-1' })
    await tool(client, 'create_task', { team: 'ENG', title: 'Payments API' })
    await tool(client, 'create_task', { team: 'ENG', title: 'Old checkout' })
    expect(await tool(client, 'link_tasks', { task: 'ENG-3', link: 'blocks', other: 'ENG-1' })).toMatchObject(
      {
        linked: true,
      },
    )
    await tool(client, 'link_tasks', { task: 'ENG-4', link: 'duplicate_of', other: 'ENG-1' })
    await tool(client, 'label_task', { task: 'ENG-1', add: ['Bug'] })
    const root = await tool(client, 'comment', { task: 'ENG-1', body: 'Ship it **today**?' })
    await tool(client, 'comment', { task: 'ENG-1', body: 'After review.', replyTo: root.id })

    const task = await tool(client, 'get_task', { task: 'eng-1' })
    expect(task).toMatchObject({
      key: 'ENG-1',
      isBlocked: true,
      labels: ['Bug'],
      parent: null,
      subtasks: [{ key: 'ENG-2', title: 'Card form' }],
      blockedBy: [{ key: 'ENG-3' }],
      blocks: [],
      relations: [{ type: 'duplicatedBy', key: 'ENG-4' }],
      comments: [{ id: root.id, body: 'Ship it **today**?', replies: [{ body: 'After review.' }] }],
    })
    expect(task.comments[0].author).toContain(ws.owner.user.email)

    // The subtask sees its parent; a link closing a dependency cycle is refused with its path.
    expect((await tool(client, 'get_task', { task: 'ENG-2' })).parent).toMatchObject({ key: 'ENG-1' })
    const cycle = await tool(client, 'link_tasks', { task: 'ENG-1', link: 'blocks', other: 'ENG-3' })
    expect(cycle.error).toMatchObject({ code: 'dependency_cycle', status: 409 })

    // Filters by name: label, parent, blocked, words.
    const search = async (args: object) =>
      (await tool(client, 'search_tasks', { team: 'ENG', ...args })).tasks.map((t: any) => t.key).sort()
    expect(await search({ label: 'Bug' })).toEqual(['ENG-1'])
    expect(await search({ parent: 'ENG-1' })).toEqual(['ENG-2'])
    expect(await search({ blocked: true })).toEqual(['ENG-1'])
    expect(await search({ q: 'checkout' })).toEqual(['ENG-1', 'ENG-4'])
    expect(await search({ parent: 'none', sort: 'createdAt' })).toEqual(['ENG-1', 'ENG-3', 'ENG-4'])

    // Unlink and unlabel, then the history tells the story.
    await tool(client, 'link_tasks', { task: 'ENG-3', link: 'blocks', other: 'ENG-1', unlink: true })
    await tool(client, 'label_task', { task: 'ENG-1', remove: ['bug'] })
    const after = await tool(client, 'get_task', { task: 'ENG-1' })
    expect(after).toMatchObject({ isBlocked: false, labels: [], blockedBy: [] })
    const history = await tool(client, 'task_history', { task: 'ENG-1', limit: 100 })
    const fields = history.history.map((h: any) => h.field)
    expect(fields.at(-1)).toBe('created')
    expect(fields).toEqual(expect.arrayContaining(['blockedBy', 'duplicatedBy']))
    expect(history.history[0].by).toContain(ws.owner.user.email)
  })

  it('plans a cycle: create, add tasks, read it as a resource and hear of changes, complete it', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    for (const title of ['A', 'B']) await tool(client, 'create_task', { team: 'ENG', title })
    const created = await tool(client, 'manage_cycle', {
      team: 'ENG',
      action: 'create',
      name: 'Launch',
      startsAt: at(-1),
      endsAt: at(6),
    })
    expect(created).toMatchObject({ number: 1, name: 'Launch', status: 'active' })
    const added = await tool(client, 'manage_cycle', {
      team: 'ENG',
      action: 'add_tasks',
      cycle: 'current',
      tasks: ['ENG-1', 'ENG-2'],
    })
    expect(added.added).toEqual(['ENG-1', 'ENG-2'])
    expect((await tool(client, 'get_task', { task: 'ENG-1' })).cycle).toMatchObject({
      number: 1,
      name: 'Launch',
    })

    const uri = `workgraph://orgs/${ws.orgId}/teams/ENG/cycles/1`
    const read = await client.readResource({ uri })
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      number: 1,
      name: 'Launch',
    })
    let notified: () => void = () => {}
    const arrived = new Promise<void>((resolve) => {
      notified = resolve
    })
    const updates: string[] = []
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri)
      notified()
    })
    await client.subscribeResource({ uri })
    await tool(client, 'manage_cycle', { team: 'ENG', action: 'remove_tasks', cycle: '1', tasks: ['ENG-2'] })
    await arrived
    expect(updates).toContain(uri)

    // Completing it rolls its unfinished task over into the next cycle.
    await tool(client, 'manage_cycle', { team: 'ENG', action: 'create', startsAt: at(6), endsAt: at(13) })
    const done = await tool(client, 'manage_cycle', { team: 'ENG', action: 'complete', cycle: 'Launch' })
    expect(done).toMatchObject({ status: 'completed', rolledOver: 1 })
    const next = await tool(client, 'search_tasks', { team: 'ENG', cycle: 'next' })
    expect(next.tasks.map((t: any) => t.key)).toEqual(['ENG-1'])
    const missing = await client
      .readResource({ uri: `workgraph://orgs/${ws.orgId}/teams/ENG/cycles/7` })
      .catch((e) => e)
    expect(missing.code).toBe(-32002)
    await client.close()
  })

  it('decides commenting the same through MCP and REST: a comment grant may, a viewer may not', async () => {
    const ws = await newWorkspace(server)
    const task = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Shared' }))
      .body
    const commenter = await teamGuest(ws, 'comment')
    const viewer = await teamGuest(ws, 'view')
    for (const [person, allowed] of [
      [commenter, true],
      [viewer, false],
    ] as const) {
      const token = await mcpToken(server, person.user.id, ['work:read', 'work:write'])
      const rest = await server.request('POST', `/v1/orgs/${ws.orgId}/tasks/${task.id}/comments`, {
        token,
        body: { body: 'Through REST' },
      })
      const client = await connect(server, token)
      const mcp = await tool(client, 'comment', { task: 'ENG-1', body: 'Through MCP' })
      await client.close()
      expect(rest.status === 201).toBe(allowed)
      if (allowed) expect(mcp.error).toBeUndefined()
      else expect(mcp.error).toMatchObject({ code: rest.body.code, status: rest.status })
    }
    const comments = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${task.id}/comments`)).body.data
    expect(comments.map((c: any) => c.body)).toEqual(['Through REST', 'Through MCP'])
  })
})
