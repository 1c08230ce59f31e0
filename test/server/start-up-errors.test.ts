import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  connect,
  explainDatabaseError,
  MigrationFailedError,
  migrateToLatest,
  NewerSchemaError,
} from '@workgraph/kysely'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { postgresAvailable, postgresDirectUrl } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { freePort, programArgs, startServerBin, stopProcess } from '../support/processes.ts'

const dirs: string[] = []
const children: ReturnType<typeof spawn>[] = []
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-start-'))
  dirs.push(dir)
  return dir
}

/** Runs the bundled server with `env` until it exits; what an operator would see. */
async function startFails(env: Record<string, string>, cwd = scratch()) {
  const { BASE_URL: _vite, DATABASE_URL: _db, ...inherited } = process.env
  const child = spawn(process.execPath, programArgs('server'), {
    cwd,
    env: { ...inherited, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => {
    stderr += chunk
  })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { code, stderr: stderr.trim(), cwd }
}

/** One line, naming the cause and the fix, with no stack frame. */
function expectOneLine(stderr: string) {
  expect(stderr.split('\n')).toHaveLength(1)
  expect(stderr).not.toMatch(/\n\s+at |node_modules/)
}

describe('a DATABASE_URL that names no database it can open', () => {
  it('refuses another scheme, with the password masked, exit code 2, and creates nothing', async () => {
    const { code, stderr, cwd } = await startFails({ DATABASE_URL: 'mysql://root:hunter2@127.0.0.1/wg' })
    expect(code).toBe(2)
    expectOneLine(stderr)
    expect(stderr).toContain('DATABASE_URL=mysql://root:****@127.0.0.1/wg')
    expect(stderr).toContain('mysql: databases are not supported')
    expect(stderr).toContain('postgres://')
    expect(stderr).not.toContain('hunter2')
    expect(existsSync(join(cwd, 'mysql:'))).toBe(false)
  }, 30_000)

  it('refuses a URL missing its colon rather than taking it for a file name', async () => {
    const { code, stderr, cwd } = await startFails({ DATABASE_URL: 'postgres//127.0.0.1/wg' })
    expect(code).toBe(2)
    expectOneLine(stderr)
    expect(stderr).toContain("missing the ':' after postgres")
    expect(existsSync(join(cwd, 'postgres'))).toBe(false)
  }, 30_000)

  it('refuses a file under a directory that does not exist, and does not create it', async () => {
    const dir = scratch()
    const { code, stderr } = await startFails({ DATABASE_URL: join(dir, 'missing/deeper/wg.db') })
    expect(code).toBe(2)
    expectOneLine(stderr)
    expect(stderr).toContain(`the directory ${join(dir, 'missing/deeper')} does not exist`)
    expect(stderr).toContain('mkdir -p')
    expect(existsSync(join(dir, 'missing'))).toBe(false)
  }, 30_000)

  it('names every wrong setting on its own line, secrets masked, with a good value', async () => {
    const { code, stderr } = await startFails({
      PORT: '70000',
      LOG_LEVEL: 'loud',
      SMTP_URL: 'ftp://mail:topsecret@example.com',
      MAIL_FROM: 'a@example.com',
    })
    expect(code).toBe(2)
    expect(stderr).toContain(
      'Invalid setting PORT=70000: must be a whole number from 0 to 65535; for example PORT=3000',
    )
    expect(stderr).toContain('Invalid setting LOG_LEVEL=loud')
    expect(stderr).toContain('SMTP_URL=ftp://mail:****@example.com')
    expect(stderr).not.toContain('topsecret')
  }, 30_000)
})

describe('a second server on the same SQLite file', () => {
  it('is refused, naming the first one’s pid and address; the file is free again once it stops', async () => {
    const cwd = scratch()
    const port = await freePort()
    const { child: first, banner } = await startServerBin(cwd, { PORT: String(port) })
    children.push(first)
    // The banner gives the CLI command for this very address.
    expect(banner).toContain(`workgraph login --server http://127.0.0.1:${port}`)
    const record = JSON.parse(readFileSync(join(cwd, '.workgraph/workgraph.db.server.json'), 'utf8'))
    expect(record).toMatchObject({ pid: first.pid, url: `http://127.0.0.1:${port}` })

    const second = await startFails({}, cwd)
    expect(second.code).toBe(1)
    expectOneLine(second.stderr)
    expect(second.stderr).toContain(`Another workgraph server (pid ${first.pid}, http://127.0.0.1:${port})`)
    expect(second.stderr).toContain('./.workgraph/workgraph.db')

    await stopProcess(first)
    expect(existsSync(join(cwd, '.workgraph/workgraph.db.server.json'))).toBe(false)
  }, 60_000)

  it('takes over the record of a server that died without removing it', async () => {
    const cwd = scratch()
    mkdirSync(join(cwd, '.workgraph'))
    // A pid that is not running: the largest a Linux pid can be, plus one.
    writeFileSync(
      join(cwd, '.workgraph/workgraph.db.server.json'),
      JSON.stringify({ pid: 4_194_305, url: 'http://127.0.0.1:1', startedAt: '2026-01-01T00:00:00Z' }),
    )
    const { child } = await startServerBin(cwd, { PORT: '0' })
    children.push(child)
    await stopProcess(child)
  }, 60_000)
})

describe.skipIf(!postgresAvailable())('Postgres that cannot be used', () => {
  it('a database that does not exist: the createdb to run', async () => {
    // Postgres itself: a pooler in front may keep retrying the login instead of relaying the refusal.
    const url = postgresDirectUrl(`wg_missing_${process.pid}`)
    const { code, stderr } = await startFails({ DATABASE_URL: url })
    expect(code).toBe(1)
    expectOneLine(stderr)
    expect(stderr).toContain(`has no database "wg_missing_${process.pid}"`)
    const port = new URL(url).port || '5432'
    expect(stderr).toMatch(new RegExp(`createdb -h 127\\.0\\.0\\.1 -p ${port} -U postgres wg_missing_\\d+`))
  }, 30_000)

  it('a server that is not listening: is it running, and which address was tried', async () => {
    const port = await freePort()
    const { code, stderr } = await startFails({ DATABASE_URL: `postgres://postgres:pw@127.0.0.1:${port}/wg` })
    expect(code).toBe(1)
    expectOneLine(stderr)
    expect(stderr).toContain(
      `Postgres at 127.0.0.1:${port} refused the connection: is Postgres running there?`,
    )
    expect(stderr).toContain(`postgres://postgres:****@127.0.0.1:${port}/wg`)
  }, 30_000)
})

describe('what the driver says, turned into what to do', () => {
  const pg = 'postgres://ada:secret@db.internal:6543/work'
  it.each([
    [{ code: '28P01' }, pg, 'refused the password of user "ada"'],
    [{ code: '28000', message: 'no pg_hba.conf entry' }, pg, 'create the role, or allow it in pg_hba.conf'],
    [
      { code: '42501', message: 'permission denied for schema public' },
      pg,
      'Grant it CREATE on database "work"',
    ],
    [{ code: 'ENOTFOUND' }, pg, 'The host "db.internal" in DATABASE_URL does not resolve'],
    [{ code: '53100', message: 'could not extend file' }, pg, 'out of disk space'],
    [{ code: 'SQLITE_FULL' }, './data/wg.db', 'The disk holding ./data/wg.db is full'],
    [{ code: 'SQLITE_BUSY' }, './data/wg.db', 'locked by another process'],
    [
      { code: 'SQLITE_NOTADB', message: 'file is not a database' },
      './data/wg.db',
      'not a usable SQLite database',
    ],
    [{ code: 'SQLITE_READONLY' }, './data/wg.db', 'read-only for this user'],
  ])('%j on %s', (error, url, expected) => {
    const line = explainDatabaseError(error, url)
    expect(line).toContain(expected)
    expect(line).not.toContain('secret')
  })

  it('leaves an error it cannot explain to the caller', () => {
    expect(explainDatabaseError(new Error('something else'), './wg.db')).toBeUndefined()
  })
})

describeEachDatabase('a migration that fails', (db) => {
  it('names the migration and leaves the schema exactly as it was', async () => {
    const target = await db.empty()
    const { db: kysely, dialect } = await connect({ url: target.url })
    try {
      // A table the first migration creates, already there: that migration fails.
      await sql`create table users (id text primary key)`.execute(kysely)
      const error = await migrateToLatest(kysely, dialect).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(MigrationFailedError)
      expect((error as MigrationFailedError).migration).toBe('0001_initial')
      expect(explainDatabaseError(error, target.url)).toMatch(
        /^Migration 0001_initial failed \(.+\); it and every migration of the same run were rolled back/,
      )
      const tables = await kysely.introspection.getTables({ withInternalKyselyTables: false })
      expect(tables.map((t) => t.name)).toEqual(['users'])
    } finally {
      await kysely.destroy()
      await target.drop()
    }
  })

  it('refuses a database migrated by a newer version, naming what it does not know', async () => {
    const target = await db.fresh()
    const { db: kysely, dialect } = await connect({
      url: target.url,
      ...(target.schema ? { schema: target.schema } : {}),
    })
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2027-01-01T00:00:00.000Z')`.execute(
        kysely,
      )
      const error = await migrateToLatest(
        kysely,
        dialect,
        target.schema ? { schema: target.schema } : {},
      ).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(NewerSchemaError)
      expect(explainDatabaseError(error, target.url)).toContain(
        'The database was migrated by a newer workgraph (9999_from_the_future unknown to this version)',
      )
    } finally {
      await kysely.destroy()
      await target.drop()
    }
  })
})
