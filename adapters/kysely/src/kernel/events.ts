import type { ActorId, EventId, MemberId, OrgId, TeamId } from '@workgraph/core'
import type { EventRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { runCompiled } from '../driver/fast-path.ts'
import { int, iso, json } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'
import { eventsInsert } from './event-insert.ts'

export function eventRepo(db: Kysely<Database>, dialect: Dialect): EventRepo {
  return {
    async append(orgId, events, options) {
      if (events.length === 0) return []
      // One statement on either database (kernel/event-insert.ts): the counter row stays locked (or,
      // on SQLite, the database's write lock held) until commit, so concurrent writers of one org
      // take sequences in commit order and a reader never sees seq n+1 before seq n. The last
      // statement of a Postgres transaction is sent with its commit (held-writes.ts).
      const last = options?.last === true && db.isTransaction
      const inserted = await runCompiled(db, eventsInsert(db, dialect, orgId, events, { last }))
      if (inserted.length !== events.length) throw new Error(`The event counter of org ${orgId} is missing`)
      // RETURNING answers in no set order; the sequences are consecutive from the smallest.
      const first = inserted.reduce((min, r) => Math.min(min, int(r.seq)), Number.POSITIVE_INFINITY)
      return events.map((e, i) => ({
        ...e,
        teamId: e.teamId ?? null,
        recipientId: e.recipientId ?? null,
        orgId,
        seq: first + i,
      }))
    },
    async list(orgId, afterSeq, limit, scope, kinds) {
      let query = db.selectFrom('events').selectAll().where('orgId', '=', orgId).where('seq', '>', afterSeq)
      if (scope && !scope.orgWide) {
        query = query.where((eb) =>
          eb.or([
            inVisibleTeams(eb, 'teamId', scope),
            eb('resourceId', '=', scope.actorId),
            // Events addressed to the reader (their notifications) belong to no team.
            eb('recipientId', '=', scope.actorId),
          ]),
        )
      }
      // A notification's events are its recipient's alone, even for readers who see the whole org.
      if (scope)
        query = query.where((eb) =>
          eb.or([eb('recipientId', 'is', null), eb('recipientId', '=', scope.actorId)]),
        )
      if (kinds)
        query = kinds.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('kind', 'in', [...kinds])
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
        recipientId: (r.recipientId ?? null) as ActorId | null,
        data: json(r.data),
        createdAt: iso(r.createdAt),
      }))
    },
    async bounds(orgId) {
      const row = await db
        .selectFrom('orgEventCounters as c')
        .select((eb) => [
          'c.lastSeq',
          eb
            .selectFrom('events as e')
            .select((e) => e.fn.min('e.seq').as('m'))
            .whereRef('e.orgId', '=', 'c.orgId')
            .as('oldest'),
        ])
        .where('c.orgId', '=', orgId)
        .executeTakeFirst()
      if (!row) return { oldest: 1, last: 0 }
      const last = int(row.lastSeq)
      return { oldest: row.oldest === null ? last + 1 : int(row.oldest as never), last }
    },
    async prune(before) {
      // Per org, everything up to the newest event older than `before`: a prefix by sequence even
      // when concurrent transactions committed with out-of-order timestamps.
      const cut = await db
        .selectFrom('events')
        .select((eb) => ['orgId', eb.fn.max('seq').as('upTo')])
        .where('createdAt', '<', before as never)
        .groupBy('orgId')
        .execute()
      let deleted = 0
      for (const { orgId, upTo } of cut) {
        const result = await db
          .deleteFrom('events')
          .where('orgId', '=', orgId)
          .where('seq', '<=', int(upTo as never))
          .executeTakeFirst()
        deleted += Number(result.numDeletedRows)
      }
      return deleted
    },
  }
}
