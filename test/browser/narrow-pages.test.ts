/**
 * The consent screen and the Connected apps page on a 320 px wide phone: nothing scrolls sideways,
 * the screen says who is signed in (with a way out for someone else), and Allow looks unlike Deny.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cliEnvironment, startCli, waitForOutput } from '../cli/support.ts'
import { signUpInBrowser } from '../support/browser-sign-up.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const CHROMIUM = '/usr/bin/chromium'
const required = process.env.WORKGRAPH_REQUIRE_BROWSER === '1'
const missing = !existsSync(CHROMIUM)
if (missing && required) throw new Error(`${CHROMIUM} is required (WORKGRAPH_REQUIRE_BROWSER=1) but missing`)

// Callbacks run in the page; the test's TypeScript has no DOM library, so they reach it untyped.
const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.documentElement
    return root.scrollWidth - root.clientWidth
  })

describeEachDatabase(`pages on a 320 px screen${missing ? ' (skipped: no Debian chromium)' : ''}`, (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let browser: Browser
  beforeAll(async () => {
    if (missing) return
    server = await startTestServer(db)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.drop()
  })

  it.skipIf(missing)(
    'consent says who is signed in, lets someone else sign in instead, and fits; so does Connected apps',
    async () => {
      const login = startCli(['login', '--server', server.url, '--no-browser'], cliEnvironment())
      const url = await waitForOutput(login, /http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/)
      const email = `narrow.${Date.now()}@example.com`
      const password = 'correct horse battery staple'

      const context = await browser.newContext({ viewport: { width: 320, height: 640 } })
      const page = await context.newPage()
      await page.goto(url)
      await page.getByRole('link', { name: 'Create an account' }).click()
      await signUpInBrowser(page, { name: 'Noor Haddad', email: email, password: password })

      await page.getByText(`Signed in as Noor Haddad (${email})`).waitFor()
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      const allow = page.getByRole('button', { name: 'Allow' })
      const deny = page.getByRole('button', { name: 'Deny' })
      const look = (button: typeof allow) =>
        button.evaluate((b) => {
          const style = (globalThis as any).getComputedStyle(b)
          return `${style.backgroundColor} ${style.color}`
        })
      expect(await look(allow)).not.toBe(await look(deny))

      // "Not you?" signs out and comes back to this same request after signing in.
      await page.getByRole('button', { name: 'Not you? Sign out' }).click()
      expect(new URL(page.url()).pathname).toBe('/sign-in')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await allow.click()
      await page.getByText('You are signed in').waitFor({ timeout: 10_000 })
      expect((await login.result).code).toBe(0)

      await page.goto(`${server.url}/settings/connected-apps`)
      await page
        .getByRole('button', { name: /Revoke/ })
        .first()
        .waitFor()
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      // The table stacks into labelled lines: the date says what it is.
      const label = await page
        .locator('td[data-label="Since"]')
        .first()
        .evaluate((td) => (globalThis as any).getComputedStyle(td, '::before').content)
      expect(label).toBe('"Since: "')
      await context.close()
    },
    90_000,
  )
})
