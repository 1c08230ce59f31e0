import { type MemberId, newId, type OrgId, type UserId } from '../kernel/ids.ts'
import type { Storage, Store } from '../kernel/storage.ts'
import { mailKindsOf, PREFERENCE_DEFAULTS } from '../me/preferences.ts'
import type { Notification } from '../notifications/schemas.ts'
import { localDate } from '../users/away.ts'
import { DIGEST_ITEMS, digestMail, instantMail } from './compose.ts'
import type { OutboxMail } from './storage.ts'

/** Events read per transaction. */
const BATCH = 200
/** Instant mail is for what just happened: a notification older than this (a backlog) is not mailed. */
export const INSTANT_MAX_AGE_MS = 3_600_000
const DAY_MS = 86_400_000

function outboxMail(
  fields: Pick<OutboxMail, 'userId' | 'dedupeKey' | 'kind' | 'to' | 'subject' | 'text'>,
  now: string,
): OutboxMail {
  return {
    // Outbox rows are not an API resource; an event id's ULID keeps them sortable and unique.
    id: newId('EventId'),
    ...fields,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseUntil: null,
    lastAttemptAt: null,
    lastError: null,
    createdAt: now,
    sentAt: null,
  }
}

/**
 * One step of instant mail in one org, in one transaction: claim the org's mail position (the
 * notifier's pattern: a lock, so two instances never read the same events), queue a mail for each
 * new notification whose recipient chose `instant` and that kind, advance the position. The queue
 * and the position commit together: each notification is queued once, whatever the instances.
 */
export async function queueInstantStep(
  s: Store,
  orgId: OrgId,
  now: string,
): Promise<{ queued: number; more: boolean }> {
  const from = await s.mail.claimPosition(orgId)
  const events = await s.events.list(orgId, from, BATCH)
  const people = new Map<MemberId, Promise<{ userId: UserId; email: string } | null>>()
  const personOf = (id: MemberId) => {
    let p = people.get(id)
    if (!p) {
      p = (async () => {
        const member = await s.members.get(orgId, id)
        if (!member || member.status !== 'active' || !member.userId) return null
        const user = await s.users.get(member.userId as UserId)
        return user ? { userId: user.id, email: user.email } : null
      })()
      people.set(id, p)
    }
    return p
  }
  let org: Promise<string> | undefined
  let queued = 0
  for (const event of events) {
    if (event.kind !== 'notification.created') continue
    const n = event.data.notification as Notification
    if (n.readAt || Date.parse(now) - Date.parse(n.createdAt) > INSTANT_MAX_AGE_MS) continue
    const person = await personOf(n.recipientId)
    if (!person) continue
    const prefs = await s.preferences.get(person.userId)
    // No row: the defaults, `instant` with every kind.
    if ((prefs ?? PREFERENCE_DEFAULTS).notificationDelivery !== 'instant') continue
    if (!mailKindsOf(prefs?.mailKinds ?? {})[n.kind]) continue
    org ??= s.orgs.get(orgId).then((o) => o?.name ?? 'workgraph')
    const mail = instantMail(n, await org)
    const queuedNow = await s.mail.enqueue(
      outboxMail(
        { userId: person.userId, dedupeKey: `instant:${n.id}`, kind: 'instant', to: person.email, ...mail },
        now,
      ),
    )
    if (queuedNow) queued++
  }
  const last = events.at(-1)
  if (last) await s.mail.advancePosition(orgId, last.seq)
  return { queued, more: events.length === BATCH }
}

/** The hour (0–23) at `now` in a time zone (UTC when the person set none). */
export function localHour(now: string, timeZone: string | null): number {
  const hour = new Intl.DateTimeFormat('en-GB', {
    timeZone: timeZone ?? 'UTC',
    hour: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(now))
  return Number(hour)
}

/**
 * Daily digests due at `now`: for each person with `dailyDigest` whose local hour is their
 * `digestHour` and who has no digest for their local date yet, claim the date (a conditional write:
 * one instance wins) and, in the same transaction, queue a mail listing what is unread since the
 * last digest (the last day, for a first one). Nothing unread: the day is claimed, nothing is sent.
 */
export async function queueDigests(
  storage: Storage,
  now: string,
  onError?: (error: unknown) => void,
): Promise<{ queued: number; failed: number }> {
  const pass = { queued: 0, failed: 0 }
  let after: string | null = null
  for (;;) {
    const readers = await storage.read((s) => s.mail.digestReaders(after, 500))
    for (const reader of readers) {
      const today = localDate(now, reader.timeZone)
      if (localHour(now, reader.timeZone) !== reader.digestHour) continue
      if (reader.lastDigestOn !== null && reader.lastDigestOn >= today) continue
      try {
        const queued = await storage.transaction(async (s) => {
          if (!(await s.mail.claimDigest(reader.userId, today, now))) return false
          const since = reader.lastDigestAt ?? new Date(Date.parse(now) - DAY_MS).toISOString()
          const kinds = mailKindsOf(reader.mailKinds)
          const unread = (await s.mail.unreadSince(reader.userId, since, now, DIGEST_ITEMS + 1)).filter(
            (i) => kinds[i.kind],
          )
          if (unread.length === 0) return false
          const mail = digestMail(unread.slice(0, DIGEST_ITEMS), unread.length > DIGEST_ITEMS, today)
          return s.mail.enqueue(
            outboxMail(
              {
                userId: reader.userId,
                dedupeKey: `digest:${reader.userId}:${today}`,
                kind: 'digest',
                to: reader.email,
                ...mail,
              },
              now,
            ),
          )
        })
        if (queued) pass.queued++
      } catch (error) {
        pass.failed++
        onError?.(error)
      }
    }
    if (readers.length < 500) return pass
    after = readers.at(-1)!.userId
  }
}
