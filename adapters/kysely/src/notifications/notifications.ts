import type { MemberId, NotificationId, NotificationRecord, OrgId } from '@workgraph/core'
import type { NotificationRepo } from '@workgraph/core/storage'
import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'

type Row = Database['notifications'] extends infer T ? { [K in keyof T]: unknown } : never
type Eb = ExpressionBuilder<Database, 'notifications'>
type Filter = Parameters<NotificationRepo['list']>[2]

function toRecord(r: Row): NotificationRecord {
  return {
    id: r.id as NotificationId,
    orgId: r.orgId as OrgId,
    recipientId: r.recipientId as MemberId,
    kind: r.kind as NotificationRecord['kind'],
    record: { type: r.recordType as NotificationRecord['record']['type'], id: r.recordId as string },
    actorId: (r.actorId ?? null) as string | null,
    eventId: (r.eventId ?? null) as string | null,
    summary: r.summary as string,
    dedupeKey: r.dedupeKey as string,
    readAt: isoOrNull(r.readAt as string | null),
    snoozedUntil: isoOrNull(r.snoozedUntil as string | null),
    archivedAt: isoOrNull(r.archivedAt as string | null),
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

/** The filter as a predicate; views compare the snooze with `now`. */
function matches(eb: Eb, filter: Filter, now: string) {
  const parts = []
  const snoozed = eb.and([eb('snoozedUntil', 'is not', null), eb('snoozedUntil', '>', now)])
  const awake = eb.or([eb('snoozedUntil', 'is', null), eb('snoozedUntil', '<=', now)])
  if (filter.view === 'inbox') parts.push(eb('archivedAt', 'is', null), awake)
  if (filter.view === 'snoozed') parts.push(eb('archivedAt', 'is', null), snoozed)
  if (filter.view === 'archived') parts.push(eb('archivedAt', 'is not', null))
  if (filter.unread === true) parts.push(eb('readAt', 'is', null))
  if (filter.unread === false) parts.push(eb('readAt', 'is not', null))
  if (filter.kind) parts.push(eb('kind', '=', filter.kind))
  if (filter.recordId) parts.push(eb('recordId', '=', filter.recordId))
  return eb.and(parts)
}

export function notificationRepo(db: Kysely<Database>): NotificationRepo {
  const mine = (orgId: string, recipientId: string) =>
    db
      .selectFrom('notifications')
      .selectAll()
      .where('orgId', '=', orgId)
      .where('recipientId', '=', recipientId)
  return {
    async insert({ record, ...n }) {
      const result = await db
        .insertInto('notifications')
        .values({ ...n, recordType: record.type, recordId: record.id })
        .onConflict((oc) => oc.columns(['orgId', 'recipientId', 'dedupeKey']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async get(orgId, recipientId, id) {
      const row = await mine(orgId, recipientId).where('id', '=', id).executeTakeFirst()
      return row ? toRecord(row) : null
    },
    async list(orgId, recipientId, filter, now, page) {
      const q = mine(orgId, recipientId).where((eb) => matches(eb, filter, now))
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(toRecord)
    },
    async change(orgId, recipientId, selection, change, now) {
      let q = db
        .updateTable('notifications')
        .set(change.set)
        .where('orgId', '=', orgId)
        .where('recipientId', '=', recipientId)
      if ('ids' in selection) {
        if (selection.ids.length === 0) return []
        q = q.where('id', 'in', [...selection.ids])
      } else q = q.where((eb) => matches(eb as never, selection.filter, now))
      if (change.onlyWhere)
        q = q.where(change.onlyWhere.field, change.onlyWhere.isNull ? 'is' : 'is not', null)
      if (change.createdBefore) q = q.where('createdAt', '<', change.createdBefore)
      const rows = await q.returningAll().execute()
      return rows.map(toRecord).sort((a, b) => (a.id < b.id ? -1 : 1))
    },
    async counts(orgId, recipientId, now) {
      const rows = await db
        .selectFrom('notifications')
        .select((eb) => [
          'kind',
          sql<string>`case when ${eb('archivedAt', 'is not', null)} then 'archived' when ${eb.and([
            eb('snoozedUntil', 'is not', null),
            eb('snoozedUntil', '>', now),
          ])} then 'snoozed' when ${eb('readAt', 'is', null)} then 'unread' else 'read' end`.as('state'),
          eb.fn.countAll<string | number>().as('n'),
        ])
        .where('orgId', '=', orgId)
        .where('recipientId', '=', recipientId)
        .groupBy(['kind', 'state'])
        .execute()
      const counts = { unread: 0, inbox: 0, snoozed: 0, unreadByKind: {} as Record<string, number> }
      for (const r of rows) {
        const n = Number(r.n)
        if (r.state === 'snoozed') counts.snoozed += n
        if (r.state === 'unread' || r.state === 'read') counts.inbox += n
        if (r.state === 'unread') {
          counts.unread += n
          counts.unreadByKind[r.kind] = (counts.unreadByKind[r.kind] ?? 0) + n
        }
      }
      return counts
    },
  }
}
