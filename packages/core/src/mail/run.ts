import { sharedSecret } from '../kernel/auth/shared-secret.ts'
import type { Mailer } from '../kernel/mailer.ts'
import type { Storage } from '../kernel/storage.ts'
import { queueDigests, queueInstantStep } from './queue.ts'
import { type SendPass, sendDue } from './send.ts'
import { UNSUBSCRIBE_KEY } from './unsubscribe.ts'

/** What one mail pass did. */
export interface MailPass extends SendPass {
  /** Instant mails queued. */
  instant: number
  /** Digests queued. */
  digests: number
  /** Orgs or digests whose transaction failed; the next pass tries them again. */
  errors: number
}

const ORGS_PER_PASS = 1_000

/**
 * One pass of mail delivery (docs/mail.md): queue instant mail for new notifications (every org's
 * mail position up to the end of its log), queue the digests due at `now`, then send what is due.
 * Safe from several instances at once: positions are claimed under a lock, digests by a
 * conditional write, and each mail is leased before it is sent.
 */
export async function mailPass(options: {
  storage: Storage
  mailer: Mailer
  baseUrl: string
  clock: () => Date
  onError?: (error: unknown) => void
}): Promise<MailPass> {
  const { storage, clock, onError } = options
  const pass: MailPass = { instant: 0, digests: 0, errors: 0, sent: 0, retried: 0, failed: 0, dropped: 0 }
  for (const orgId of await storage.read((s) => s.mail.behind(ORGS_PER_PASS))) {
    try {
      for (;;) {
        const step = await storage.transaction((s) => queueInstantStep(s, orgId, clock().toISOString()))
        pass.instant += step.queued
        if (!step.more) break
      }
    } catch (error) {
      pass.errors++
      onError?.(error)
    }
  }
  const digests = await queueDigests(storage, clock().toISOString(), onError)
  pass.digests = digests.queued
  pass.errors += digests.failed
  const key = await sharedSecret(storage, UNSUBSCRIBE_KEY, clock)
  const sent = await sendDue({
    storage,
    mailer: options.mailer,
    baseUrl: options.baseUrl,
    key,
    now: clock,
    ...(onError ? { onError: (error: unknown) => onError(error) } : {}),
  })
  return { ...pass, ...sent }
}
