/**
 * Sign-up never tells whether an address has an account, and a forgotten password is reset by a
 * mailed link that works once and ends the person's other web sessions.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { latestLink, mailsTo } from '../support/outbox.ts'
import { signUp } from './support.ts'

describeEachDatabase('sign-up by mailed link and password reset', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const api = (path: string, body: unknown, cookie?: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    })
  const signIn = (email: string, password: string) => api('/api/auth/sign-in/email', { email, password })
  const session = (cookie: string) => fetch(`${server.url}/api/auth/session`, { headers: { cookie } })
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')

  it('answers a known address exactly as a new one, and changes nothing for the known one', async () => {
    const known = await signUp(server.url)
    const fresh = `fresh.${Date.now()}@example.com`
    const asKnown = await api('/api/auth/sign-up/email', {
      email: known.email,
      password: 'another password!',
      name: 'X',
    })
    const asFresh = await api('/api/auth/sign-up/email', {
      email: fresh,
      password: 'another password!',
      name: 'X',
    })
    expect(asKnown.status).toBe(202)
    expect(asFresh.status).toBe(202)
    expect(Object.keys((await asKnown.json()) as object)).toEqual(
      Object.keys((await asFresh.json()) as object),
    )

    // The owner of the known address hears about it, with the way to reset; their password stands.
    expect(mailsTo(known.email).at(-1)!.subject).toBe('You already have a workgraph account')
    expect((await signIn(known.email, known.password)).status).toBe(200)
    expect((await signIn(known.email, 'another password!')).status).toBe(401)
    // The new address has no account until its link is used.
    expect((await signIn(fresh, 'another password!')).status).toBe(401)
    const confirmed = await api('/api/auth/sign-up/confirm', {
      token: tokenOf(latestLink(fresh, '/sign-up/confirm')),
    })
    expect(confirmed.status).toBe(200)
    expect((await signIn(fresh, 'another password!')).status).toBe(200)
  })

  it('uses a sign-up link once; opening it only shows a button, so a mail scanner cannot spend it', async () => {
    const email = `once.${Date.now()}@example.com`
    await api('/api/auth/sign-up/email', { email, password: 'correct horse battery', name: 'Once' })
    const link = latestLink(email, '/sign-up/confirm')
    const opened = await fetch(link)
    expect(opened.status).toBe(200)
    expect(await opened.text()).toContain('Create my account')

    const form = (token: string | null) =>
      fetch(`${server.url}/sign-up/confirm`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: token ?? '' }),
        redirect: 'manual',
      })
    const first = await form(tokenOf(link))
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe('/welcome')
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!
    expect(((await (await session(cookie)).json()) as any).user).toMatchObject({ email, name: 'Once' })

    const again = await form(tokenOf(link))
    expect(again.status).toBe(404)
    expect(await again.text()).toContain('used already, has expired')
    expect((await api('/api/auth/sign-up/confirm', { token: 'not-a-token' })).status).toBe(404)
    expect((await api('/api/auth/sign-up/confirm', [])).status).toBe(400)
  })

  it('resets a forgotten password by a link that works once and signs out everywhere else', async () => {
    const person = await signUp(server.url)
    const unknown = `nobody.${Date.now()}@example.com`
    const forUnknown = await api('/api/auth/request-password-reset', { email: unknown })
    const forPerson = await api('/api/auth/request-password-reset', { email: person.email })
    expect(forUnknown.status).toBe(202)
    expect(forPerson.status).toBe(202)
    expect(Object.keys((await forUnknown.json()) as object)).toEqual(
      Object.keys((await forPerson.json()) as object),
    )
    expect(mailsTo(unknown)).toEqual([])

    const token = tokenOf(latestLink(person.email, '/reset-password/confirm'))
    // Too short: refused, and the link stays usable.
    const weak = await api('/api/auth/reset-password', { token, password: 'short' })
    expect(weak.status).toBe(400)
    expect(((await weak.json()) as any).errors[0].pointer).toBe('/body/password')

    const reset = await api('/api/auth/reset-password', { token, password: 'a brand new passphrase' })
    expect(reset.status).toBe(200)
    const fresh = reset.headers.get('set-cookie')!.split(';')[0]!
    expect((await session(fresh)).status).toBe(200)
    expect((await session(person.cookie)).status).toBe(401)
    expect((await signIn(person.email, person.password)).status).toBe(401)
    expect((await signIn(person.email, 'a brand new passphrase')).status).toBe(200)

    const reused = await api('/api/auth/reset-password', { token, password: 'yet another passphrase' })
    expect(reused.status).toBe(404)
    expect((await signIn(person.email, 'a brand new passphrase')).status).toBe(200)
  })

  it('walks the reset pages without JavaScript', async () => {
    const person = await signUp(server.url)
    const signInPage = await (await fetch(`${server.url}/sign-in`)).text()
    expect(signInPage).toContain('href="/reset-password"')
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
        redirect: 'manual',
      })
    const asked = await form('/reset-password', { email: person.email })
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain('If an account uses')
    const link = latestLink(person.email, '/reset-password/confirm')
    expect(await (await fetch(link)).text()).toContain('Choose a new password')
    const done = await form('/reset-password/confirm', {
      token: tokenOf(link)!,
      password: 'page chosen passphrase',
    })
    expect(done.status).toBe(303)
    expect((await signIn(person.email, 'page chosen passphrase')).status).toBe(200)
  })
})
