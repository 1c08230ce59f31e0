import type { ConsentId, OAuthServer } from '@workgraph/core'
import type { H3 } from 'h3'
import { readSessionCookie, sameOrigin } from '../oauth/web-session.ts'
import { errorPage, escapeHtml, hidden, page, readForm, seeOther } from './html.ts'
import { settingsNav } from './settings.ts'

const PATH = '/settings/connected-apps'

/** `/settings/connected-apps`: the person's consents, each with a revoke button. */
export function registerConnectedAppsPage(app: H3, oauth: OAuthServer): void {
  const revokeToken = (sessionHash: string, id: string) =>
    oauth.consentToken(sessionHash, new URLSearchParams({ revoke: id }))

  app.get(PATH, async (event) => {
    const signedIn = await oauth.accounts.fromCookie(readSessionCookie(event.req, oauth.issuer))
    if (!signedIn) return seeOther(`/sign-in?return_to=${encodeURIComponent(PATH)}`)
    const grants = await oauth.consents(signedIn.user.id)
    const rows = await Promise.all(
      grants.map(
        async (
          g,
        ) => `<tr><td>${escapeHtml(g.clientName)}<br><small><code>${escapeHtml(g.clientId)}</code></small></td>
<td data-label="Allowed">${g.scopes.map(escapeHtml).join(', ')}</td><td data-label="Since">${escapeHtml(g.updatedAt.slice(0, 10))}</td>
<td><form method="post" action="${PATH}/revoke">${hidden('id', g.id)}${hidden('csrf', await revokeToken(signedIn.session.tokenHash, g.id))}
<button type="submit" aria-label="Revoke ${escapeHtml(g.clientName)}">Revoke</button></form></td></tr>`,
      ),
    )
    const table = rows.length
      ? `<table><thead><tr><th>App</th><th>Allowed</th><th>Since</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '<p>No app is connected to your account.</p>'
    return page(
      'Connected apps',
      `<h1>Connected apps</h1>${settingsNav('connected-apps')}<p>Signed in as ${escapeHtml(signedIn.user.email)}.</p>${table}
<p>Revoking an app ends its access at once; it must ask you again.</p>
<form method="post" action="/sign-out"><button type="submit">Sign out</button></form>`,
    )
  })

  app.post(`${PATH}/revoke`, async (event) => {
    if (!sameOrigin(event.req, oauth.issuer, true))
      return errorPage('Refused', 'This form must be sent from this site.', 403)
    const signedIn = await oauth.accounts.fromCookie(readSessionCookie(event.req, oauth.issuer))
    if (!signedIn) return seeOther(`/sign-in?return_to=${encodeURIComponent(PATH)}`)
    const form = await readForm(event.req)
    const id = form?.get('id') ?? ''
    const expected = await revokeToken(signedIn.session.tokenHash, id)
    if (!form || form.get('csrf') !== expected)
      return errorPage('Refused', 'Reload the page and try again.', 403)
    await oauth.revokeConsent(signedIn.user.id, id as ConsentId)
    return seeOther(PATH)
  })
}
