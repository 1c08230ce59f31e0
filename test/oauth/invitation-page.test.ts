import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { latestLink } from '../support/outbox.ts'
import { newWorkspace } from '../support/workspace.ts'
import { consentFields, signUp } from './support.ts'

describeEachDatabase('the invitation link page', (db) => {
  const mails: { to: string; link: string }[] = []
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { mailer: { send: async (m) => void mails.push(m) } })
  })
  afterAll(() => server.drop())

  async function invite(email: string) {
    const ws = await newWorkspace(server)
    const sent = await ws.api.post(`/v1/orgs/${ws.orgId}/invitations`, { email, role: 'member' })
    expect(sent.status).toBe(201)
    const mail = mails.findLast((m) => m.to === email)!
    return { ws, link: new URL(mail.link) }
  }

  const post = (cookie: string, form: URLSearchParams) =>
    fetch(`${server.url}/invitations/accept`, {
      method: 'POST',
      headers: { cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    })

  it('sends a newcomer through sign-up and back, then accepts on Accept, once', async () => {
    const email = `invited.${Date.now()}@example.com`
    const { ws, link } = await invite(email)
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/invitations/accept`)

    // Opening the link signed out goes to sign-in, which comes back to the link.
    const anonymous = await fetch(link, { redirect: 'manual' })
    expect(anonymous.status).toBe(303)
    const signIn = new URL(anonymous.headers.get('location')!, server.url)
    expect(signIn.pathname).toBe('/sign-in')
    const returnTo = signIn.searchParams.get('return_to')!
    expect(returnTo).toBe(`${link.pathname}${link.search}`)
    const signedUp = await fetch(`${server.url}/sign-up`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email,
        password: 'correct horse battery staple',
        name: 'Ines',
        return_to: returnTo,
      }),
      redirect: 'manual',
    })
    expect(signedUp.status).toBe(200)
    expect(await signedUp.text()).toContain('Check your email')
    // The mailed link finishes the sign-up and comes back to the invitation.
    const confirm = new URL(latestLink(email, '/sign-up/confirm'))
    const confirmed = await fetch(`${server.url}/sign-up/confirm`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: confirm.searchParams.get('token')! }),
      redirect: 'manual',
    })
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('location')).toBe(returnTo)
    const cookie = confirmed.headers.get('set-cookie')!.split(';')[0]!

    // Opening it changes nothing; the page asks.
    const shown = await fetch(new URL(returnTo, server.url), { headers: { cookie } })
    expect(shown.status).toBe(200)
    const html = await shown.text()
    expect(html).toContain(email)
    expect(html).toContain('Accept the invitation')
    // It names the workspace, who invited, and the role, before anyone accepts.
    expect(html).toContain('<h1>Join Acme</h1>')
    expect(html).toMatch(/\S+ invited you to join <strong>Acme<\/strong>\s+as a <strong>member<\/strong>/)
    expect(html).not.toContain('sign in as that address')
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data).toHaveLength(1)

    const accepted = await post(cookie, consentFields(html))
    expect(accepted.status).toBe(200)
    const joined = await accepted.text()
    expect(joined).toContain('You joined Acme')
    expect(joined).toContain('You joined as a <strong>member</strong>.')
    expect(joined).toContain('href="/welcome"')
    const members = (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data
    expect(members.find((m: { email: string }) => m.email === email)).toMatchObject({ role: 'member' })

    // The token works once.
    const again = await post(cookie, consentFields(html))
    expect(again.status).toBe(410)
    expect(await again.text()).toContain('used, revoked or expired')
    const reopened = await fetch(new URL(returnTo, server.url), { headers: { cookie } })
    expect(reopened.status).toBe(410)
    expect(await reopened.text()).toContain('ask the person who invited you for a new one')
  })

  it('refuses another person, a forged form and a post from elsewhere', async () => {
    const { link } = await invite(`someone.${Date.now()}@example.com`)
    const other = await signUp(server.url)
    const html = await (await fetch(link, { headers: { cookie: other.cookie } })).text()
    // The page says at once that the invitation is for another address.
    expect(html).toMatch(
      /It was sent to <strong>someone\.\d+@example\.com<\/strong>: sign in as that address/,
    )
    const form = consentFields(html)

    const forged = new URLSearchParams(form)
    forged.set('csrf', 'x'.repeat(43))
    expect((await post(other.cookie, forged)).status).toBe(403)
    const elsewhere = await fetch(`${server.url}/invitations/accept`, {
      method: 'POST',
      headers: {
        cookie: other.cookie,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form,
    })
    expect(elsewhere.status).toBe(403)

    const mismatch = await post(other.cookie, form)
    expect(mismatch.status).toBe(403)
    expect(await mismatch.text()).toContain('sent to another address')
  })
})
