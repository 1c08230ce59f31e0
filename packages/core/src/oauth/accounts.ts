import { newId, type UserId } from '../kernel/ids.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { RateLimiter } from '../kernel/rate-limit.ts'
import type { Storage } from '../kernel/storage.ts'
import type { User } from '../users/storage.ts'
import { DECOY_HASH, hashPassword, verifyPassword } from './passwords.ts'
import { hashToken, randomToken } from './secrets.ts'
import type { SessionRecord, WebSessionId } from './store.ts'

export const SESSION_TTL_SECONDS = 30 * 24 * 3600
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/

export interface SignedIn {
  user: User
  session: SessionRecord
  /** The cookie value; only its hash is stored. */
  sessionToken: string
}

export interface AccountsOptions {
  storage: Storage
  clock: () => Date
  /** Counts sign-in attempts per address and per email. */
  limiter: RateLimiter
}

/** Accounts with passwords and the web sessions that carry them. */
export function createAccounts({ storage, clock, limiter }: AccountsOptions) {
  async function startSession(user: User, userAgent: string | null): Promise<SignedIn> {
    const now = clock()
    const sessionToken = randomToken()
    const session: SessionRecord = {
      id: newId('WebSessionId') as WebSessionId,
      userId: user.id,
      tokenHash: hashToken(sessionToken),
      userAgent: userAgent?.slice(0, 300) ?? null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000).toISOString(),
    }
    await storage.transaction((s) => s.oauth.insertSession(session))
    return { user, session, sessionToken }
  }

  return {
    async signUp(input: { email: unknown; password: unknown; name?: unknown }, userAgent: string | null) {
      const { email, password } = checkCredentials(input)
      const name =
        typeof input.name === 'string' && input.name.trim()
          ? input.name.trim().slice(0, 120)
          : email.split('@')[0]!
      if (password.length < 10) throw invalid('/password', 'Use at least 10 characters.')
      const hash = await hashPassword(password)
      const now = clock().toISOString()
      const user = await storage.transaction(async (s) => {
        if (await s.users.getByEmail(email))
          throw new ProblemError('conflict', 'An account with this email exists; sign in instead.')
        const created: User = { id: newId('UserId'), email, name, createdAt: now }
        await s.users.insert(created)
        await s.oauth.setPasswordHash(created.id, hash, now)
        return created
      })
      return startSession(user, userAgent)
    },

    /** Wrong email and wrong password give the same answer, after the same work. */
    async signIn(
      input: { email: unknown; password: unknown },
      meta: { ip: string; userAgent: string | null },
    ) {
      const { email, password } = checkCredentials(input)
      for (const key of [`signin:ip:${meta.ip}`, `signin:email:${email}`]) {
        const decision = await limiter.consume(key)
        if (!decision.allowed)
          throw new ProblemError(
            'rate_limited',
            `Too many sign-in attempts; retry in ${decision.resetSeconds} s.`,
            {
              extensions: { retryAfter: decision.resetSeconds },
            },
          )
      }
      const user = await storage.read((s) => s.users.getByEmail(email))
      const stored = user ? await storage.read((s) => s.oauth.getPasswordHash(user.id)) : null
      const ok = await verifyPassword(password, stored ?? DECOY_HASH)
      if (!user || !stored || !ok)
        throw new ProblemError('unauthenticated', 'The email or the password is wrong.')
      return startSession(user, meta.userAgent)
    },

    /** The live session behind a cookie value, with its user. */
    async fromCookie(
      token: string | null | undefined,
    ): Promise<{ user: User; session: SessionRecord } | null> {
      if (!token || token.length > 100) return null
      const now = clock().toISOString()
      return storage.read(async (s) => {
        const session = await s.oauth.findSession(hashToken(token), now)
        const user = session ? await s.users.get(session.userId) : null
        return session && user ? { session, user } : null
      })
    },

    async signOut(token: string): Promise<void> {
      await storage.transaction((s) => s.oauth.deleteSessionByHash(hashToken(token)))
    },

    /** Sets a password for an existing account (hosts that create users with `createUser`). */
    async setPassword(userId: UserId, password: string): Promise<void> {
      const hash = await hashPassword(password)
      await storage.transaction((s) => s.oauth.setPasswordHash(userId, hash, clock().toISOString()))
    },
  }
}

export type Accounts = ReturnType<typeof createAccounts>

function checkCredentials(input: { email: unknown; password: unknown }): { email: string; password: string } {
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : ''
  if (!EMAIL.test(email)) throw invalid('/email', 'Give a valid email address.')
  if (typeof input.password !== 'string' || input.password.length === 0 || input.password.length > 1024)
    throw invalid('/password', 'Give a password of at most 1024 characters.')
  return { email, password: input.password }
}

function invalid(pointer: string, message: string): ProblemError {
  return new ProblemError('validation_failed', message, { errors: [{ pointer: `/body${pointer}`, message }] })
}
