import type { IdempotencyRepo, SecretRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { rowsOnce } from '../driver/fast-path.ts'
import { takingHeld } from '../driver/held-writes.ts'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function secretRepo(db: Kysely<Database>): SecretRepo {
  return {
    async list(prefix) {
      const rows = await db
        .selectFrom('secrets')
        .selectAll()
        .where(sql<string>`substr(name, 1, ${prefix.length})`, '=', prefix)
        .execute()
      return rows.map((r) => ({ ...r, createdAt: iso(r.createdAt) }))
    },
    async insert(secret) {
      const result = await db
        .insertInto('secrets')
        .values(secret)
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
    },
  }
}

export function idempotencyRepo(db: Kysely<Database>): IdempotencyRepo {
  return {
    async get(principalKey, key, notBefore) {
      const row = await db
        .selectFrom('idempotencyKeys')
        .selectAll()
        .where('principalKey', '=', principalKey)
        .where('key', '=', key)
        .where('createdAt', '>=', notBefore)
        .executeTakeFirst()
      return row ? { ...row, body: json(row.body), createdAt: iso(row.createdAt) } : null
    },
    async put(record) {
      // Every POST with an Idempotency-Key writes one: compiled once per shape (`rowsOnce`).
      // It comes right after a create's held writes (held-writes.ts), which it takes along on Postgres:
      // the row count it answers is its own insert's.
      const result = await db.executeQuery(
        takingHeld(
          rowsOnce(db, 'idempotencyKeys.insert', [{ ...record, body: JSON.stringify(record.body) }], ([r]) =>
            db
              .insertInto('idempotencyKeys')
              .values(r as never)
              .onConflict((oc) => oc.columns(['principalKey', 'key']).doNothing()),
          ),
        ),
      )
      if (Number(result.numAffectedRows ?? 0n) > 0) return true
      // An expired record under the same key gives way to the new request.
      const replaced = await db
        .updateTable('idempotencyKeys')
        .set({ ...record, body: JSON.stringify(record.body) })
        .where('principalKey', '=', record.principalKey)
        .where('key', '=', record.key)
        .where('createdAt', '<', new Date(Date.parse(record.createdAt) - 24 * 3600 * 1000).toISOString())
        .executeTakeFirst()
      return Number(replaced.numUpdatedRows) > 0
    },
    async prune(before) {
      const result = await db.deleteFrom('idempotencyKeys').where('createdAt', '<', before).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
