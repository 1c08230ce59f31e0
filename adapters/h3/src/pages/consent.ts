import {
  AuthorizePageError,
  AuthorizeRedirectError,
  type AuthorizeRequest,
  isLoopbackRedirect,
  type OAuthServer,
} from '@workgraph/core'
import type { H3 } from 'h3'
import { readSessionCookie, sameOrigin } from '../oauth/web-session.ts'
import { errorPage, escapeHtml, hidden, page, readForm, seeOther } from './html.ts'

function consentBody(
  request: AuthorizeRequest,
  query: URLSearchParams,
  csrf: string,
  oauth: OAuthServer,
  who: { name: string; email: string },
): string {
  const { client } = request
  const clientHost = /^https:\/\//.test(client.id) ? new URL(client.id).host : null
  const redirectHost = new URL(request.redirectUri).host
  const localOnly = client.redirectUris.every(isLoopbackRedirect)
  const scopes = request.scopes
    .map(
      (s) =>
        `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml((oauth.scopeMeanings as Record<string, string>)[s] ?? s)}</li>`,
    )
    .join('')
  const fields = [...query]
    .filter(([k]) => k !== 'csrf' && k !== 'decision')
    .map(([k, v]) => hidden(k, v))
    .join('')
  const back = `/oauth/authorize?${new URLSearchParams([...query].filter(([k]) => k !== 'csrf' && k !== 'decision'))}`
  return `<form method="post" action="/sign-out" class="who">Signed in as <strong>${escapeHtml(who.name)}</strong> (${escapeHtml(who.email)}). ${hidden('return_to', back)}<button type="submit" class="link">Not you? Sign out</button></form>
<h1>Allow ${escapeHtml(client.name)} to use your account?</h1>
<p>${clientHost ? `The app's identity is published at <code>${escapeHtml(clientHost)}</code>.` : 'The app registered itself with this server; its name is not verified.'}
After you decide, you go back to <code>${escapeHtml(redirectHost)}</code>.</p>
${localOnly ? '<p class="warn" role="note">This app only returns to your own computer (localhost). Allow it only if you started it yourself.</p>' : ''}
<p>It asks to:</p><ul class="scopes">${scopes}</ul>
<form method="post" action="/oauth/authorize">${fields}${hidden('csrf', csrf)}
<div class="choices"><button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></div></form>`
}

/** `/oauth/authorize`: the preflight, the sign-in detour, the consent screen and the decision. */
export function registerConsentPages(app: H3, oauth: OAuthServer): void {
  async function decide(query: URLSearchParams, request: Request, posted: boolean): Promise<Response> {
    let checked: AuthorizeRequest
    try {
      checked = await oauth.checkAuthorizeRequest(query)
    } catch (error) {
      if (error instanceof AuthorizeRedirectError)
        return seeOther(oauth.redirectError(error.redirectUri, error.state, error))
      if (error instanceof AuthorizePageError) return errorPage('This app cannot sign you in', error.message)
      throw error
    }
    const signedIn = await oauth.accounts.fromCookie(readSessionCookie(request, oauth.issuer))
    if (!signedIn) {
      if (checked.prompt === 'none')
        return seeOther(oauth.deny(checked, 'login_required', 'No one is signed in.'))
      const back = `/oauth/authorize?${query.toString()}`
      return seeOther(`/sign-in?return_to=${encodeURIComponent(back)}`)
    }
    const { user, session } = signedIn
    if (posted) {
      if (!(await oauth.checkConsentToken(session.tokenHash, query)))
        return errorPage('Refused', 'This decision was not made on this page; start again from the app.', 403)
      return seeOther(
        query.get('decision') === 'allow' ? await oauth.approve(user.id, checked) : oauth.deny(checked),
      )
    }
    if (checked.prompt !== 'consent' && (await oauth.hasConsent(user.id, checked)))
      return seeOther(await oauth.approve(user.id, checked))
    if (checked.prompt === 'none')
      return seeOther(oauth.deny(checked, 'consent_required', 'The person has not consented yet.'))
    const csrf = await oauth.consentToken(session.tokenHash, query)
    return page(`Allow ${checked.client.name}`, consentBody(checked, query, csrf, oauth, user))
  }

  app.get('/oauth/authorize', (event) => decide(new URL(event.req.url).searchParams, event.req, false))
  app.post('/oauth/authorize', async (event) => {
    if (!sameOrigin(event.req, oauth.issuer, true))
      return errorPage('Refused', 'This form must be sent from this site.', 403)
    const form = await readForm(event.req)
    if (!form) return errorPage('Bad request', 'Send the form as application/x-www-form-urlencoded.')
    return decide(form, event.req, true)
  })
}
