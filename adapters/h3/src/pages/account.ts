import { isProblem, type OAuthServer } from '@workgraph/core'
import { getRequestIP, type H3 } from 'h3'
import { safeReturnTo, sameOrigin, sessionCookie } from '../oauth/web-session.ts'
import { linkSentPage, registerAccountLinkPages } from './account-links.ts'
import { errorPage, escapeHtml, hidden, page, readForm, seeOther } from './html.ts'
import { WELCOME_PATH } from './welcome.ts'

// A newcomer goes on to create a workspace; someone signing in, to their account page.

function accountForm(kind: 'sign-in' | 'sign-up', returnTo: string, error?: string, email = ''): string {
  const signUp = kind === 'sign-up'
  const title = signUp ? 'Create your account' : 'Sign in'
  const other = signUp
    ? `<p>Have an account? <a href="/sign-in?return_to=${encodeURIComponent(returnTo)}">Sign in</a></p>`
    : `<p>New here? <a href="/sign-up?return_to=${encodeURIComponent(returnTo)}">Create an account</a></p>`
  return `<h1>${title}</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/${kind}">${hidden('return_to', returnTo)}
${signUp ? '<label for="name">Name</label><input id="name" name="name" type="text" autocomplete="name" maxlength="120">' : ''}
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(email)}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="${signUp ? 'new-password' : 'current-password'}"${signUp ? ' minlength="10"' : ''}>
<button type="submit" class="primary">${title}</button></form>${other}${signUp ? '' : '<p><a href="/reset-password">Forgot your password?</a></p>'}`
}

/** `/sign-in` and `/sign-up`, and the pages behind mailed links: HTML forms that work without JavaScript. */
export function registerAccountPages(app: H3, oauth: OAuthServer): void {
  const issuer = oauth.issuer
  registerAccountLinkPages(app, oauth)
  for (const kind of ['sign-in', 'sign-up'] as const) {
    const title = kind === 'sign-up' ? 'Create your account' : 'Sign in'
    app.get(`/${kind}`, (event) => {
      const returnTo = safeReturnTo(
        new URL(event.req.url).searchParams.get('return_to'),
        issuer,
        WELCOME_PATH,
      )
      return page(title, accountForm(kind, returnTo))
    })
    app.post(`/${kind}`, async (event) => {
      const request = event.req
      if (!sameOrigin(request, issuer, true))
        return errorPage('Refused', 'This form must be sent from this site.', 403)
      const form = await readForm(request)
      if (!form) return errorPage('Bad request', 'Send the form as application/x-www-form-urlencoded.', 400)
      const returnTo = safeReturnTo(form.get('return_to'), issuer, WELCOME_PATH)
      const input = { email: form.get('email'), password: form.get('password'), name: form.get('name') }
      try {
        const userAgent = request.headers.get('user-agent')
        const ip = getRequestIP(event) ?? 'unknown'
        if (kind === 'sign-up') {
          const sent = await oauth.accounts.signUp(input, { ip, returnTo })
          return linkSentPage(oauth, sent.email, 'sign-up')
        }
        const result = await oauth.accounts.signIn(input, { ip, userAgent })
        return seeOther(returnTo, {
          'set-cookie': sessionCookie(issuer, result.sessionToken, 30 * 24 * 3600),
        })
      } catch (error) {
        if (!isProblem(error)) throw error
        const status =
          error.status === 409 || error.status === 429 ? error.status : error.status === 401 ? 401 : 400
        return page(title, accountForm(kind, returnTo, error.message, input.email ?? ''), { status })
      }
    })
  }
}
