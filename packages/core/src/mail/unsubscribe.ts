import { createHmac, timingSafeEqual } from 'node:crypto'
import type { UserId } from '../kernel/ids.ts'
import type { Storage } from '../kernel/storage.ts'
import { PREFERENCE_DEFAULTS } from '../me/preferences.ts'

/** Where the one-click unsubscribe lives, outside `/v1`: it needs no sign-in (RFC 8058). */
export const UNSUBSCRIBE_PATH = '/mail/unsubscribe'
/** The name of the shared secret the links are signed with (every instance reads the same one). */
export const UNSUBSCRIBE_KEY = 'mail-unsubscribe-key'

/** What a link turns off. Only all mail for now; the scope is signed, so a new one cannot be forged in. */
type Scope = 'all'

const sign = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('base64url')

/**
 * A link token: the person and the scope, then an HMAC-SHA256 of both under the server's key. It
 * carries no expiry: mail is read months later, and a link only ever turns mail off.
 */
export function unsubscribeToken(key: string, userId: UserId, scope: Scope = 'all'): string {
  const payload = `${userId}.${scope}`
  return `${payload}.${sign(key, `unsubscribe:${payload}`)}`
}

/** The person a token names, or null when it is malformed or its signature does not match. */
export function verifyUnsubscribeToken(key: string, token: string): { userId: UserId; scope: Scope } | null {
  const parts = token.split('.')
  if (parts.length !== 3) return null
  const [userId, scope, signature] = parts as [string, string, string]
  if (scope !== 'all' || !/^[A-Za-z0-9_]{1,64}$/.test(userId)) return null
  const expected = Buffer.from(sign(key, `unsubscribe:${userId}.${scope}`))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  return { userId: userId as UserId, scope }
}

/**
 * One-click unsubscribe: sets the person's `notificationDelivery` to `off`. Mail already queued is
 * not sent (the sender checks before each attempt). Returns false for a forged or altered token,
 * changing nothing.
 */
export async function unsubscribe(
  storage: Storage,
  key: string,
  token: string,
  now: string,
): Promise<boolean> {
  const verified = verifyUnsubscribeToken(key, token)
  if (!verified) return false
  await storage.transaction(async (s) => {
    if (!(await s.users.get(verified.userId))) return
    const current = await s.preferences.get(verified.userId)
    await s.preferences.put(verified.userId, {
      ...PREFERENCE_DEFAULTS,
      ...current,
      notificationDelivery: 'off',
      updatedAt: now,
    })
  })
  return true
}
