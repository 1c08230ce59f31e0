/** The session cookie and the same-origin checks that guard cookie-authenticated requests. */

function isLoopbackHttp(issuer: string): boolean {
  const url = new URL(issuer)
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
}

/** `__Host-` and Secure on https; plain on a loopback http origin (local development, tests). */
export function cookieName(issuer: string): string {
  return isLoopbackHttp(issuer) ? 'wg_session' : '__Host-wg_session'
}

export function sessionCookie(issuer: string, value: string, maxAgeSeconds: number): string {
  const secure = isLoopbackHttp(issuer) ? '' : '; Secure'
  return `${cookieName(issuer)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`
}

export function readSessionCookie(request: Request, issuer: string): string | null {
  const name = cookieName(issuer)
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return null
}

/**
 * Whether a cookie-authenticated request comes from this origin's own pages. `strict` (forms that
 * change state) needs a positive sign, `Origin` or `Sec-Fetch-Site`; otherwise only a foreign one fails.
 */
export function sameOrigin(request: Request, issuer: string, strict: boolean): boolean {
  const origin = request.headers.get('origin')
  const site = request.headers.get('sec-fetch-site')
  if (origin !== null && origin !== new URL(issuer).origin) return false
  if (site !== null && site !== 'same-origin' && site !== 'none') return false
  if (strict) return origin !== null || site === 'same-origin'
  return true
}

/** A `return_to` is honoured only for a path on this origin. */
export function safeReturnTo(value: string | null, issuer: string, fallback: string): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return fallback
  try {
    const url = new URL(value, issuer)
    return url.origin === new URL(issuer).origin ? `${url.pathname}${url.search}` : fallback
  } catch {
    return fallback
  }
}
