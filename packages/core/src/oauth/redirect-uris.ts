const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])
const MAX_URI_LENGTH = 2000

/** Why a redirect URI may not be registered, or null when it may. */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'must be a non-empty string'
  if (value.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`
  if (value.includes('#')) return 'must not contain a fragment'
  if (value.includes('*')) return 'must not contain a wildcard'
  if (/[\s\\\p{Cc}]/u.test(value)) return 'must not contain spaces, backslashes or control characters'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.username || url.password) return 'must not contain user information'
  if (url.href !== value) return 'must be written in canonical form'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null
  return 'must use https, or http on a loopback host (127.0.0.1, [::1], localhost)'
}

export function isLoopbackRedirect(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)
  } catch {
    return false
  }
}

/**
 * Whether the redirect URI of a request is one the client registered: the exact string, except
 * that for a loopback registration the port may differ (RFC 8252 §7.3, native apps pick a free port).
 */
export function matchesRegistered(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true
  if (redirectUriProblem(requested) !== null || !isLoopbackRedirect(requested)) return false
  const url = new URL(requested)
  return registered.some((candidate) => {
    if (!isLoopbackRedirect(candidate)) return false
    const withPort = new URL(url.href)
    withPort.port = new URL(candidate).port
    return withPort.href === candidate
  })
}
