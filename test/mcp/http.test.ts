import { request as httpRequest } from 'node:http'
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { authorizeAndAllow, memoryAuthProvider, signUp } from '../oauth/support.ts'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
}
const post = (url: string, headers: Record<string, string>, body: unknown = initialize) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  })

/** fetch may not set Host; node:http may, as a rebinding browser effectively does. */
function statusWithHost(base: string, token: string, host: string): Promise<number> {
  const url = new URL(`${base}/mcp`)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          host,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(initialize))
  })
}

describeEachDatabase('MCP over Streamable HTTP', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('gets its token through the SDK auth() flow and works as the person who consented', async () => {
    const serverUrl = `${server.url}/mcp`
    const { provider, state } = memoryAuthProvider('MCP test client')
    expect(await auth(provider, { serverUrl, scope: 'work:read work:write' })).toBe('REDIRECT')
    const { cookie } = await signUp(server.url)
    const callback = await authorizeAndAllow(server.url, state.authorizationUrl!.href, cookie)
    expect(await auth(provider, { serverUrl, authorizationCode: callback.searchParams.get('code')! })).toBe(
      'AUTHORIZED',
    )

    const client = await connect(server, state.tokens!.access_token)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(['search_tasks', 'create_task', 'organize']))
    const created = await tool(client, 'list_workspaces')
    expect(created.workspaces).toEqual([])
    await client.close()
  })

  it('answers 401 with resource_metadata without a token, and refuses a token for the REST API', async () => {
    const bare = await post(`${server.url}/mcp`, {})
    expect(bare.status).toBe(401)
    expect(bare.headers.get('www-authenticate')).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    )
    const person = await newPerson(server.engine)
    const restToken = await server.engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read'],
    })
    const wrongAudience = await post(`${server.url}/mcp`, { authorization: `Bearer ${restToken}` })
    expect(wrongAudience.status).toBe(401)
    expect(wrongAudience.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('challenges a tool call that needs a scope the token lacks with 403 insufficient_scope', async () => {
    const person = await newPerson(server.engine)
    const token = await mcpToken(server, person.user.id, ['work:read'])
    const init = await post(`${server.url}/mcp`, { authorization: `Bearer ${token}` })
    expect(init.status).toBe(200)
    const session = init.headers.get('mcp-session-id')!
    const call = await post(
      `${server.url}/mcp`,
      { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_task', arguments: {} } },
    )
    expect(call.status).toBe(403)
    const header = call.headers.get('www-authenticate')!
    expect(header).toContain('error="insufficient_scope"')
    expect(header).toMatch(/scope="[^"]*work:write[^"]*"/)
  })

  it("refuses a foreign Origin or Host, and another person's session id", async () => {
    const ws = await newWorkspace(server)
    const token = await mcpToken(server, ws.owner.user.id)
    expect(
      (await post(`${server.url}/mcp`, { authorization: `Bearer ${token}`, origin: 'http://evil.example' }))
        .status,
    ).toBe(403)
    expect(await statusWithHost(server.url, token, 'evil.example')).toBe(403)
    expect(await statusWithHost(server.url, token, new URL(server.url).host)).toBe(200)
    const init = await post(`${server.url}/mcp`, { authorization: `Bearer ${token}` })
    const session = init.headers.get('mcp-session-id')!
    const other = await newPerson(server.engine)
    const hijack = await post(
      `${server.url}/mcp`,
      { authorization: `Bearer ${await mcpToken(server, other.user.id)}`, 'mcp-session-id': session },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    )
    expect(hijack.status).toBe(404)
  })

  it('creates, finds, moves and reads tasks by name, and lists resources', async () => {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const created = await tool(client, 'create_task', {
      team: 'eng',
      title: 'Fix login',
      assignee: 'me',
      priority: 'high',
    })
    expect(created).toMatchObject({ key: 'ENG-1', title: 'Fix login', state: 'Backlog', priority: 'high' })
    expect(created.assignee).toContain(ws.owner.user.email)
    expect((await tool(client, 'move_task', { task: 'ENG-1', state: 'in progress' })).state).toBe(
      'In Progress',
    )
    const found = await tool(client, 'search_tasks', { team: 'Engineering', assignee: 'me' })
    expect(found.tasks.map((t: any) => t.key)).toEqual(['ENG-1'])
    expect(found.nextCursor).toBeNull()
    expect(Object.keys(found.tasks[0])).toEqual(['key', 'title', 'state', 'assignee', 'priority'])
    // A composed filter goes through tasks.query, ANDed with the tool's own arguments.
    const composed = (filter: unknown) =>
      tool(client, 'search_tasks', { team: 'Engineering', filter }).then((r: any) =>
        r.tasks.map((t: any) => t.key),
      )
    expect(
      await composed({ or: [{ priority: { in: ['urgent', 'high'] } }, { estimate: { gt: 8 } }] }),
    ).toEqual(['ENG-1'])
    expect(await composed({ not: { stateCategory: { eq: 'started' } } })).toEqual([])
    const wide = await tool(client, 'search_tasks', { fields: ['dueDate', 'createdAt'] })
    expect(Object.keys(wide.tasks[0])).toContain('createdAt')
    const one = await tool(client, 'get_task', { task: 'eng-1' })
    expect(one).toMatchObject({ key: 'ENG-1', state: 'In Progress', stateCategory: 'started' })

    const listed = await client.listResources()
    expect(listed.resources.map((r) => r.uri)).toContain(`workgraph://orgs/${ws.orgId}/tasks/ENG-1`)
    const read = await client.readResource({ uri: `workgraph://orgs/${ws.orgId}/tasks/ENG-1` })
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ key: 'ENG-1' })
    await client.close()
  })

  it('pages search results with honest cursors', async () => {
    const ws = await newWorkspace(server)
    for (let i = 0; i < 5; i++)
      await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: `T${i}` })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await tool(client, 'search_tasks', { limit: 2, ...(cursor ? { cursor } : {}) })
      seen.push(...page.tasks.map((t: any) => t.key))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen.sort()).toEqual(['ENG-1', 'ENG-2', 'ENG-3', 'ENG-4', 'ENG-5'])
    await client.close()
  })
})
