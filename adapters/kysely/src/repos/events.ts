import type { EventId, EventRepo, MemberId, OrgId, StoredEvent, TeamId } from '@workgraph/core'
import { type Kysely, sql } from 'kysely'
import { int, iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

export function eventRepo(db: Kysely<Database>): EventRepo {
  return {
    async append(orgId, events) {
      if (events.length === 0) return []
      // The counter row is locked until commit, so concurrent writers of one org take sequences in
      // commit order and a reader never sees seq n+1 before seq n.
      const row = await db
        .updateTable('orgEventCounters')
        .set({ lastSeq: sql<number>`last_seq + ${events.length}` })
        .where('orgId', '=', orgId)
        .returning('lastSeq')
        .executeTakeFirstOrThrow()
      const first = int(row.lastSeq) - events.length + 1
      const stored: StoredEvent[] = events.map((e, i) => ({
        ...e,
        teamId: e.teamId ?? null,
        orgId,
        seq: first + i,
      }))
      await db
        .insertInto('events')
        .values(stored.map((e) => ({ ...e, data: JSON.stringify(e.data) })))
        .execute()
      return stored
    },
    async lastSeq(orgId) {
      const row = await db
        .selectFrom('orgEventCounters')
        .select('lastSeq')
        .where('orgId', '=', orgId)
        .executeTakeFirst()
      return row ? int(row.lastSeq) : 0
    },
    async list(orgId, afterSeq, limit, scope) {
      let query = db.selectFrom('events').selectAll().where('orgId', '=', orgId).where('seq', '>', afterSeq)
      if (scope && !scope.orgWide) {
        query = query.where((eb) =>
          eb.or([inVisibleTeams(eb, 'teamId', scope), eb('resourceId', '=', scope.actorId)]),
        )
      }
      const rows = await query.orderBy('seq').limit(limit).execute()
      return rows.map((r) => ({
        id: r.id as EventId,
        orgId: r.orgId as OrgId,
        seq: int(r.seq),
        kind: r.kind,
        actorId: r.actorId as MemberId | null,
        resourceType: r.resourceType,
        resourceId: r.resourceId,
        teamId: (r.teamId ?? null) as TeamId | null,
        data: json(r.data),
        createdAt: iso(r.createdAt),
      }))
    },
  }
}
