import type { NewEvent, OrgId } from '@workgraph/core'
import { type CompiledQuery, type Kysely, sql } from 'kysely'
import { compiledOnce } from '../driver/fast-path.ts'
import { takingHeld, thenCommit } from '../driver/held-writes.ts'
import type { Database, Dialect } from '../schema.ts'

/**
 * Up to this many events, a statement's shape is compiled once and kept (every write appends one to
 * three); a larger batch is built for itself: its rows cost more than building, and keeping each
 * bulk size would keep its SQL and parameters for nothing.
 */
const KEPT_UP_TO = 64

/** An event's values in the order of the statements' columns. */
const values = (e: NewEvent): unknown[] => [
  e.id,
  e.kind,
  e.actorId,
  e.resourceType,
  e.resourceId,
  e.teamId ?? null,
  e.recipientId ?? null,
  JSON.stringify(e.data),
  e.createdAt,
]

/**
 * The one statement that appends `events` to the org's log, answering each stored `seq`. The org's
 * counter is read once per statement, whatever the number of events: on SQLite a read per row (a
 * scalar subquery in each `values` row) opens its own cursors, and every row written walks all the
 * open cursors, so 2,000 events took a second and 10,000 a workspace's seeding many minutes.
 */
export function eventsInsert(
  db: Kysely<Database>,
  dialect: Dialect,
  orgId: OrgId,
  events: readonly NewEvent[],
  { last = false }: { last?: boolean } = {},
): CompiledQuery<{ seq: number | string }> {
  // A write the transaction held back (held-writes.ts, `tasks.create`) rides along as leading CTEs;
  // the transaction's last statement takes its commit along.
  if (dialect === 'postgres') {
    const insert = takingHeld(postgresInsert(orgId, events).compile(db))
    return last ? thenCommit(insert) : insert
  }
  const args = [orgId, ...events.flatMap(values)]
  const build = (stands: readonly unknown[]) => ({ compile: () => sqliteInsert(stands).compile(db) })
  return events.length <= KEPT_UP_TO
    ? compiledOnce(db, `events.append:${events.length}`, args, build)
    : build(args).compile()
}

/**
 * SQLite: the counter read once (a materialized CTE, before the first row is written), each event's
 * seq the counter plus its place; the `events_seq` trigger (migration 0072) moves the counter with
 * each row in place order and refuses a seq that is not its next, so sequences stay gap-free. The
 * insert holds the write lock until commit: concurrent writers take sequences in commit order.
 */
function sqliteInsert([orgId, ...rest]: readonly unknown[]) {
  const rows = []
  for (let at = 0, place = 1; at < rest.length; at += 9, place++)
    rows.push(sql`(${sql.join([sql.lit(place), ...rest.slice(at, at + 9).map((v) => sql`${v}`)])})`)
  return sql<{ seq: number }>`
    with counter as materialized (select org_id, last_seq from org_event_counters where org_id = ${orgId})
    insert into events (org_id, seq, id, kind, actor_id, resource_type, resource_id, team_id, recipient_id, data, created_at)
    select counter.org_id, counter.last_seq + e.column1, e.column2, e.column3, e.column4, e.column5, e.column6,
      e.column7, e.column8, e.column9, e.column10
    from counter, (values ${sql.join(rows)}) as e
    order by e.column1
    returning seq`
}

/**
 * Postgres: the counter's update and the events' insert in one statement (a data-modifying CTE), with
 * the same lock on the counter row until commit. The events travel as one array per column. Without
 * a counter row the statement fails (a null `seq`) rather than inserting nothing: its commit may be
 * on the wire already, and must find the transaction aborted.
 */
function postgresInsert(orgId: OrgId, events: readonly NewEvent[]) {
  const n = events.length
  const column = (f: (e: NewEvent) => string | null) => events.map(f)
  return sql<{ seq: string | number }>`
    with counter as (
      update org_event_counters set last_seq = last_seq + ${n} where org_id = ${orgId} returning last_seq
    )
    insert into events (org_id, seq, id, kind, actor_id, resource_type, resource_id, team_id, recipient_id, data, created_at)
    select ${orgId}, counter.last_seq - ${n} + e.n, e.id, e.kind, e.actor_id, e.resource_type, e.resource_id,
      e.team_id, e.recipient_id, e.data::jsonb, e.created_at::timestamptz
    from unnest(
      ${column((e) => e.id)}::text[], ${column((e) => e.kind)}::text[], ${column((e) => e.actorId)}::text[],
      ${column((e) => e.resourceType)}::text[], ${column((e) => e.resourceId)}::text[],
      ${column((e) => e.teamId ?? null)}::text[], ${column((e) => e.recipientId ?? null)}::text[],
      ${column((e) => JSON.stringify(e.data))}::text[], ${column((e) => e.createdAt)}::text[]
    ) with ordinality as e(id, kind, actor_id, resource_type, resource_id, team_id, recipient_id, data, created_at, n)
    left join counter on true
    returning seq`
}
