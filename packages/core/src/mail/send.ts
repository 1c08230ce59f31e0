import type { Mailer } from '../kernel/mailer.ts'
import type { Storage } from '../kernel/storage.ts'
import { PREFERENCE_DEFAULTS } from '../me/preferences.ts'
import type { OutboxMail } from './storage.ts'
import { UNSUBSCRIBE_PATH, unsubscribeToken } from './unsubscribe.ts'

/** Attempts before a mail is given up (status `failed`): about two hours of retries. */
export const MAX_ATTEMPTS = 8
/** The first retry waits this long; each next one twice as long, up to `MAX_BACKOFF_MS`. */
export const FIRST_BACKOFF_MS = 60_000
const MAX_BACKOFF_MS = 6 * 3_600_000
/**
 * How long an instance holds a mail while sending it: longer than an SMTP exchange can take, so two
 * instances never send one mail; a crashed sender's mail is tried again once it runs out.
 */
export const LEASE_MS = 15 * 60_000
const PER_PASS = 50

export function backoffMs(attempts: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** (attempts - 1), MAX_BACKOFF_MS)
}

export interface SendPass {
  sent: number
  /** Attempts that failed and will be retried. */
  retried: number
  /** Mail given up after its last attempt. */
  failed: number
  /** Mail dropped because the person turned mail off since it was queued. */
  dropped: number
}

/**
 * Sends the outbox's due mail. Each mail is leased first (a conditional write: one instance wins),
 * sent outside any transaction, then settled: sent, or retried later with exponential backoff, or
 * given up after `MAX_ATTEMPTS`. Every mail carries `List-Unsubscribe` with one-click (RFC 8058).
 */
export async function sendDue(options: {
  storage: Storage
  mailer: Mailer
  baseUrl: string
  key: string
  now: () => Date
  onError?: (error: unknown, mail: OutboxMail) => void
}): Promise<SendPass> {
  const { storage, mailer } = options
  const pass: SendPass = { sent: 0, retried: 0, failed: 0, dropped: 0 }
  const at = options.now().toISOString()
  const due = await storage.read((s) => s.mail.due(at, PER_PASS))
  for (const mail of due) {
    const now = options.now()
    const until = new Date(now.getTime() + LEASE_MS).toISOString()
    if (!(await storage.transaction((s) => s.mail.lease(mail.id, now.toISOString(), until)))) continue
    const prefs = await storage.read((s) => s.preferences.get(mail.userId))
    // Unsubscribed (or switched) since it was queued: it is not sent.
    if (
      (prefs ?? PREFERENCE_DEFAULTS).notificationDelivery !==
      (mail.kind === 'digest' ? 'dailyDigest' : 'instant')
    ) {
      await storage.transaction((s) =>
        s.mail.settle(mail.id, {
          status: 'dropped',
          attempts: mail.attempts,
          nextAttemptAt: mail.nextAttemptAt,
          lastAttemptAt: now.toISOString(),
          lastError: 'not sent: the person changed their mail delivery since it was queued',
          sentAt: null,
        }),
      )
      pass.dropped++
      continue
    }
    const unsubscribe = `${options.baseUrl}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(options.key, mail.userId)}`
    const attempts = mail.attempts + 1
    try {
      await mailer.send({
        to: mail.to,
        subject: mail.subject,
        text: `${mail.text}\n\nTo stop these mails, unsubscribe: ${unsubscribe}\nOr change how you get them:`,
        link: `${options.baseUrl}/settings/preferences`,
        headers: {
          'List-Unsubscribe': `<${unsubscribe}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      })
      const sentAt = options.now().toISOString()
      await storage.transaction((s) =>
        s.mail.settle(mail.id, {
          status: 'sent',
          attempts,
          nextAttemptAt: mail.nextAttemptAt,
          lastAttemptAt: sentAt,
          lastError: mail.lastError,
          sentAt,
        }),
      )
      pass.sent++
    } catch (error) {
      const failedAt = options.now()
      const givenUp = attempts >= MAX_ATTEMPTS
      await storage.transaction((s) =>
        s.mail.settle(mail.id, {
          status: givenUp ? 'failed' : 'pending',
          attempts,
          nextAttemptAt: new Date(failedAt.getTime() + backoffMs(attempts)).toISOString(),
          lastAttemptAt: failedAt.toISOString(),
          lastError: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
          sentAt: null,
        }),
      )
      if (givenUp) pass.failed++
      else pass.retried++
      options.onError?.(error, mail)
    }
  }
  return pass
}
