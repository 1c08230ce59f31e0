import { once } from 'node:events'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, createUser } from '@workgraph/core'
import { openStorage } from '@workgraph/kysely'
import { afterEach, expect, it } from 'vitest'
import { freePort, startServerBin, stopProcess } from '../support/processes.ts'
import { cliEnvironment, startCli, waitForOutput } from './support.ts'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

/** What a process prints to stdout, from its start; `until` resolves once `predicate` holds for it. */
function collectStdout(child: ReturnType<typeof startCli>) {
  let seen = ''
  const waiters: (() => void)[] = []
  child.stdout!.on('data', (chunk) => {
    seen += chunk
    for (const check of [...waiters]) check()
  })
  return {
    until: (predicate: (text: string) => boolean) =>
      new Promise<string>((resolve) => {
        const check = () => {
          if (!predicate(seen)) return
          waiters.splice(waiters.indexOf(check), 1)
          resolve(seen)
        }
        waiters.push(check)
        check()
      }),
  }
}

it('prints every event written while streaming exactly once, across a server restart', {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-stream-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env = { PORT: String(port), BASE_URL: url, DATABASE_URL: join(dir, 'w.db') }
  let server = (await startServerBin(dir, env)).child
  cleanup.push(() => stopProcess(server))

  // A signed-in CLI: the kept access token of `workgraph login` (its refresh is never needed here).
  const storage = await openStorage({ url: join(dir, 'w.db') })
  cleanup.push(() => storage.close())
  const engine = await createEngine({ storage, config: { baseUrl: url } })
  const user = await createUser(storage, { email: 'tail@example.com', name: 'Tail' })
  const token = await engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read', 'work:write'] })
  const cli = cliEnvironment()
  const folder = join(cli.XDG_CONFIG_HOME!, 'workgraph', 'credentials')
  mkdirSync(folder, { recursive: true })
  const name = `http_127.0.0.1_${port}`
  writeFileSync(
    join(folder, `${name}.json`),
    JSON.stringify({
      server: url,
      issuer: url,
      resource: `${url}/v1`,
      clientId: 'c',
      refreshToken: 'r',
      scope: '',
    }),
  )
  writeFileSync(
    join(folder, `${name}.access.json`),
    JSON.stringify({
      accessToken: token,
      issuer: url,
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    }),
  )

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(201)
    return ((await response.json()) as { id: string }).id
  }
  const orgId = await post('/orgs', { name: 'Tail' })
  const teamId = await post(`/orgs/${orgId}/teams`, { name: 'Tail', key: 'TL' })
  const task = (title: string) => post(`/orgs/${orgId}/tasks`, { teamId, title })

  const tail = startCli(['stream', '--server', url, '--kinds', 'task.created'], cli)
  cleanup.push(async () => {
    tail.kill('SIGTERM')
    await once(tail, 'close').catch(() => {})
  })
  const out = collectStdout(tail)
  await waitForOutput(tail, /Streaming events from/)
  const ids = [await task('One'), await task('Two')]
  await out.until((text) => ids.every((id) => text.includes(id)))

  // The server stops (the stream ends with `shutdown`), starts again, and is written to before the
  // CLI is back: it resumes from the last event it printed.
  await stopProcess(server)
  server = (await startServerBin(dir, env)).child
  ids.push(await task('Three'))
  ids.push(await task('Four'))
  const printed = await out.until((text) => ids.every((id) => text.includes(id)))
  // A last event after the others, so a duplicate of any of them would already have been printed.
  ids.push(await task('Five'))
  const all = await out.until((text) => text.includes(ids.at(-1)!))
  const lines = all.trim().split('\n')
  expect(lines).toHaveLength(5)
  for (const [i, id] of ids.entries()) expect(lines[i]).toMatch(new RegExp(`task\\.created\\s+task ${id}$`))
  expect(printed).toContain('task.created')
})
