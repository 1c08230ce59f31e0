import type { NotificationId, OrgId, UserId } from '../kernel/ids.ts'
import type { NotificationKind } from '../notifications/schemas.ts'

/** What the outbox holds: a message composed once, then sent (and retried) by whichever instance leases it. */
export interface OutboxMail {
  id: string
  userId: UserId
  /** `instant:<notification id>` or `digest:<user id>:<local date>`: the same mail is never queued twice. */
  dedupeKey: string
  kind: 'instant' | 'digest'
  to: string
  subject: string
  text: string
  /** `dropped`: not sent, as the person turned that mail off after it was queued. */
  status: 'pending' | 'sent' | 'failed' | 'dropped'
  attempts: number
  nextAttemptAt: string
  /** Held by the instance sending it until then; an expired lease is anyone's again. */
  leaseUntil: string | null
  lastAttemptAt: string | null
  lastError: string | null
  createdAt: string
  sentAt: string | null
}

/** A person whose mail goes in a daily digest, with what deciding their hour needs. */
export interface DigestReader {
  userId: UserId
  email: string
  timeZone: string | null
  digestHour: number
  mailKinds: Partial<Record<NotificationKind, boolean>>
  /** When their last digest was composed; null before the first. */
  lastDigestAt: string | null
  lastDigestOn: string | null
}

/** An unread notification of a digest, with the workspace it belongs to. */
export interface DigestItem {
  id: NotificationId
  orgId: OrgId
  orgName: string
  kind: NotificationKind
  summary: string
  createdAt: string
}

/** The operator's view of the outbox. */
export interface MailCounts {
  /** Waiting for their first try or a retry. */
  pending: number
  /** Of those, how many failed at least once. */
  retrying: number
  /** Given up after the last retry. */
  failed: number
  /** The newest failure, given up or not. */
  lastError: { at: string; error: string } | null
}

export interface MailRepo {
  /** Like the notifier's: takes the org's mail position under a lock (creating it at 0). */
  claimPosition(orgId: OrgId): Promise<number>
  advancePosition(orgId: OrgId, seq: number): Promise<void>
  /** Unarchived orgs whose log has grown past the mail position. */
  behind(limit: number): Promise<OrgId[]>
  /** Returns false, writing nothing, when a mail with its `dedupeKey` is queued already. */
  enqueue(mail: OutboxMail): Promise<boolean>
  /** Pending mail whose next attempt is due and whose lease (if any) has run out, oldest first. */
  due(now: string, limit: number): Promise<OutboxMail[]>
  /** Takes the lease when nobody holds it at `now`; false when another instance does. */
  lease(id: string, now: string, until: string): Promise<boolean>
  /** Records an attempt's outcome and releases the lease. */
  settle(
    id: string,
    outcome: Pick<
      OutboxMail,
      'status' | 'attempts' | 'nextAttemptAt' | 'lastAttemptAt' | 'lastError' | 'sentAt'
    >,
  ): Promise<void>
  counts(): Promise<MailCounts>
  /** People with `dailyDigest`, by user id after `after`. */
  digestReaders(after: string | null, limit: number): Promise<DigestReader[]>
  /** Marks the person's digest of `localDate` composed; false when it already was (another instance won). */
  claimDigest(userId: UserId, localDate: string, at: string): Promise<boolean>
  /**
   * Unread notifications of the person's active memberships in unarchived workspaces, created after
   * `since`, neither archived nor snoozed at `now`, oldest first.
   */
  unreadSince(userId: UserId, since: string, now: string, limit: number): Promise<DigestItem[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Mail delivery of notifications: positions, the outbox and digests (docs/mail.md). */
    mail: MailRepo
  }
}
