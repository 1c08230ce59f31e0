import type { ActorId, EventId, MemberId, NewEvent, OrgId, StoredEvent, TeamId } from '@workgraph/core'
import type { EventRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { rowsOnce, runCompiled } from '../fast-path.ts'
import { int, iso, json } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

export function eventRepo(db: Kysely<Database>, dialect: Dialect): EventRepo {
  return {
    async append(orgId, events) {
      if (events.length === 0) return []
      if (dialect === 'postgres') return appendInOneStatement(db, orgId, events)
      // One statement: each event's seq is the counter plus its place in the insert, read by the
      // insert itself; the `events_seq` trigger (migration 0072) moves the counter with each row and
      // refuses a seq that is not its next. The insert holds the write lock until commit, so
      // concurrent writers of one org take sequences in commit order and a reader never sees seq n+1
      // before seq n. Compiled once per shape (`rowsOnce`): every write runs it.
      const rows = events.map((e) => ({
        ...e,
        teamId: e.teamId ?? null,
        recipientId: e.recipientId ?? null,
        orgId,
        data: JSON.stringify(e.data),
      }))
      const inserted = await runCompiled(
        db,
        rowsOnce(db, 'events.insert', rows, (r) =>
          db
            .insertInto('events')
            .values(r.map((row, i) => ({ ...row, seq: nextSeq(row.orgId!, i + 1) })) as never)
            .returning('seq'),
        ),
      )
      if (inserted.length !== events.length) throw new Error(`The event counter of org ${orgId} is missing`)
      // RETURNING answers in no set order; the sequences are consecutive from the smallest.
      const first = inserted.reduce((min, r) => Math.min(min, int(r.seq)), Number.POSITIVE_INFINITY)
      const stored: StoredEvent[] = events.map((e, i) => ({
        ...e,
        teamId: e.teamId ?? null,
        recipientId: e.recipientId ?? null,
        orgId,
        seq: first + i,
      }))
      return stored
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

/** The `place`-th sequence after the org's counter, read in the statement that inserts it (SQLite). */
const nextSeq = (orgId: string, place: number) =>
  sql<number>`(select last_seq from org_event_counters where org_id = ${orgId}) + ${sql.lit(place)}`

/**
 * Postgres: the counter's update and the events' insert in one statement (a data-modifying CTE), with
 * the same lock on the counter row until commit. The events travel as one array per column.
 */
async function appendInOneStatement(
  db: Kysely<Database>,
  orgId: OrgId,
  events: readonly NewEvent[],
): Promise<StoredEvent[]> {
  const n = events.length
  const column = (f: (e: NewEvent) => string | null) => events.map(f)
  const result = await sql<{ seq: string | number }>`
    with counter as (
      update org_event_counters set last_seq = last_seq + ${n} where org_id = ${orgId} returning last_seq
    )
    insert into events (org_id, seq, id, kind, actor_id, resource_type, resource_id, team_id, recipient_id, data, created_at)
    select ${orgId}, counter.last_seq - ${n} + e.n, e.id, e.kind, e.actor_id, e.resource_type, e.resource_id,
      e.team_id, e.recipient_id, e.data::jsonb, e.created_at::timestamptz
    from counter, unnest(
      ${column((e) => e.id)}::text[], ${column((e) => e.kind)}::text[], ${column((e) => e.actorId)}::text[],
      ${column((e) => e.resourceType)}::text[], ${column((e) => e.resourceId)}::text[],
      ${column((e) => e.teamId ?? null)}::text[], ${column((e) => e.recipientId ?? null)}::text[],
      ${column((e) => JSON.stringify(e.data))}::text[], ${column((e) => e.createdAt)}::text[]
    ) with ordinality as e(id, kind, actor_id, resource_type, resource_id, team_id, recipient_id, data, created_at, n)
    returning seq`.execute(db)
  if (result.rows.length !== n) throw new Error(`The event counter of org ${orgId} is missing`)
  const first = result.rows.reduce((min, r) => Math.min(min, int(r.seq)), Number.POSITIVE_INFINITY)
  return events.map((e, i) => ({
    ...e,
    teamId: e.teamId ?? null,
    recipientId: e.recipientId ?? null,
    orgId,
    seq: first + i,
  }))
}
