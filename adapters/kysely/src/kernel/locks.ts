import type { LockRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import type { Database, Dialect } from '../schema.ts'

export function lockRepo(db: Kysely<Database>, dialect: Dialect): LockRepo {
  return {
    async acquire(...keys) {
      // SQLite runs one write transaction at a time already; Postgres needs a transaction-scoped
      // advisory lock (a hash collision only serialises two unrelated writers, never breaks one).
      // Several keys are one statement: its select list is evaluated left to right, in the order given.
      if (dialect === 'postgres' && keys.length > 0) {
        const locks = keys.map((key) => sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`)
        await sql`select ${sql.join(locks)}`.execute(db)
      }
    },
  }
}
