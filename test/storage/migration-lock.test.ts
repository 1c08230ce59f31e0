import { connect, migrateToLatest } from '@workgraph/kysely'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { DATABASES, skipReason } from '../support/databases.ts'

const postgres = DATABASES.find((d) => d.name === 'postgres')!
const reason = skipReason(postgres)
/** Kysely's key for its session migration lock, which earlier releases take. */
const KYSELY_LOCK = '3853314791062309107'

describe.skipIf(Boolean(reason))(
  `the migration lock [postgres]${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    it('lets one of several instances starting together migrate, after an earlier release holding the lock', async () => {
      const target = await postgres.empty()
      // A session lock needs a session: Postgres itself, not a pooler in transaction mode.
      const earlier = new pg.Client({ connectionString: target.directUrl ?? target.url })
      await earlier.connect()
      const instances = await Promise.all([1, 2, 3].map(() => connect({ url: target.url })))
      try {
        // An instance of an earlier release is migrating: it holds Kysely's session lock.
        await earlier.query(`select pg_advisory_lock(${KYSELY_LOCK})`)
        const runs = instances.map((c) => migrateToLatest(c.db, c.dialect, { pool: c.pool! }))
        // All three wait on the same key, each from inside its migration transaction.
        const waiting = async () =>
          (
            await earlier.query(
              `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
             and database = (select oid from pg_database where datname = current_database())`,
            )
          ).rows[0].n
        while ((await waiting()) < 3) await new Promise((resolve) => setTimeout(resolve, 20))
        expect((await earlier.query('select count(*)::int as n from kysely_migration')).rows[0].n).toBe(0)
        await earlier.query(`select pg_advisory_unlock(${KYSELY_LOCK})`)
        const applied = (await Promise.all(runs)).map((r) => (r.results ?? []).length)
        // One applied every migration; the others found nothing left to do.
        expect(applied.filter((n) => n > 0)).toHaveLength(1)
        expect(applied.filter((n) => n === 0)).toHaveLength(2)
        const held = await earlier.query(
          `select count(*)::int as n from pg_locks where locktype = 'advisory'
         and database = (select oid from pg_database where datname = current_database())`,
        )
        expect(held.rows[0].n).toBe(0)
      } finally {
        await earlier.end()
        for (const c of instances) await c.db.destroy()
        await target.drop()
      }
    }, 60_000)
  },
)
