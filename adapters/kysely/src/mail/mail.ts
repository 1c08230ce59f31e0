import type { NotificationId, NotificationKind, OrgId, UserId } from '@workgraph/core'
import type { MailRepo, OutboxMail } from '@workgraph/core/storage'
import { type Kysely, type Selectable, sql } from 'kysely'
import { eventPositions } from '../kernel/event-positions.ts'
import { int, iso, isoOrNull } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'

type Row = Selectable<Database['mailOutbox']>

const toMail = (r: Row): OutboxMail => ({
  id: r.id,
  userId: r.userId as UserId,
  dedupeKey: r.dedupeKey,
  kind: r.kind as OutboxMail['kind'],
  to: r.toAddress,
  subject: r.subject,
  text: r.body,
  status: r.status as OutboxMail['status'],
  attempts: r.attempts,
  nextAttemptAt: iso(r.nextAttemptAt),
  leaseUntil: isoOrNull(r.leaseUntil),
  lastAttemptAt: isoOrNull(r.lastAttemptAt),
  lastError: r.lastError,
  createdAt: iso(r.createdAt),
  sentAt: isoOrNull(r.sentAt),
})

export function mailRepo(db: Kysely<Database>, dialect: Dialect): MailRepo {
  const positions = eventPositions(db, dialect, 'mailPositions')
  return {
    claimPosition: positions.claim,
    advancePosition: positions.advance,
    behind: positions.behind,
    async enqueue(mail) {
      const result = await db
        .insertInto('mailOutbox')
        .values({
          id: mail.id,
          userId: mail.userId,
          dedupeKey: mail.dedupeKey,
          kind: mail.kind,
          toAddress: mail.to,
          subject: mail.subject,
          body: mail.text,
          status: mail.status,
          attempts: mail.attempts,
          nextAttemptAt: mail.nextAttemptAt,
          leaseUntil: mail.leaseUntil,
          lastAttemptAt: mail.lastAttemptAt,
          lastError: mail.lastError,
          createdAt: mail.createdAt,
          sentAt: mail.sentAt,
        })
        .onConflict((oc) => oc.column('dedupeKey').doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async due(now, limit) {
      const rows = await db
        .selectFrom('mailOutbox')
        .selectAll()
        .where('status', '=', 'pending')
        .where('nextAttemptAt', '<=', now)
        .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
        .orderBy('nextAttemptAt')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toMail)
    },
    async lease(id, now, until) {
      const result = await db
        .updateTable('mailOutbox')
        .set({ leaseUntil: until })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async settle(id, outcome) {
      await db
        .updateTable('mailOutbox')
        .set({ ...outcome, leaseUntil: null })
        .where('id', '=', id)
        .execute()
    },
    async counts() {
      const rows = await db
        .selectFrom('mailOutbox')
        .select((eb) => [
          'status',
          eb.fn.countAll<string | number>().as('n'),
          eb.fn.sum<string | number>(eb.case().when('attempts', '>', 0).then(1).else(0).end()).as('retrying'),
        ])
        .where('status', 'in', ['pending', 'failed'])
        .groupBy('status')
        .execute()
      const last = await db
        .selectFrom('mailOutbox')
        .select(['lastAttemptAt', 'lastError'])
        .where('lastError', 'is not', null)
        .orderBy('lastAttemptAt', 'desc')
        .limit(1)
        .executeTakeFirst()
      const pending = rows.find((r) => r.status === 'pending')
      return {
        pending: int(pending?.n ?? 0),
        retrying: int(pending?.retrying ?? 0),
        failed: int(rows.find((r) => r.status === 'failed')?.n ?? 0),
        lastError: last?.lastAttemptAt ? { at: iso(last.lastAttemptAt), error: last.lastError! } : null,
      }
    },
    async digestReaders(after, limit) {
      let q = db
        .selectFrom('userPreferences as p')
        .innerJoin('users as u', 'u.id', 'p.userId')
        .leftJoin('mailDigests as d', 'd.userId', 'p.userId')
        .select(['p.userId', 'u.email', 'u.timeZone', 'p.digestHour', 'p.mailKinds', 'd.lastAt', 'd.lastOn'])
        .where('p.notificationDelivery', '=', 'dailyDigest')
      if (after) q = q.where('p.userId', '>', after)
      const rows = await q.orderBy('p.userId').limit(limit).execute()
      return rows.map((r) => ({
        userId: r.userId as UserId,
        email: r.email,
        timeZone: r.timeZone,
        digestHour: r.digestHour,
        mailKinds: JSON.parse(r.mailKinds),
        lastDigestAt: r.lastAt ? iso(r.lastAt) : null,
        lastDigestOn: r.lastOn ?? null,
      }))
    },
    async claimDigest(userId, localDate, at) {
      const result = await db
        .insertInto('mailDigests')
        .values({ userId, lastOn: localDate, lastAt: at })
        .onConflict((oc) =>
          oc
            .column('userId')
            .doUpdateSet({ lastOn: localDate, lastAt: at })
            .where('mailDigests.lastOn', '<', localDate),
        )
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async unreadSince(userId, since, now, limit) {
      const rows = await db
        .selectFrom('notifications as n')
        .innerJoin('members as m', (j) =>
          j.onRef('m.orgId', '=', 'n.orgId').onRef('m.id', '=', 'n.recipientId'),
        )
        .innerJoin('orgs as o', 'o.id', 'n.orgId')
        .select(['n.id', 'n.orgId', 'o.name', 'n.kind', 'n.summary', 'n.createdAt'])
        .where('m.userId', '=', userId)
        .where('m.status', '=', 'active')
        .where('o.archivedAt', 'is', null)
        .where('n.readAt', 'is', null)
        .where('n.archivedAt', 'is', null)
        .where((eb) => eb.or([eb('n.snoozedUntil', 'is', null), eb('n.snoozedUntil', '<=', now)]))
        .where('n.createdAt', '>', since)
        .orderBy('n.createdAt')
        .orderBy('n.id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({
        id: r.id as NotificationId,
        orgId: r.orgId as OrgId,
        orgName: r.name,
        kind: r.kind as NotificationKind,
        summary: r.summary,
        createdAt: iso(r.createdAt),
      }))
    },
  }
}
