import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUpInBrowser } from '../support/browser-sign-up.ts'
import { DATABASES } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'
import { pkce, register, tokenRequest } from './support.ts'

const CHROMIUM = '/usr/bin/chromium'
const required = process.env.WORKGRAPH_REQUIRE_BROWSER === '1'
const missing = !existsSync(CHROMIUM)
if (missing && required) throw new Error(`${CHROMIUM} is required (WORKGRAPH_REQUIRE_BROWSER=1) but missing`)

// The storage paths are covered on both databases by the other suites; the pages need one.
describe.skipIf(missing)(
  `the OAuth pages in a browser${missing ? ' (skipped: no Debian chromium)' : ''}`,
  () => {
    let server: Awaited<ReturnType<typeof startTestServer>>
    let browser: Browser
    beforeAll(async () => {
      server = await startTestServer(DATABASES[0]!)
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      })
    })
    afterAll(async () => {
      await browser?.close()
      await server?.drop()
    })

    it('signs up, consents, connects, and revokes in Connected apps, without JavaScript or foreign requests', async () => {
      const base = server.url
      const redirect = 'http://127.0.0.1:8976/callback'
      const client = (await register(base, { client_name: 'Browser Flow App', redirect_uris: [redirect] }))
        .body
      const { verifier, challenge } = pkce()
      const context = await browser.newContext({ javaScriptEnabled: false })
      const page = await context.newPage()
      const requests: string[] = []
      const violations: string[] = []
      page.on('request', (r) => requests.push(r.url()))
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
      })
      let callback: URL | null = null
      await page.route(`${redirect}**`, async (route) => {
        callback = new URL(route.request().url())
        await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' })
      })

      const authorize = `${base}/oauth/authorize?${new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'work:read work:write offline_access',
        state: 'browser-state',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: `${base}/v1`,
      })}`
      await page.goto(authorize)
      expect(new URL(page.url()).pathname).toBe('/sign-in')
      await page.getByRole('link', { name: 'Create an account' }).click()
      expect(new URL(page.url()).pathname).toBe('/sign-up')
      await signUpInBrowser(page, {
        name: 'Browser Person',
        email: `browser.${Date.now()}@example.com`,
        password: 'a long enough password',
      })

      await page
        .getByRole('heading', { name: 'Allow Browser Flow App to use your account?' })
        .waitFor({ timeout: 5000 })
      expect(await page.getByText('only returns to your own computer').count()).toBe(1)
      expect(await page.getByText('create tasks; update and organize projects').count()).toBe(1)
      await page.getByRole('button', { name: 'Allow' }).click()
      await page.getByText('back in the app').waitFor({ timeout: 5000 })
      const cb = callback as URL | null
      expect(cb?.searchParams.get('state')).toBe('browser-state')
      expect(cb?.searchParams.get('iss')).toBe(base)

      const tokens = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code: cb!.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: redirect,
        resource: `${base}/v1`,
      })
      expect(tokens.status).toBe(200)
      const call = () => server.request('GET', '/v1/orgs', { token: tokens.body.access_token })
      expect((await call()).status).toBe(200)

      await page.goto(`${base}/settings/connected-apps`)
      await page
        .getByRole('cell', { name: /Browser Flow App/ })
        .first()
        .waitFor({ timeout: 5000 })
      await page.getByRole('button', { name: 'Revoke Browser Flow App' }).click()
      await page.getByText('No app is connected to your account.').waitFor({ timeout: 5000 })
      expect((await call()).status).toBe(401)

      const origin = new URL(base).origin
      expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith(redirect))).toEqual([])
      expect(violations).toEqual([])
      await context.close()
    })
  },
)
