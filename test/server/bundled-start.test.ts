import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isApiOperation, OPERATIONS } from '@workgraph/core'
import { afterAll, afterEach, expect, it } from 'vitest'
import type { DatabaseTarget } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { freePort } from '../support/processes.ts'

const root = join(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'workgraph-bundle-'))
let child: ChildProcess | undefined

let target: DatabaseTarget | undefined

afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  await target?.drop()
  target = undefined
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// `pnpm start` (README) and the container image (docs/deployment.md) run the esbuild bundle, not the
// sources the other tests import: build it if stale, start it on a database with no tables (a new
// SQLite file; on Postgres the driver, which the bundle leaves in node_modules, loads), and use it.
describeEachDatabase('the bundled server', (db) => {
  it('pnpm start builds the bundled server, which migrates a new database and serves the whole API', async () => {
    target = db.name === 'sqlite' ? undefined : await db.empty()
    const databaseUrl = target?.url ?? join(dir, 'db.sqlite')
    const port = await freePort()
    // Vite puts its own BASE_URL (`/`) into the environment; the server reads BASE_URL as its origin.
    const { BASE_URL: _vite, ...env } = process.env
    child = spawn(process.execPath, [join(root, 'scripts/start.cjs')], {
      cwd: root,
      env: {
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        ...(target?.directUrl ? { DATABASE_DIRECT_URL: target.directUrl } : {}),
        ...(target?.schema ? { DATABASE_SCHEMA: target.schema } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    let exited: number | null = null
    child.once('exit', (code) => {
      exited = code
    })
    const base = `http://127.0.0.1:${port}`
    let ready: Response | undefined
    for (let i = 0; i < 240 && !ready?.ok && exited === null; i++) {
      ready = await fetch(`${base}/readyz`).catch(() => undefined)
      if (!ready?.ok) await new Promise((r) => setTimeout(r, 500))
    }
    expect(exited).toBeNull()
    expect(await ready?.json()).toEqual({
      status: 'ready',
      database: db.name,
      // The notification mail outbox (docs/mail.md): empty on a new database.
      mail: { pending: 0, retrying: 0, failed: 0, lastError: null },
    })
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    const served = new Set(
      Object.values(document.paths).flatMap((item) => Object.values(item).map((o) => o.operationId)),
    )
    expect(
      OPERATIONS.filter(isApiOperation)
        .filter((op) => !served.has(op.id))
        .map((op) => op.id),
    ).toEqual([])
    const tasks = await fetch(`${base}/v1/orgs/org_00000000000000000000000000/tasks`)
    expect(tasks.status).toBe(401)
  }, 150_000)
})
