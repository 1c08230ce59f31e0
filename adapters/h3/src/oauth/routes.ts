import { isOAuthError, isProblem, OAuthError, type OAuthServer, ProblemError } from '@workgraph/core'
import { getRequestIP, type H3, type H3Event } from 'h3'
import { json, problem } from '../http-response.ts'
import { readForm, seeOther } from '../pages/html.ts'
import { readSessionCookie, safeReturnTo, sameOrigin, sessionCookie } from './web-session.ts'

const OAUTH_CORS = {
  // Public clients in browsers call these with no credentials; cookies are never consulted here.
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, MCP-Protocol-Version',
  'access-control-max-age': '600',
}
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

function oauthError(error: unknown, viaBasic = false): Response {
  if (!isOAuthError(error)) throw error
  return json(error.status, error.toJSON(), {
    ...OAUTH_CORS,
    ...NO_STORE,
    ...(error.status === 401 && viaBasic ? { 'www-authenticate': 'Basic realm="workgraph"' } : {}),
  })
}

async function readOAuthForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded')
    throw new OAuthError('invalid_request', 'Send the request as application/x-www-form-urlencoded.')
  const text = await request.text()
  if (text.length > 16 * 1024) throw new OAuthError('invalid_request', 'The request is too large.')
  return new URLSearchParams(text)
}

/** The account API's JSON body: always an object, so no handler meets `null` or an array. */
async function readJson(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') throw new ProblemError('unsupported_media_type', 'Send application/json.')
  const text = await request.text()
  if (text.length > 64 * 1024) throw new ProblemError('payload_too_large', 'The request body is too large.')
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new ProblemError('invalid_json', 'The request body is not valid JSON.')
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ProblemError('validation_failed', 'Send a JSON object.', {
      errors: [{ pointer: '/body', message: 'Send a JSON object.' }],
    })
  return body as Record<string, unknown>
}

const ip = (event: H3Event) => getRequestIP(event) ?? 'unknown'

/** Discovery documents, registration, token, revocation and the account API under `/api/auth`. */
export function registerOAuthRoutes(app: H3, oauth: OAuthServer): void {
  const { issuer } = oauth
  const publicJson = (body: unknown) =>
    json(200, body, { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' })

  app.get('/.well-known/oauth-authorization-server', () => publicJson(oauth.authorizationServerMetadata()))
  for (const resource of oauth.resources) {
    const path = new URL(resource).pathname
    app.get(`/.well-known/oauth-protected-resource${path}`, () =>
      publicJson(oauth.protectedResourceMetadata(resource)),
    )
  }

  for (const path of ['/oauth/token', '/oauth/revoke', '/api/auth/mcp/register'])
    app.options(path, () => new Response(null, { status: 204, headers: OAUTH_CORS }))

  app.post('/api/auth/mcp/register', async (event) => {
    try {
      const body = await event.req.text()
      let parsed: unknown
      try {
        parsed = JSON.parse(body)
      } catch {
        parsed = null
      }
      return json(201, await oauth.register(parsed, ip(event)), { ...OAUTH_CORS, ...NO_STORE })
    } catch (error) {
      return oauthError(error)
    }
  })

  app.post('/oauth/token', async (event) => {
    const authorization = event.req.headers.get('authorization')
    try {
      const form = await readOAuthForm(event.req)
      return json(200, await oauth.token(form, authorization), { ...OAUTH_CORS, ...NO_STORE })
    } catch (error) {
      return oauthError(error, authorization !== null)
    }
  })

  app.post('/oauth/revoke', async (event) => {
    const authorization = event.req.headers.get('authorization')
    try {
      await oauth.revoke(await readOAuthForm(event.req), authorization)
      return new Response(null, { status: 200, headers: { ...OAUTH_CORS, ...NO_STORE } })
    } catch (error) {
      return oauthError(error, authorization !== null)
    }
  })

  // The account API: JSON, same-origin only (a foreign Origin is refused; CORS is never granted).
  const account = (handler: (event: H3Event) => Promise<Response>) => async (event: H3Event) => {
    try {
      if (!sameOrigin(event.req, issuer, false))
        throw new ProblemError('bad_request', 'Cross-origin requests are refused here.')
      return await handler(event)
    } catch (error) {
      if (isProblem(error)) return problem(error)
      throw error
    }
  }
  const signedIn = (result: Awaited<ReturnType<OAuthServer['accounts']['signIn']>>) =>
    json(
      200,
      {
        user: { id: result.user.id, email: result.user.email, name: result.user.name },
        session: { id: result.session.id, expiresAt: result.session.expiresAt },
      },
      { 'set-cookie': sessionCookie(issuer, result.sessionToken, 30 * 24 * 3600) },
    )

  // Sign-up and reset answer 202 with the same body whether or not the address has an account;
  // the mailed link's token then finishes the work and signs in.
  app.post(
    '/api/auth/sign-up/email',
    account(async (event) => {
      const body = await readJson(event.req)
      const returnTo =
        typeof body.callbackURL === 'string' ? safeReturnTo(body.callbackURL, issuer, '') || null : null
      return json(202, await oauth.accounts.signUp(body as never, { ip: ip(event), returnTo }))
    }),
  )
  app.post(
    '/api/auth/sign-up/confirm',
    account(async (event) => {
      const body = await readJson(event.req)
      return signedIn(await oauth.accounts.confirmSignUp(body.token, event.req.headers.get('user-agent')))
    }),
  )
  app.post(
    '/api/auth/request-password-reset',
    account(async (event) =>
      json(
        202,
        await oauth.accounts.requestPasswordReset((await readJson(event.req)) as never, { ip: ip(event) }),
      ),
    ),
  )
  app.post(
    '/api/auth/reset-password',
    account(async (event) =>
      signedIn(
        await oauth.accounts.resetPassword(
          (await readJson(event.req)) as never,
          event.req.headers.get('user-agent'),
        ),
      ),
    ),
  )
  app.post(
    '/api/auth/sign-in/email',
    account(async (event) =>
      signedIn(
        await oauth.accounts.signIn((await readJson(event.req)) as never, {
          ip: ip(event),
          userAgent: event.req.headers.get('user-agent'),
        }),
      ),
    ),
  )
  app.get(
    '/api/auth/session',
    account(async (event) => {
      const found = await oauth.accounts.fromCookie(readSessionCookie(event.req, issuer))
      if (!found) throw new ProblemError('unauthenticated', 'No one is signed in.')
      return json(200, {
        user: { id: found.user.id, email: found.user.email, name: found.user.name },
        session: { id: found.session.id, expiresAt: found.session.expiresAt },
      })
    }),
  )
  const signOut = async (event: H3Event) => {
    const token = readSessionCookie(event.req, issuer)
    if (token) await oauth.accounts.signOut(token)
    return sessionCookie(issuer, '', 0)
  }
  app.post(
    '/api/auth/sign-out',
    account(
      async (event) => new Response(null, { status: 204, headers: { 'set-cookie': await signOut(event) } }),
    ),
  )
  app.post('/sign-out', async (event) => {
    if (!sameOrigin(event.req, issuer, true)) return new Response('Refused', { status: 403 })
    // "Not you?" on the consent screen comes back to the same request once the right person signs in.
    const form = await readForm(event.req)
    const returnTo = safeReturnTo(form?.get('return_to') ?? null, issuer, '')
    const next = returnTo ? `/sign-in?return_to=${encodeURIComponent(returnTo)}` : '/sign-in'
    return seeOther(next, { 'set-cookie': await signOut(event) })
  })
}
