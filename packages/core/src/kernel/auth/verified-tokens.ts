import type { LiveCheck, Principal } from './principal.ts'

/** What a verified access token established, without its liveness (checked on every request). */
export interface VerifiedToken {
  principal: Principal
  liveCheck: LiveCheck
  /** `nbf` and `exp`, epoch seconds: a cached answer holds only inside them. */
  notBefore: number
  expires: number
}

/**
 * Access tokens whose signature, issuer, audience, type and claims were verified, keyed by the
 * exact token string, so a client that sends the same token on every request pays for one ES256
 * verification in its lifetime rather than one per request. Only what the token itself proves is
 * kept: its revocation and its consent are still checked on every request (`LiveCheck`), and its
 * lifetime against the clock at each use. Bounded: the oldest entry leaves first.
 */
export interface VerifiedTokenCache {
  /** The token's verified claims, when it was verified before and `nowSeconds` is inside its lifetime. */
  get(token: string, nowSeconds: number): VerifiedToken | undefined
  set(token: string, verified: VerifiedToken): void
  /** Forgets everything (the key set changed). */
  clear(): void
}

export function createVerifiedTokenCache(maxEntries = 4096): VerifiedTokenCache {
  const entries = new Map<string, VerifiedToken>()
  return {
    get(token, nowSeconds) {
      const hit = entries.get(token)
      if (hit === undefined) return undefined
      // The same tests jose applies: expired at `exp`, not yet valid before `nbf`.
      if (nowSeconds >= hit.expires) {
        entries.delete(token)
        return undefined
      }
      return nowSeconds < hit.notBefore ? undefined : hit
    },
    set(token, verified) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
      entries.set(token, verified)
    },
    clear() {
      entries.clear()
    },
  }
}
