import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createEngine, createUser } from '@workgraph/core'
import { openStorage } from '@workgraph/kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  POSTGRES_DIRECT_URL,
  postgresAvailable,
  postgresDatabaseUrl,
  postgresDirectUrl,
} from '../support/databases.ts'
import { freePort, programArgs } from '../support/processes.ts'
import { openSse } from '../support/sse.ts'

const BASE_URL = 'http://workgraph.test'

/** The reference server as a separate process, as deployed: its bin, bundled as `pnpm start` bundles it. */
async function spawnServer(
  databaseUrl: string,
  directUrl: string,
): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, programArgs('server'), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      // LISTEN on Postgres itself when TEST_DATABASE_URL is a pooler (docs/scale-out.md).
      DATABASE_DIRECT_URL: directUrl,
      BASE_URL,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk
      if (output.includes('API')) resolve()
    })
    child.stderr!.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)))
  })
  return { url: `http://127.0.0.1:${port}`, process: child }
}

describe.skipIf(!postgresAvailable())('two server processes on one Postgres database', () => {
  const database = `wg_multi_${randomBytes(4).toString('hex')}`
  const url = postgresDatabaseUrl(database)
  const servers: ChildProcess[] = []
  let a = ''
  let b = ''
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_DIRECT_URL })
    await admin.connect()
    await admin.query(`create database ${database}`)
    await admin.end()
    // One migrates first, so the two processes do not race on a fresh schema at start.
    const first = await spawnServer(url, postgresDirectUrl(database))
    const second = await spawnServer(url, postgresDirectUrl(database))
    servers.push(first.process, second.process)
    a = first.url
    b = second.url
  }, 120_000)
  afterAll(async () => {
    for (const child of servers) {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    const admin = new pg.Client({ connectionString: POSTGRES_DIRECT_URL })
    await admin.connect()
    await admin.query(`drop database if exists ${database} with (force)`)
    await admin.end()
  })

  it('delivers to an SSE client on A, promptly, the events of writes made through B', async () => {
    // Accounts and tokens come from an engine on the same database: the instances share keys there.
    const storage = await openStorage({ url })
    const engine = await createEngine({ storage, config: { baseUrl: BASE_URL } })
    const user = await createUser(storage, { email: `multi.${Date.now()}@example.com`, name: 'Multi' })
    const token = await engine.tokens.issueAccessToken({
      userId: user.id,
      scopes: ['work:read', 'work:write'],
    })
    await storage.close()

    const call = async (origin: string, path: string, body: unknown) => {
      const res = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(res.status).toBe(201)
      return (await res.json()) as any
    }
    const org = await call(b, '/v1/orgs', { name: 'Multi' })
    const team = await call(b, `/v1/orgs/${org.id}/teams`, { name: 'Eng', key: 'ENG' })
    const live = await openSse(`${a}/v1/stream/sse?from=now&kinds=task.created`, { token })
    for (let i = 0; i < 5; i++) {
      await call(b, `/v1/orgs/${org.id}/tasks`, { teamId: team.id, title: `from B ${i}` })
      // Within a second: the fallback re-read (2 s) cannot be what delivered it.
      await live.until(() => live.events().length === i + 1, 1_000)
    }
    live.close()
    expect(live.events().map((e) => e.data.task.title)).toEqual([0, 1, 2, 3, 4].map((i) => `from B ${i}`))
  })
})
