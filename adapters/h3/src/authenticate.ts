import { type Engine, type Principal, ProblemError } from '@workgraph/core'
import { getRequestIP, type H3Event } from 'h3'
import { bearerToken } from './http-request.ts'
import { rateLimitHeaders } from './http-response.ts'

/**
 * The bearer authentication every `/v1` route shares (the catalogue's routes and SSE): the token
 * only in the Authorization header, verified, then the rate limit, keyed by person and client or
 * by address. A bad token is counted against the caller's address before it is refused, so
 * guessing is throttled. Adds the rate-limit headers to `headers`; `seen.hadToken` tells the
 * caller's error path which challenge to send. Returns null without a token. `deferLiveCheck`: the
 * token's revocation check is left to `engine.execute` (`Principal.liveCheck`).
 */
export async function authenticate(
  event: H3Event,
  engine: Engine,
  headers: Record<string, string>,
  seen: { hadToken: boolean },
  options: { deferLiveCheck?: boolean } = {},
): Promise<Principal | null> {
  const request = event.req
  const token = bearerToken(request)
  seen.hadToken = token !== null
  if (event.url.search !== '' && event.url.searchParams.has('access_token'))
    throw new ProblemError('unauthenticated', 'Send the token in the Authorization header, never in the URL.')
  const verified = token
    ? await engine.tokens.verifyAccessToken(token, options).catch((error: unknown) => error)
    : null
  const principal = verified && !(verified instanceof Error) ? (verified as Principal) : null
  const decision = await engine.limiter.consume(
    principal
      ? `p:${principal.userId}:${principal.clientId ?? ''}`
      : `ip:${getRequestIP(event) ?? 'unknown'}`,
  )
  Object.assign(headers, rateLimitHeaders(decision))
  if (!decision.allowed)
    throw new ProblemError('rate_limited', `Too many requests; retry in ${decision.resetSeconds} s.`)
  if (verified instanceof Error) throw verified
  return principal
}
