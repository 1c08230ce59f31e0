/**
 * MCP sessions across instances: two server processes on one database answer for one public
 * address. A session initialized on one is used on the other (rebuilt there from its row), a
 * resource subscribed through one notifies on the other's standalone stream when the record changes
 * through REST on the first, and a DELETE on either ends the session on both.
 */
import type { ChildProcess } from 'node:child_process'
import { createEngine, type Engine } from '@workgraph/core'
import { type KyselyStorage, openStorage } from '@workgraph/kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget } from '../support/databases.ts'
import { newPerson, type TestPerson } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { freePort, startCrashServer } from '../support/processes.ts'

const BASE_URL = 'http://workgraph.test'
const PROTOCOL = '2025-11-25'

/** The JSON-RPC messages of a POST answer, whether JSON or a (finished) SSE stream. */
async function messages(res: Response): Promise<any[]> {
  const text = await res.text()
  if (!text) return []
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream'))
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
  return [JSON.parse(text)]
}

describeEachDatabase('MCP sessions across two instances', (db) => {
  let fresh: DatabaseTarget
  const children: ChildProcess[] = []
  const urls: string[] = []
  let storage: KyselyStorage
  let engine: Engine
  let person: TestPerson
  let mcpToken: string
  let orgId: string
  const stream = new AbortController()

  const rest = async (base: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${person.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  const mcp = (base: string, body: unknown, session?: string, token = mcpToken) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL,
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    fresh = await db.fresh()
    for (let i = 0; i < 2; i++) {
      const port = await freePort()
      urls.push(`http://127.0.0.1:${port}`)
      children.push(
        await startCrashServer({
          DATABASE_URL: fresh.url,
          ...(fresh.directUrl ? { DATABASE_DIRECT_URL: fresh.directUrl } : {}),
          PORT: String(port),
          BASE_URL,
          ...(fresh.schema ? { DATABASE_SCHEMA: fresh.schema } : {}),
        }),
      )
    }
    // Tokens come from the shared signing keys, as the authorization server on either instance would issue them.
    storage = await openStorage({ url: fresh.url, ...(fresh.schema ? { schema: fresh.schema } : {}) })
    engine = await createEngine({ storage, config: { baseUrl: BASE_URL } })
    person = await newPerson(engine)
    mcpToken = await engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read', 'work:write'],
      audience: `${BASE_URL}/mcp`,
    })
    orgId = (await rest(urls[1]!, 'POST', '/v1/orgs', { name: 'Two' })).body.id
    const teamId = (await rest(urls[1]!, 'POST', `/v1/orgs/${orgId}/teams`, { name: 'Eng', key: 'ENG' })).body
      .id
    expect((await rest(urls[1]!, 'POST', `/v1/orgs/${orgId}/tasks`, { teamId, title: 'One' })).status).toBe(
      201,
    )
  }, 120_000)
  afterAll(async () => {
    stream.abort()
    for (const child of children) child.kill('SIGKILL')
    await engine?.close()
    await storage?.close()
    await fresh.drop()
  })

  it('serves one session from both, notifies across them, and ends it on both', async () => {
    const [a, b] = urls as [string, string]
    const init = await mcp(a, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })
    expect(init.status).toBe(200)
    const session = init.headers.get('mcp-session-id')!
    expect((await messages(init))[0].result.serverInfo.name).toBe('workgraph')
    expect((await mcp(a, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202)

    // A tool call on B, which never saw the session: it rebuilds it from the database.
    const called = await mcp(
      b,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_task', arguments: { task: 'ENG-1' } },
      },
      session,
    )
    expect(called.status).toBe(200)
    const [answer] = await messages(called)
    expect(answer.id).toBe(2)
    expect(JSON.parse(answer.result.content[0].text)).toMatchObject({ key: 'ENG-1', title: 'One' })

    // Another person cannot use the session on either instance.
    const other = await newPerson(engine)
    const otherToken = await engine.tokens.issueAccessToken({
      userId: other.user.id,
      scopes: ['work:read'],
      audience: `${BASE_URL}/mcp`,
    })
    for (const base of [a, b])
      expect(
        (await mcp(base, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, session, otherToken)).status,
      ).toBe(404)

    // The standalone stream on A; the subscription through B.
    const get = await fetch(`${a}/mcp`, {
      headers: {
        authorization: `Bearer ${mcpToken}`,
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      },
      signal: stream.signal,
    })
    expect(get.status).toBe(200)
    let seen = ''
    const reading = (async () => {
      const decoder = new TextDecoder()
      try {
        for await (const chunk of get.body!) seen += decoder.decode(chunk as Uint8Array, { stream: true })
      } catch {
        // aborted at the end
      }
    })()
    const uri = `workgraph://orgs/${orgId}/tasks/ENG-1`
    const subscribed = await mcp(
      b,
      { jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri } },
      session,
    )
    expect(subscribed.status).toBe(200)
    expect((await messages(subscribed))[0].result).toEqual({})

    const task = (await rest(b, 'GET', `/v1/orgs/${orgId}/tasks?limit=1`)).body.data[0]
    expect((await rest(b, 'PATCH', `/v1/orgs/${orgId}/tasks/${task.id}`, { title: 'Renamed' })).status).toBe(
      200,
    )
    await expect
      .poll(() => seen, { timeout: 15_000, interval: 100 })
      .toContain(`"method":"notifications/resources/updated","params":{"uri":"${uri}"}`)

    // DELETE on A ends it; B, which holds a copy, answers 404 next.
    const ended = await fetch(`${a}/mcp`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${mcpToken}`,
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      },
    })
    expect(ended.status).toBe(200)
    expect((await mcp(b, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, session)).status).toBe(404)
    expect((await mcp(a, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, session)).status).toBe(404)
    stream.abort()
    await reading
  }, 60_000)
})
