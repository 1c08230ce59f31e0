import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { type Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createEngine, createUser, type Engine } from '@workgraph/core'
import { type KyselyStorage, openStorage } from '@workgraph/kysely'
import { afterEach, expect, it } from 'vitest'
import type { TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { freePort, programArgs } from '../support/processes.ts'

interface Child {
  process: ChildProcess
  url: string
  output: () => string
  exited: Promise<number | null>
}

/** The reference server's bin as a child process on loopback, resolved once it prints its API URL. */
async function startBin(
  target: { url: string; schema?: string },
  env: Record<string, string>,
): Promise<Child> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, programArgs('server'), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATABASE_URL: target.url,
      ...(target.schema ? { DATABASE_SCHEMA: target.schema } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (c) => {
    output += c
  })
  child.stderr!.on('data', (c) => {
    output += c
  })
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  await new Promise<void>((resolve, reject) => {
    const ready = () => output.includes('API ') && resolve()
    child.stdout!.on('data', ready)
    exited.then(() => reject(new Error(`the server exited before it was ready:\n${output}`)))
  })
  return { process: child, url, output: () => output, exited }
}

/** Collects a response's text; `until` resolves once `predicate` holds (without ending the response). */
function collect(response: IncomingMessage) {
  let text = ''
  const waiters: [(t: string) => boolean, (t: string) => void][] = []
  const check = () => {
    for (const w of [...waiters]) if (w[0](text)) waiters.splice(waiters.indexOf(w), 1) && w[1](text)
  }
  response.on('data', (chunk) => {
    text += chunk
    check()
  })
  const ended = new Promise<string>((resolve) => response.on('close', () => resolve(text)))
  return {
    until: (predicate: (t: string) => boolean) =>
      new Promise<string>((resolve) => {
        waiters.push([predicate, resolve])
        check()
      }),
    ended,
  }
}

function get(url: string, headers: Record<string, string>, agent?: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, ...(agent ? { agent } : {}) }, resolve)
    req.on('error', reject)
    req.end()
  })
}

describeEachDatabase('graceful shutdown of the reference server', (db: TestDatabase) => {
  let cleanup: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const fn of cleanup.reverse()) await fn()
    cleanup = []
  })

  /** The same database the child serves, opened here to mint a token and to check what was written. */
  async function world(env: Record<string, string> = {}) {
    const target = await db.fresh()
    const child = await startBin(target, env)
    cleanup.push(async () => {
      child.process.kill('SIGKILL')
      await child.exited
      await target.drop()
    })
    const storage: KyselyStorage = await openStorage({
      url: target.url,
      ...(target.schema ? { schema: target.schema } : {}),
    })
    cleanup.push(() => storage.close())
    const engine: Engine = await createEngine({ storage, config: { baseUrl: child.url } })
    const user = await createUser(storage, { email: 'drain@example.com', name: 'Drain' })
    const token = await engine.tokens.issueAccessToken({
      userId: user.id,
      scopes: ['work:read', 'work:write'],
    })
    const auth = { authorization: `Bearer ${token}` }
    const org = await fetch(`${child.url}/v1/orgs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Drain' }),
    })
    expect(org.status).toBe(201)
    const orgId = ((await org.json()) as { id: string }).id
    return { child, storage, auth, orgId }
  }

  it('on SIGTERM ends SSE streams with a shutdown frame, refuses new connections, finishes the request in flight and exits 0', async () => {
    const { child, storage, auth, orgId } = await world()
    const sse = await get(`${child.url}/v1/stream/sse?orgId=${orgId}`, {
      ...auth,
      accept: 'text/event-stream',
    })
    expect(sse.statusCode).toBe(200)
    const stream = collect(sse)
    await stream.until((t) => t.includes('workgraph stream'))

    // A write in flight: its headers are in (the server answered 100 Continue), its body is not.
    const body = JSON.stringify({ name: 'Written during the drain', key: 'DRN' })
    const write = httpRequest(`${child.url}/v1/orgs/${orgId}/teams`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        expect: '100-continue',
      },
    })
    const answered = once(write, 'response') as Promise<[IncomingMessage]>
    write.flushHeaders()
    await once(write, 'continue')

    child.process.kill('SIGTERM')
    const frames = await stream.ended
    expect(frames).toMatch(/event: stream-end\ndata: \{"reason":"shutdown"/)

    // The listener is closed: a new connection is refused while the drain goes on.
    await expect(fetch(`${child.url}/v1/config`)).rejects.toThrow()

    write.end(body)
    const [response] = await answered
    expect(response.statusCode).toBe(201)
    expect(response.headers.connection).toBe('close')
    const team = JSON.parse(await collect(response).ended) as { id: string; key: string }
    expect(team.key).toBe('DRN')

    expect(await child.exited).toBe(0)
    expect(child.output()).toContain('SIGTERM: draining')
    const stored = await storage.read((s) => s.teams.get(orgId as never, team.id as never))
    expect(stored?.name).toBe('Written during the drain')
  })

  it('cuts what is still open after SHUTDOWN_TIMEOUT_SECONDS and exits 1', async () => {
    const { child, auth, orgId } = await world({ SHUTDOWN_TIMEOUT_SECONDS: '1' })
    // An upload that never finishes holds its connection until the deadline.
    const stuck = httpRequest(`${child.url}/v1/orgs/${orgId}/teams`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        'content-length': '1000',
        expect: '100-continue',
      },
    })
    const cut = new Promise<void>((resolve) =>
      stuck.on('error', () => resolve()).on('close', () => resolve()),
    )
    stuck.flushHeaders()
    await once(stuck, 'continue')
    stuck.write('{"name":')

    child.process.kill('SIGTERM')
    expect(await child.exited).toBe(1)
    await cut
    expect(child.output()).toContain('cutting connections still open at the deadline')
  })
})
