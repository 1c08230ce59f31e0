import { newId, type UserId } from '../kernel/ids.ts'
import type { Mailer } from '../kernel/mailer.ts'
import type { RateLimiter } from '../kernel/pipeline/rate-limit.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { Storage } from '../kernel/storage.ts'
import type { User } from '../users/storage.ts'
import { createPasswordHasher } from './passwords.ts'
import { hashToken, randomToken } from './secrets.ts'
import type { AccountTokenRecord, SessionRecord, WebSessionId } from './store.ts'

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
  /** Counts sign-in attempts, sign-ups and reset requests per address and per email. */
  limiter: RateLimiter
  /** Sends the links that finish a sign-up and reset a password. */
  mailer: Mailer
  /** The public origin the links point at. */
  baseUrl: string
  /** The cost of new password hashes, as log2 of scrypt's N (passwords.ts; 17 by default). */
  passwordCost?: number
}

/** How long the link that finishes a sign-up works. */
export const SIGN_UP_LINK_HOURS = 24
/** How long a password-reset link works. */
export const RESET_LINK_MINUTES = 60

/** What the sign-up and reset forms answer, whatever the address: it never says whether it has an account. */
export interface LinkSent {
  email: string
}

/** Accounts with passwords and the web sessions that carry them. */
export function createAccounts({ storage, clock, limiter, mailer, baseUrl, passwordCost }: AccountsOptions) {
  const passwords = createPasswordHasher(passwordCost)
  async function throttle(action: string, ip: string, email: string, what: string): Promise<void> {
    for (const key of [`${action}:ip:${ip}`, `${action}:email:${email}`]) {
      const decision = await limiter.consume(key)
      if (!decision.allowed)
        throw new ProblemError('rate_limited', `Too many ${what}; retry in ${decision.resetSeconds} s.`, {
          extensions: { retryAfter: decision.resetSeconds },
        })
    }
  }

  async function sendLink(
    record: Omit<AccountTokenRecord, 'tokenHash' | 'createdAt' | 'expiresAt'>,
    lifetimeMs: number,
  ): Promise<string> {
    const token = randomToken()
    const now = clock()
    await storage.transaction((s) =>
      s.oauth.insertAccountToken(
        {
          ...record,
          tokenHash: hashToken(token),
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + lifetimeMs).toISOString(),
        },
        now.toISOString(),
      ),
    )
    return token
  }

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
    /** Where the links go when not to a mailbox (a development server's log). */
    mailNote: mailer.note ?? null,

    /**
     * Starts a sign-up. The answer is the same whether or not the address has an account: a new
     * address gets a link that creates the account; a known one gets a mail saying so, with the way
     * to reset its password. Either way the password is hashed, so timing tells nothing either.
     */
    async signUp(
      input: { email: unknown; password: unknown; name?: unknown },
      meta: { ip: string; returnTo: string | null },
    ): Promise<LinkSent> {
      const { email, password } = checkCredentials(input)
      const name =
        typeof input.name === 'string' && input.name.trim()
          ? input.name.trim().slice(0, 120)
          : email.split('@')[0]!
      if (password.length < 10) throw invalid('/password', 'Use at least 10 characters.')
      await throttle('signup', meta.ip, email, 'sign-ups')
      const passwordHash = await passwords.hash(password)
      const existing = await storage.read((s) => s.users.getByEmail(email))
      if (existing) {
        await mailer.send({
          to: email,
          subject: 'You already have a workgraph account',
          text: `Someone (perhaps you) tried to create an account with this address, which already has one. Sign in at ${baseUrl}/sign-in, or reset your password with the link below. If it was not you, nothing changed.`,
          link: `${baseUrl}/reset-password`,
        })
      } else {
        const token = await sendLink(
          { purpose: 'sign_up', email, name, passwordHash, returnTo: meta.returnTo },
          SIGN_UP_LINK_HOURS * 3600_000,
        )
        await mailer.send({
          to: email,
          subject: 'Finish creating your workgraph account',
          text: `Open the link within ${SIGN_UP_LINK_HOURS} hours to create your account. If you did not ask for one, ignore this mail.`,
          link: `${baseUrl}/sign-up/confirm?token=${token}`,
        })
      }
      return { email }
    },

    /** Uses a sign-up link: creates the account with the name and password given, and signs in. */
    async confirmSignUp(
      token: unknown,
      userAgent: string | null,
    ): Promise<SignedIn & { returnTo: string | null }> {
      const now = clock().toISOString()
      const { user, returnTo } = await storage.transaction(async (s) => {
        const link = typeof token === 'string' && token.length <= 100 ? token : ''
        const record = link ? await s.oauth.takeAccountToken(hashToken(link), 'sign_up', now) : null
        if (!record)
          throw new ProblemError(
            'not_found',
            'This link was used already, has expired or is not one of ours; sign up again.',
          )
        if (await s.users.getByEmail(record.email))
          throw new ProblemError('conflict', 'This address has an account already; sign in instead.')
        const created: User = { id: newId('UserId'), email: record.email, name: record.name!, createdAt: now }
        await s.users.insert(created)
        await s.oauth.setPasswordHash(created.id, record.passwordHash!, now)
        return { user: created, returnTo: record.returnTo }
      })
      return { ...(await startSession(user, userAgent)), returnTo }
    },

    /** Mails a reset link when the address has an account; answers the same when it has none. */
    async requestPasswordReset(input: { email: unknown }, meta: { ip: string }): Promise<LinkSent> {
      const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : ''
      if (!EMAIL.test(email)) throw invalid('/email', 'Give a valid email address.')
      await throttle('reset', meta.ip, email, 'reset requests')
      const user = await storage.read((s) => s.users.getByEmail(email))
      if (user) {
        const token = await sendLink(
          { purpose: 'password_reset', email, name: null, passwordHash: null, returnTo: null },
          RESET_LINK_MINUTES * 60_000,
        )
        await mailer.send({
          to: email,
          subject: 'Reset your workgraph password',
          text: `Open the link within ${RESET_LINK_MINUTES} minutes to choose a new password; it works once. If you did not ask, ignore this mail: your password stays as it is.`,
          link: `${baseUrl}/reset-password/confirm?token=${token}`,
        })
      }
      return { email }
    },

    /** Uses a reset link: sets the new password, ends every web session of the person, signs in anew. */
    async resetPassword(
      input: { token: unknown; password: unknown },
      userAgent: string | null,
    ): Promise<SignedIn> {
      const password = typeof input.password === 'string' ? input.password : ''
      if (password.length < 10 || password.length > 1024)
        throw invalid('/password', 'Use at least 10 and at most 1024 characters.')
      const hash = await passwords.hash(password)
      const now = clock().toISOString()
      const user = await storage.transaction(async (s) => {
        const link = typeof input.token === 'string' && input.token.length <= 100 ? input.token : ''
        const record = link ? await s.oauth.takeAccountToken(hashToken(link), 'password_reset', now) : null
        const found = record ? await s.users.getByEmail(record.email) : null
        if (!found)
          throw new ProblemError(
            'not_found',
            'This link was used already, has expired or is not one of ours; ask for a new one.',
          )
        await s.oauth.setPasswordHash(found.id, hash, now)
        await s.oauth.deleteSessionsOf(found.id)
        return found
      })
      return startSession(user, userAgent)
    },

    /** Wrong email and wrong password give the same answer, after the same work. */
    async signIn(
      input: { email: unknown; password: unknown },
      meta: { ip: string; userAgent: string | null },
    ) {
      const { email, password } = checkCredentials(input)
      await throttle('signin', meta.ip, email, 'sign-in attempts')
      const user = await storage.read((s) => s.users.getByEmail(email))
      const stored = user ? await storage.read((s) => s.oauth.getPasswordHash(user.id)) : null
      const ok = await passwords.verify(password, stored ?? passwords.decoy)
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
      const hash = await passwords.hash(password)
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
