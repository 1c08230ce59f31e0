import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from '@workgraph/kysely'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'

/**
 * SQLite only (Postgres has no WAL file of ours to checkpoint): a busy SQLite file has its WAL
 * copied into the database by a worker thread shortly after commits, not inside a commit.
 */
describe('SQLite WAL checkpoints off the event loop', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('copies committed pages into the database file soon after the commits, and closes cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workgraph-wal-'))
    dirs.push(dir)
    const path = join(dir, 'wal.sqlite')
    const first = await connect({ url: path })
    await sql`create table notes (id integer primary key, body text not null)`.execute(first.db)
    const emptySize = statSync(path).size
    // Well under SQLite's own threshold of 1,000 WAL frames: only the worker checkpoints these.
    for (let i = 0; i < 150; i++)
      await first.db
        .transaction()
        .execute((trx) => sql`insert into notes (body) values (${`note ${i}`})`.execute(trx))
    await expect.poll(() => statSync(path).size, { timeout: 5_000 }).toBeGreaterThan(emptySize)
    await first.db.destroy()

    const second = await connect({ url: path })
    const { rows } = await sql<{ n: number }>`select count(*) as n from notes`.execute(second.db)
    expect(rows[0]!.n).toBe(150)
    await second.db.destroy()
  })
})
