import type { ProtocolSession, ProtocolSessionRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function protocolSessionRepo(db: Kysely<Database>): ProtocolSessionRepo {
  return {
    async get(id) {
      const row = await db.selectFrom('protocolSessions').selectAll().where('id', '=', id).executeTakeFirst()
      if (!row) return null
      return {
        id: row.id,
        userId: row.userId,
        protocol: row.protocol as ProtocolSession['protocol'],
        state: json(row.state),
        createdAt: iso(row.createdAt),
        seenAt: iso(row.seenAt),
      }
    },
    async insert(session) {
      await db
        .insertInto('protocolSessions')
        .values({ ...session, state: JSON.stringify(session.state) })
        .execute()
    },
    async update(id, state) {
      const result = await db
        .updateTable('protocolSessions')
        .set({ state: JSON.stringify(state) })
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async touch(id, seenAt) {
      await db.updateTable('protocolSessions').set({ seenAt }).where('id', '=', id).execute()
    },
    async delete(id) {
      const result = await db.deleteFrom('protocolSessions').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async prune(seenBefore) {
      const result = await db
        .deleteFrom('protocolSessions')
        .where('seenAt', '<', seenBefore)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
