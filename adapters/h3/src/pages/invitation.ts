import { type Engine, type OAuthServer, ProblemError, previewInvitation, type UserId } from '@workgraph/core'
import type { H3 } from 'h3'
import { readSessionCookie, sameOrigin } from '../oauth/web-session.ts'
import { errorPage, escapeHtml, hidden, page, readForm, seeOther } from './html.ts'

const PATH = '/invitations/accept'

/** "an admin", "a member", "a guest", "an owner". */
const article = (role: string) => (/^[aeiou]/.test(role) ? 'an' : 'a')

/**
 * `/invitations/accept?token=…`, the link in the invitation mail. Opening it changes nothing (mail
 * clients prefetch links): it asks the signed-in person to press Accept, and the form post accepts
 * through the same `invitations.accept` operation the API offers.
 */
export function registerInvitationPage(app: H3, engine: Engine, oauth: OAuthServer): void {
  const formToken = (sessionHash: string, token: string) =>
    oauth.consentToken(sessionHash, new URLSearchParams({ invitation: token }))
  const here = (token: string) => `${PATH}?token=${encodeURIComponent(token)}`
  // The page acts for the signed-in person, as the first-party app it is: the operation's scope, no client.
  const asPerson = (userId: UserId) => ({ userId, scopes: new Set(['work:read', 'work:write']) })

  app.get(PATH, async (event) => {
    const token = new URL(event.req.url).searchParams.get('token') ?? ''
    if (!token)
      return errorPage('No invitation', 'This link has no invitation token; open the link from the mail.')
    const signedIn = await oauth.accounts.fromCookie(readSessionCookie(event.req, oauth.issuer))
    if (!signedIn) return seeOther(`/sign-in?return_to=${encodeURIComponent(here(token))}`)
    const invitation = await previewInvitation(engine.storage, token, engine.clock().toISOString())
    if (!invitation || invitation.state !== 'pending')
      return errorPage(
        'Invitation not usable',
        'This invitation link is used, revoked or expired; ask the person who invited you for a new one.',
        410,
      )
    const from = invitation.inviterName
      ? `${escapeHtml(invitation.inviterName)} invited you`
      : 'You were invited'
    const mismatch =
      invitation.email !== signedIn.user.email.toLowerCase()
        ? `<p class="warn" role="status">It was sent to <strong>${escapeHtml(invitation.email)}</strong>: sign in as that address to accept it.</p>`
        : ''
    return page(
      `Join ${invitation.orgName}`,
      `<h1>Join ${escapeHtml(invitation.orgName)}</h1><p>${from} to join <strong>${escapeHtml(invitation.orgName)}</strong>
as ${article(invitation.role)} <strong>${escapeHtml(invitation.role)}</strong>. You are signed in as
<strong>${escapeHtml(signedIn.user.email)}</strong>.</p>${mismatch}
<form method="post" action="${PATH}">${hidden('token', token)}${hidden('csrf', await formToken(signedIn.session.tokenHash, token))}
<button type="submit">Accept the invitation</button></form>
<form method="post" action="/sign-out"><button type="submit">Sign in as someone else</button></form>`,
    )
  })

  app.post(PATH, async (event) => {
    if (!sameOrigin(event.req, oauth.issuer, true))
      return errorPage('Refused', 'This form must be sent from this site.', 403)
    const form = await readForm(event.req)
    const token = form?.get('token') ?? ''
    const signedIn = await oauth.accounts.fromCookie(readSessionCookie(event.req, oauth.issuer))
    if (!signedIn) return seeOther(`/sign-in?return_to=${encodeURIComponent(here(token))}`)
    if (!form || form.get('csrf') !== (await formToken(signedIn.session.tokenHash, token)))
      return errorPage('Refused', 'Reload the page and try again.', 403)
    const person = asPerson(signedIn.user.id)
    try {
      const member = (await engine.execute('invitations.accept', { body: { token } }, person)).body as {
        orgId: string
        role: string
      }
      const org = (await engine.execute('orgs.get', { params: { orgId: member.orgId } }, person)).body as {
        name: string
      }
      return page(
        'You joined',
        `<h1>You joined ${escapeHtml(org.name)}</h1><p>You joined as ${article(member.role)} <strong>${escapeHtml(member.role)}</strong>.
Work in it through the API (<a href="/v1/docs">reference</a>), the <code>workgraph</code> command line, or an MCP assistant.</p>
<p><a href="/welcome">Your workspaces</a> · <a href="/settings/connected-apps">Your connected apps</a></p>`,
      )
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error
      return errorPage('Invitation not accepted', error.message, error.status)
    }
  })
}
