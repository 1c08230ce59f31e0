import { type Engine, isProblem, type OAuthServer, type UserId } from '@workgraph/core'
import type { H3 } from 'h3'
import { readSessionCookie, sameOrigin } from '../oauth/web-session.ts'
import { errorPage, escapeHtml, hidden, page, readForm, seeOther } from './html.ts'

export const WELCOME_PATH = '/welcome'

interface Org {
  id: string
  name: string
}
interface Member {
  role: string
}

const field = (id: string, label: string, attrs: string) =>
  `<label for="${id}">${label}</label><input id="${id}" name="${id}" ${attrs}>`

/**
 * `/welcome`, where sign-up leads: a newcomer creates their first workspace and team there, sees the
 * workspaces they belong to, and invites people to them. Every change goes through the same
 * operations the API offers (`orgs.create`, `teams.create`, `invitations.create`), as the person.
 */
export function registerWelcomePage(app: H3, engine: Engine, oauth: OAuthServer): void {
  // The page acts for the signed-in person, as the first-party app it is: the operation's scope, no client.
  const asPerson = (userId: UserId) => ({ userId, scopes: new Set(['work:read', 'work:write']) })
  const formToken = (sessionHash: string, action: string) =>
    oauth.consentToken(sessionHash, new URLSearchParams({ welcome: action }))
  const run = async (id: string, input: object, userId: UserId) =>
    (await engine.execute(id, input, asPerson(userId))).body

  const signedIn = (request: Request) => oauth.accounts.fromCookie(readSessionCookie(request, oauth.issuer))

  async function render(request: Request, notice?: { error?: string; done?: string }): Promise<Response> {
    const who = await signedIn(request)
    if (!who) return seeOther(`/sign-in?return_to=${encodeURIComponent(WELCOME_PATH)}`)
    const orgs = ((await run('orgs.list', { query: { limit: 50 } }, who.user.id)) as { data: Org[] }).data
    const create = await formToken(who.session.tokenHash, 'create')
    const invite = await formToken(who.session.tokenHash, 'invite')
    const status = notice?.error
      ? `<p class="error" role="alert">${escapeHtml(notice.error)}</p>`
      : notice?.done
        ? `<p class="warn" role="status">${escapeHtml(notice.done)}</p>`
        : ''
    const yours =
      orgs.length === 0
        ? '<p>You are in no workspace yet. Create one below, or open the link from an invitation mail to join one.</p>'
        : `<h2>Your workspaces</h2><table><tr><th>name</th><th>id</th><th>read it</th></tr>${orgs
            .map(
              (o) =>
                `<tr><td>${escapeHtml(o.name)}</td><td><code>${o.id}</code></td><td><a href="/v1/orgs/${o.id}/teams">teams</a> · <a href="/v1/orgs/${o.id}/tasks">tasks</a> (JSON, with a token: see below)</td></tr>`,
            )
            .join('')}</table>
<h2>Invite someone</h2><form method="post" action="${WELCOME_PATH}/invite">${hidden('csrf', invite)}
<label for="orgId">Workspace</label><select id="orgId" name="orgId">${orgs
            .map((o) => `<option value="${o.id}">${escapeHtml(o.name)}</option>`)
            .join('')}</select>
${field('email', 'Their email', 'type="email" required autocomplete="off"')}
<label for="role">Role</label><select id="role" name="role"><option value="member">member</option><option value="admin">admin</option><option value="guest">guest</option></select>
<button type="submit">Send the invitation</button></form>`
    return page(
      'Welcome',
      `<h1>Welcome, ${escapeHtml(who.user.name || who.user.email)}</h1>${status}${yours}
<h2>Create a workspace</h2><form method="post" action="${WELCOME_PATH}">${hidden('csrf', create)}
${field('workspace', 'Workspace name', 'type="text" required maxlength="120" placeholder="Acme"')}
${field('team', 'First team', 'type="text" required maxlength="120" placeholder="Engineering"')}
${field('key', 'Team key (prefix of task keys, like ENG in ENG-42)', 'type="text" required maxlength="7" pattern="[A-Za-z][A-Za-z0-9]{0,6}" placeholder="ENG"')}
<button type="submit">Create the workspace</button></form>
<h2>Work with it</h2>
<p>From a checkout of workgraph, the command line signs you in to this server and calls its API:</p>
<pre><code>npx workgraph login --server ${escapeHtml(oauth.issuer)}
npx workgraph api GET /v1/orgs
npx workgraph seed --demo</code></pre>
<p>The <a href="/v1/docs">API reference</a> lists every operation; its <strong>Authorize</strong> button signs you in so you can try them from the page.
An MCP assistant connects at <code>${escapeHtml(oauth.issuer)}/mcp</code>.
Apps you allowed are in <a href="/settings/connected-apps">Connected apps</a>.</p>`,
    )
  }

  app.get(WELCOME_PATH, (event) => render(event.req))

  /** A form post from this site, by the signed-in person, with the form's token; else a refusal page. */
  async function accepted(
    request: Request,
    action: string,
  ): Promise<{ refusal: Response } | { form: URLSearchParams; userId: UserId }> {
    if (!sameOrigin(request, oauth.issuer, true))
      return { refusal: errorPage('Refused', 'This form must be sent from this site.', 403) }
    const form = await readForm(request)
    const who = await signedIn(request)
    if (!who) return { refusal: seeOther(`/sign-in?return_to=${encodeURIComponent(WELCOME_PATH)}`) }
    if (!form || form.get('csrf') !== (await formToken(who.session.tokenHash, action)))
      return { refusal: errorPage('Refused', 'Reload the page and try again.', 403) }
    return { form, userId: who.user.id }
  }

  app.post(WELCOME_PATH, async (event) => {
    const checked = await accepted(event.req, 'create')
    if ('refusal' in checked) return checked.refusal
    const { form, userId } = checked
    try {
      const org = (await run('orgs.create', { body: { name: form.get('workspace') ?? '' } }, userId)) as Org
      try {
        await run(
          'teams.create',
          {
            params: { orgId: org.id },
            body: { name: form.get('team') ?? '', key: (form.get('key') ?? '').toUpperCase() },
          },
          userId,
        )
      } catch (error) {
        if (!isProblem(error)) throw error
        return render(event.req, {
          error: `The workspace ${org.name} was created, but not its team: ${error.message} Create the team through the API or the CLI.`,
        })
      }
      return render(event.req, { done: `Created ${org.name} with its first team.` })
    } catch (error) {
      if (!isProblem(error)) throw error
      return render(event.req, { error: error.message })
    }
  })

  app.post(`${WELCOME_PATH}/invite`, async (event) => {
    const checked = await accepted(event.req, 'invite')
    if ('refusal' in checked) return checked.refusal
    const { form, userId } = checked
    const email = form.get('email') ?? ''
    try {
      const member = (await run(
        'invitations.create',
        { params: { orgId: form.get('orgId') ?? '' }, body: { email, role: form.get('role') ?? 'member' } },
        userId,
      )) as Member
      return render(event.req, { done: `Invited ${email} as ${member.role}; the mail holds their link.` })
    } catch (error) {
      if (!isProblem(error)) throw error
      return render(event.req, { error: error.message })
    }
  })
}
