import { createMcpHttpHandler, type McpHttpHandler } from '@workgraph/mcp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEngine, newPerson, type TestEngine } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const PROTOCOL = '2025-11-25'

/** Two MCP handlers on one engine stand for two instances: sessions live in the database. */
describeEachDatabase('MCP sessions kept in the database', (db) => {
  let t: TestEngine
  let one: McpHttpHandler
  let two: McpHttpHandler
  let token: string
  beforeAll(async () => {
    t = await createTestEngine(db)
    one = createMcpHttpHandler(t.engine, { subscriptionPollMs: 100 })
    two = createMcpHttpHandler(t.engine, { subscriptionPollMs: 100 })
    const person = await newPerson(t.engine)
    token = await t.engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read', 'work:write'],
      audience: `${t.engine.config.baseUrl}/mcp`,
    })
  })
  afterAll(async () => {
    await one.close()
    await two.close()
    await t.close()
  })

  const post = (handler: McpHttpHandler, body: unknown, session?: string) =>
    handler.handle(
      new Request(`${t.engine.config.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL,
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      }),
    )
  const initialize = async (handler: McpHttpHandler) => {
    const res = await post(handler, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })
    await res.text()
    return res.headers.get('mcp-session-id')!
  }
  // Requests in flight on one session carry distinct ids (JSON-RPC): the transport routes each answer
  // to its request's stream by id, so two in flight with one id would share a stream.
  const list = (handler: McpHttpHandler, session: string, id = 2) =>
    post(handler, { jsonrpc: '2.0', id, method: 'tools/list' }, session)

  it('answers concurrent first requests of a session on another instance', async () => {
    const session = await initialize(one)
    const answers = await Promise.all([2, 3, 4].map((id) => list(two, session, id)))
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200])
    for (const r of answers) expect(await r.text()).toContain('search_tasks')
  })

  it('ends a session on every instance with DELETE, and refuses an idle one', async () => {
    const session = await initialize(one)
    expect((await list(two, session)).status).toBe(200)
    const ended = await one.handle(
      new Request(`${t.engine.config.baseUrl}/mcp`, {
        method: 'DELETE',
        headers: {
          authorization: `Bearer ${token}`,
          'mcp-session-id': session,
          'mcp-protocol-version': PROTOCOL,
        },
      }),
    )
    expect(ended.status).toBe(200)
    expect(await t.storage.read((s) => s.protocolSessions.get(session))).toBeNull()
    expect((await list(two, session)).status).toBe(404)

    const idle = await initialize(one)
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString()
    await t.storage.transaction((s) => s.protocolSessions.touch(idle, twoHoursAgo))
    expect((await list(two, idle)).status).toBe(404)
    expect((await list(one, idle)).status).toBe(404)
    expect(await t.storage.read((s) => s.protocolSessions.get(idle))).toBeNull()
  })
})
