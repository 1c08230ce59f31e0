import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, createUser } from '@workgraph/core'
import { openStorage } from '@workgraph/kysely'
import { afterEach, expect, it } from 'vitest'
import { freePort, startServerBin, stopProcess } from '../support/processes.ts'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

/** The bin on a fresh SQLite file with a 30 s drain deadline, and a token for its owner of a workspace. */
async function serve() {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-stop-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const { child } = await startServerBin(dir, {
    PORT: String(port),
    BASE_URL: url,
    DATABASE_URL: join(dir, 'w.db'),
    SHUTDOWN_TIMEOUT_SECONDS: '30',
  })
  let output = ''
  child.stdout!.on('data', (chunk) => {
    output += chunk
  })
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  cleanup.push(async () => {
    child.kill('SIGKILL')
    await exited
  })
  const storage = await openStorage({ url: join(dir, 'w.db') })
  cleanup.push(() => storage.close())
  const engine = await createEngine({ storage, config: { baseUrl: url } })
  const user = await createUser(storage, { email: 'stop@example.com', name: 'Stop' })
  const token = await engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read', 'work:write'] })
  return { child, url, token, exited, output: () => output }
}

it('an idle server stops at once on SIGTERM, though browsers left connections open, and draining waits for a write in flight', async () => {
  const { child, url, token, exited, output } = await serve()
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const org = await fetch(`${url}/v1/orgs`, { method: 'POST', headers: auth, body: '{"name":"Stop"}' })
  const orgId = ((await org.json()) as { id: string }).id

  // What a browser leaves: a connection opened ahead and never used, and one kept alive after a request.
  const unused = connect(port(url), '127.0.0.1')
  await once(unused, 'connect')
  const kept = connect(port(url), '127.0.0.1')
  await once(kept, 'connect')
  kept.write(`GET /v1/config HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
  await once(kept, 'data')

  // A write in flight: its headers are in (the server answered 100 Continue), its body is not.
  const body = JSON.stringify({ name: 'Written while stopping', key: 'STP' })
  const write = httpRequest(`${url}/v1/orgs/${orgId}/teams`, {
    method: 'POST',
    headers: { ...auth, 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
  })
  const answered = once(write, 'response') as Promise<[IncomingMessage]>
  write.flushHeaders()
  await once(write, 'continue')

  const stopped = stopProcess(child)
  // The open connections that carry no request are let go; the write still gets its answer.
  await Promise.all([once(unused, 'close'), once(kept, 'close')])
  write.end(body)
  const [response] = await answered
  expect(response.statusCode).toBe(201)
  await stopped
  // Exit 0 and "stopped": drained before the 30 s deadline, nothing cut.
  expect(await exited).toBe(0)
  expect(output()).toContain('stopped')
  expect(output()).not.toContain('cutting')
})

const port = (url: string) => Number(new URL(url).port)
