import type { LockRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import type { Database, Dialect } from '../schema.ts'

export function lockRepo(db: Kysely<Database>, dialect: Dialect): LockRepo {
  return {
    async acquire(key) {
      // SQLite runs one write transaction at a time already; Postgres needs a transaction-scoped
      // advisory lock (a hash collision only serialises two unrelated writers, never breaks one).
      if (dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db)
    },
  }
}
