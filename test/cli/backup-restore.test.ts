/**
 * `workgraph backup` under writes and `workgraph restore` into a new server: every write the server
 * acknowledged before the backup started is in the restored database, the event log is gap-free,
 * and an access token issued before the backup still works (the signing keys travel with the data).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, createUser } from '@workgraph/core'
import { openStorage } from '@workgraph/kysely'
import { afterAll, expect, it } from 'vitest'
import {
  POSTGRES_DIRECT_URL,
  postgresAvailable,
  postgresDatabaseUrl,
  postgresDirectUrl,
} from '../support/databases.ts'
import { freePort, startServerBin, stopProcess } from '../support/processes.ts'
import { cliEnvironment, runCli } from './support.ts'

const dir = mkdtempSync(join(tmpdir(), 'workgraph-backup-'))
const live = join(dir, 'live.db')
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** The reference server's bin on `file`, resolved once its banner is out. */
async function startServerOn(file: string, port: number): Promise<ChildProcess> {
  const { child } = await startServerBin(dir, { PORT: String(port), DATABASE_URL: file, LOG_LEVEL: 'warn' })
  children.push(child)
  return child
}

const stop = stopProcess

interface Way {
  /** The database the first server runs on. */
  source: string
  /** Takes the backup while the server runs. */
  backup(): Promise<void>
  /** Checks what is refused while the first server still runs. */
  refusals?(base: string): Promise<void>
  /** Restores the backup after the first server stopped; returns the database to start the second on. */
  restore(): Promise<string>
}

/**
 * The scenario for either database: a server under writes from four clients, a backup taken in the
 * middle, the server stopped, the backup restored into a new database, a new server on it.
 */
async function backupUnderWrites(way: Way) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const first = await startServerOn(way.source, port)

  // A person and a token, minted beside the running server on the same database and issuer.
  const storage = await openStorage({ url: way.source })
  const engine = await createEngine({ storage, config: { baseUrl: base } })
  const ada = await createUser(storage, { email: 'ada@example.com', name: 'Ada' })
  const token = await engine.tokens.issueAccessToken({ userId: ada.id, scopes: ['work:read', 'work:write'] })
  await engine.close()
  await storage.close()

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  const org = (await call('POST', '/v1/orgs', { name: 'Backups' })).body
  const team = (await call('POST', `/v1/orgs/${org.id}/teams`, { name: 'Engineering', key: 'ENG' })).body

  // Four writers create tasks until told to stop; each acknowledgement is recorded with its time.
  const acked: { id: string; at: number }[] = []
  let writing = true
  const writer = async (w: number) => {
    for (let i = 0; writing; i++) {
      const res = await call('POST', `/v1/orgs/${org.id}/tasks`, { teamId: team.id, title: `w${w} #${i}` })
      // The problem document says what went wrong if a write is refused.
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      acked.push({ id: res.body.id, at: Date.now() })
    }
  }
  const writers = [0, 1, 2, 3].map(writer)
  while (acked.length < 40) await new Promise((r) => setTimeout(r, 20))

  // Every write acknowledged before the backup starts must be in it. Counted, not timed: two of them
  // can share the millisecond the backup starts in.
  const ackedBefore = acked.length
  await way.backup()
  const before = acked.slice(0, ackedBefore).map((a) => a.id)
  writing = false
  await Promise.all(writers)
  expect(before.length).toBeGreaterThanOrEqual(40)
  await way.refusals?.(base)

  await stop(first)
  const restored = await way.restore()

  // The new server, on the same address: the old token, every acknowledged task, a gap-free log.
  const second = await startServerOn(restored, port)
  expect((await call('GET', '/v1/me')).status).toBe(200)
  const ids = new Set<string>()
  let cursor: string | null = null
  do {
    const page: any = (
      await call('GET', `/v1/orgs/${org.id}/tasks?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
    ).body
    for (const task of page.data) ids.add(task.id)
    cursor = page.nextCursor
  } while (cursor)
  expect(before.filter((id) => !ids.has(id))).toEqual([])
  const seqs: number[] = []
  let streamCursor: string | undefined
  for (;;) {
    const page: any = (
      await call('GET', `/v1/orgs/${org.id}/stream?limit=200${streamCursor ? `&cursor=${streamCursor}` : ''}`)
    ).body
    if (page.data.length === 0) break
    seqs.push(...page.data.map((e: { seq: number }) => e.seq))
    streamCursor = page.nextCursor
  }
  expect(seqs).toEqual(seqs.map((_, i) => i + 1))
  expect(seqs.length).toBeGreaterThanOrEqual(ids.size + 2)
  await stop(second)
}

it('backs up a running SQLite server under writes and restores it into a new one with nothing acknowledged lost', async () => {
  const env = { ...cliEnvironment(), DATABASE_URL: live }
  const backupFile = join(dir, 'backup.db')
  const restored = join(dir, 'restored.db')
  await backupUnderWrites({
    source: live,
    async backup() {
      const backup = await runCli(['backup', backupFile], env)
      expect(backup.code, backup.stderr).toBe(0)
      expect(backup.stderr).toMatch(/Backed up .*live\.db to .*backup\.db \([\d,]+ KiB, schema \d{4}_\w+\)/)
    },
    async refusals(base) {
      // A backup never overwrites, and nothing restores over a database a server is using.
      const again = await runCli(['backup', backupFile], env)
      expect(again.code).toBe(1)
      expect(again.stderr).toContain('already exists: choose a new file name')
      const busy = await runCli(['restore', backupFile], env)
      expect(busy.code).toBe(1)
      expect(busy.stderr).toContain(`is in use by the server at ${base} (pid `)
    },
    async restore() {
      const restore = await runCli(['restore', backupFile, '--database-url', restored], env)
      expect(restore.code, restore.stderr).toBe(0)
      expect(restore.stderr).toContain('start the server on it')
      return restored
    },
  })
  expect(existsSync(`${restored}.server.json`)).toBe(false)
}, 120_000)

// docs/deployment.md's Postgres commands, as written there.
it.skipIf(!postgresAvailable())(
  'backs up a running Postgres server with pg_dump and restores it with pg_restore, nothing acknowledged lost',
  async () => {
    const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    // The server runs on DATABASE_URL (a pooler under `pnpm test:pgbouncer`); pg_dump and pg_restore
    // go to Postgres itself, as docs/deployment.md says: pg_dump empties `search_path` for its
    // session, which a pooler in transaction mode would hand to the server's next transaction.
    const source = postgresDatabaseUrl(`wg_backup_${suffix}`)
    const sourceDirect = postgresDirectUrl(`wg_backup_${suffix}`)
    const target = postgresDatabaseUrl(`wg_restored_${suffix}`)
    const targetDirect = postgresDirectUrl(`wg_restored_${suffix}`)
    const dump = join(dir, 'workgraph.dump')
    const run = (command: string, args: string[]) => {
      const result = spawnSync(command, args, { encoding: 'utf8' })
      expect(result.status, result.stderr).toBe(0)
    }
    run('createdb', ['--maintenance-db', POSTGRES_DIRECT_URL, `wg_backup_${suffix}`])
    try {
      await backupUnderWrites({
        source,
        async backup() {
          await new Promise<void>((resolve, reject) => {
            const child = spawn('pg_dump', ['--format=custom', `--file=${dump}`, sourceDirect], {
              stdio: 'inherit',
            })
            child.once('exit', (code) =>
              code === 0 ? resolve() : reject(new Error(`pg_dump exited ${code}`)),
            )
          })
        },
        async restore() {
          run('createdb', ['--maintenance-db', POSTGRES_DIRECT_URL, `wg_restored_${suffix}`])
          run('pg_restore', ['--no-owner', `--dbname=${targetDirect}`, dump])
          return target
        },
      })
    } finally {
      for (const name of [`wg_backup_${suffix}`, `wg_restored_${suffix}`])
        spawnSync('dropdb', ['--if-exists', '--force', '--maintenance-db', POSTGRES_DIRECT_URL, name])
    }
  },
  120_000,
)

it('refuses to restore a file that is not a workgraph database, or one from a newer version', async () => {
  const env = { ...cliEnvironment(), DATABASE_URL: join(dir, 'target.db') }
  const { writeFileSync } = await import('node:fs')
  const junk = join(dir, 'junk.db')
  writeFileSync(junk, 'not a database at all, just text that is long enough to not be empty')
  const notSqlite = await runCli(['restore', junk], env)
  expect(notSqlite.code).toBe(1)
  expect(notSqlite.stderr).toMatch(/junk\.db: is not a SQLite database|junk\.db: fails SQLite/)

  const future = join(dir, 'future.db')
  const storage = await openStorage({ url: future })
  await storage.db
    .insertInto('kysely_migration' as never)
    .values({ name: '9999_from_the_future', timestamp: '2027-01-01T00:00:00.000Z' } as never)
    .execute()
  await storage.close()
  const newer = await runCli(['restore', future], env)
  expect(newer.code).toBe(1)
  expect(newer.stderr).toContain(
    'The database was migrated by a newer workgraph (9999_from_the_future unknown to this version)',
  )
  expect(existsSync(join(dir, 'target.db'))).toBe(false)
}, 60_000)
