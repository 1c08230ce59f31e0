import { isProblem, type OAuthServer, RESET_LINK_MINUTES, SIGN_UP_LINK_HOURS } from '@workgraph/core'
import { getRequestIP, type H3 } from 'h3'
import { sameOrigin, sessionCookie } from '../oauth/web-session.ts'
import { errorPage, escapeHtml, hidden, page, readForm, seeOther } from './html.ts'
import { WELCOME_PATH } from './welcome.ts'

const SESSION_SECONDS = 30 * 24 * 3600

/** The page after a sign-up or reset request: the same words whether or not the address has an account. */
export function linkSentPage(oauth: OAuthServer, email: string, what: 'sign-up' | 'reset'): Response {
  const body =
    what === 'sign-up'
      ? `<p>We sent a link to <strong>${escapeHtml(email)}</strong>. Open it within ${SIGN_UP_LINK_HOURS} hours to finish creating your account.</p>`
      : `<p>If an account uses <strong>${escapeHtml(email)}</strong>, we sent it a link to choose a new password. It works once, within ${RESET_LINK_MINUTES} minutes.</p>`
  const note = oauth.accounts.mailNote
    ? `<p class="warn" role="note">${escapeHtml(oauth.accounts.mailNote)}</p>`
    : ''
  return page('Check your email', `<h1>Check your email</h1>${body}${note}`)
}

/**
 * The pages behind the mailed links. Opening a link shows a button; only posting it uses the link,
 * so a mail scanner that fetches links cannot spend them.
 */
export function registerAccountLinkPages(app: H3, oauth: OAuthServer): void {
  const issuer = oauth.issuer
  const refuseForeign = (request: Request) =>
    sameOrigin(request, issuer, true)
      ? null
      : errorPage('Refused', 'This form must be sent from this site.', 403)

  app.get('/sign-up/confirm', (event) => {
    const token = new URL(event.req.url).searchParams.get('token') ?? ''
    return page(
      'Finish creating your account',
      `<h1>Finish creating your account</h1><form method="post" action="/sign-up/confirm">${hidden('token', token)}
<button type="submit" class="primary">Create my account</button></form>`,
    )
  })
  app.post('/sign-up/confirm', async (event) => {
    const refused = refuseForeign(event.req)
    if (refused) return refused
    const form = await readForm(event.req)
    try {
      const done = await oauth.accounts.confirmSignUp(form?.get('token'), event.req.headers.get('user-agent'))
      return seeOther(done.returnTo ?? WELCOME_PATH, {
        'set-cookie': sessionCookie(issuer, done.sessionToken, SESSION_SECONDS),
      })
    } catch (error) {
      if (!isProblem(error)) throw error
      return errorPage('This link does not work', error.message, error.status)
    }
  })

  app.get('/reset-password', () =>
    page(
      'Reset your password',
      `<h1>Reset your password</h1><form method="post" action="/reset-password">
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="email">
<button type="submit" class="primary">Send me a link</button></form><p><a href="/sign-in">Back to sign-in</a></p>`,
    ),
  )
  app.post('/reset-password', async (event) => {
    const refused = refuseForeign(event.req)
    if (refused) return refused
    const form = await readForm(event.req)
    const email = form?.get('email') ?? ''
    try {
      const sent = await oauth.accounts.requestPasswordReset(
        { email },
        { ip: getRequestIP(event) ?? 'unknown' },
      )
      return linkSentPage(oauth, sent.email, 'reset')
    } catch (error) {
      if (!isProblem(error)) throw error
      return errorPage('Reset your password', error.message, error.status === 429 ? 429 : 400)
    }
  })

  const newPasswordForm = (token: string, error?: string) =>
    `<h1>Choose a new password</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/reset-password/confirm">${hidden('token', token)}
<label for="password">New password</label><input id="password" name="password" type="password" required minlength="10" autocomplete="new-password">
<button type="submit" class="primary">Set the password and sign in</button></form>`
  app.get('/reset-password/confirm', (event) =>
    page('Choose a new password', newPasswordForm(new URL(event.req.url).searchParams.get('token') ?? '')),
  )
  app.post('/reset-password/confirm', async (event) => {
    const refused = refuseForeign(event.req)
    if (refused) return refused
    const form = await readForm(event.req)
    const token = form?.get('token') ?? ''
    try {
      const signedIn = await oauth.accounts.resetPassword(
        { token, password: form?.get('password') },
        event.req.headers.get('user-agent'),
      )
      return seeOther('/settings/connected-apps', {
        'set-cookie': sessionCookie(issuer, signedIn.sessionToken, SESSION_SECONDS),
      })
    } catch (error) {
      if (!isProblem(error)) throw error
      // A weak password keeps the form (the link is still unused); a spent link cannot be retried.
      if (error.code === 'validation_failed')
        return page('Choose a new password', newPasswordForm(token, error.message), { status: 400 })
      return errorPage('This link does not work', error.message, error.status)
    }
  })
}
