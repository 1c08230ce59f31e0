import { type Engine, UNSUBSCRIBE_PATH } from '@workgraph/core'
import type { H3 } from 'h3'
import { errorPage, escapeHtml, hidden, page } from './html.ts'

const INVALID =
  'This unsubscribe link is not valid: it was changed or cut. Use the link from the mail itself, or change your mail delivery in your preferences.'

/**
 * One-click unsubscribe from notification mail (RFC 8058), outside `/v1`: no sign-in, the link's
 * token is an HMAC of the person and what it turns off, so only the mail's own link works. A mail
 * client POSTs `List-Unsubscribe=One-Click` to it; a person who opens the link gets a page whose
 * button POSTs the same (a GET never unsubscribes: link scanners open every link in a mail).
 */
export function registerUnsubscribePage(app: H3, engine: Engine): void {
  const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? ''
  app.get(UNSUBSCRIBE_PATH, (event) => {
    const token = tokenOf(event.req)
    return page(
      'Unsubscribe',
      `<h1>Stop notification mail?</h1><p>Your notifications stay in your inbox in the app; only mail stops. You can turn it on again in your preferences.</p>
<form method="post" action="${UNSUBSCRIBE_PATH}?token=${escapeHtml(encodeURIComponent(token))}">${hidden('List-Unsubscribe', 'One-Click')}<button type="submit" class="primary">Unsubscribe</button></form>`,
    )
  })
  app.post(UNSUBSCRIBE_PATH, async (event) => {
    if (!(await engine.unsubscribeMail(tokenOf(event.req)))) return errorPage('Unsubscribe', INVALID, 400)
    return page(
      'Unsubscribed',
      '<h1>You are unsubscribed</h1><p>No more notification mail will be sent to you. Your preferences (<code>notificationDelivery</code>) can turn it on again.</p>',
    )
  })
}
