import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * The cost of new password hashes, as log2 of scrypt's N (r=8, p=1). The default is OWASP's floor
 * (N=2^17): about 128 MiB and a tenth of a second per guess. Each hash records its cost, so a
 * changed setting applies to new hashes and every stored one still verifies.
 */
export const DEFAULT_PASSWORD_COST = 17
export const MIN_PASSWORD_COST = 10
export const MAX_PASSWORD_COST = 20

interface Cost {
  N: number
  r: number
  p: number
}
const KEY_LENGTH = 32

function costOf(log2N: number): Cost {
  if (!Number.isInteger(log2N) || log2N < MIN_PASSWORD_COST || log2N > MAX_PASSWORD_COST)
    throw new RangeError(
      `The password cost is log2 of scrypt's N, a whole number from ${MIN_PASSWORD_COST} to ${MAX_PASSWORD_COST}; got ${log2N}.`,
    )
  return { N: 2 ** log2N, r: 8, p: 1 }
}

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}

/** Hashes and verifies passwords at one cost for new hashes (`log2N`, DEFAULT_PASSWORD_COST unless set). */
export function createPasswordHasher(log2N: number = DEFAULT_PASSWORD_COST) {
  const cost = costOf(log2N)
  return {
    /** `scrypt$N$r$p$salt$key`, so the cost can change later without breaking stored hashes. */
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16)
      const key = await derive(password, salt, cost)
      return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join(
        '$',
      )
    },

    async verify(password: string, stored: string): Promise<boolean> {
      const [kind, n, r, p, salt, key] = stored.split('$')
      if (kind !== 'scrypt' || !salt || !key) return false
      const expected = Buffer.from(key, 'base64url')
      const actual = await derive(password, Buffer.from(salt, 'base64url'), {
        N: Number(n),
        r: Number(r),
        p: Number(p),
      })
      return actual.length === expected.length && timingSafeEqual(actual, expected)
    },

    /** A hash that matches nothing, at the cost of new hashes: verified when the email is unknown, so both answers take as long. */
    decoy: `scrypt$${cost.N}$${cost.r}$${cost.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`,
  }
}
