import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUpInBrowser } from '../support/browser-sign-up.ts'
import { DATABASES } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'

const CHROMIUM = '/usr/bin/chromium'
const required = process.env.WORKGRAPH_REQUIRE_BROWSER === '1'
const missing = !existsSync(CHROMIUM)
if (missing && required) throw new Error(`${CHROMIUM} is required (WORKGRAPH_REQUIRE_BROWSER=1) but missing`)

// The page does not touch storage beyond starting the server, so one database is enough.
describe.skipIf(missing)(
  `the interactive reference in a browser${missing ? ' (skipped: no Debian chromium)' : ''}`,
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

    it('renders every operation from this server alone, with no request elsewhere and no CSP violation', async () => {
      const page = await browser.newPage()
      const requests: string[] = []
      const violations: string[] = []
      page.on('request', (request) => requests.push(request.url()))
      const failures: string[] = []
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
        if (message.type() === 'error' || /validation errors/i.test(message.text()))
          failures.push(message.text())
      })
      await page.goto(`${server.url}/v1/docs`)
      // Every tag of the catalogue is listed; the first group is open with its operation.
      await page.getByText('Read the service configuration').first().waitFor({ timeout: 20_000 })
      for (const tag of ['Orgs', 'Members', 'Teams', 'Workflow states', 'Tasks']) {
        await page.getByText(tag, { exact: true }).first().waitFor({ timeout: 5_000 })
      }
      const origin = new URL(server.url).origin
      expect(
        requests.filter(
          (url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'),
        ),
      ).toEqual([])
      expect(requests).toContain(`${origin}/v1/openapi.json`)
      expect(violations).toEqual([])
      // Scalar validates the document itself and logs what it cannot read; the document must pass.
      expect(failures).toEqual([])
      await page.close()
    })

    // A browser, a sign-up and the reference's own client: past the default timeout on a loaded machine.
    it('signs in from the page through this server, with PKCE, and tries an operation with that token', {
      timeout: 90_000,
    }, async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      const authorize: URL[] = []
      context.on('request', (request) => {
        const url = new URL(request.url())
        if (url.pathname === '/oauth/authorize') authorize.push(url)
      })
      await page.goto(`${server.url}/v1/docs`)
      await page.getByText('Read the service configuration').first().waitFor({ timeout: 20_000 })
      // The built-in client is filled in: Authorize opens this server's sign-in in a window.
      const [window] = await Promise.all([
        context.waitForEvent('page'),
        page.getByRole('button', { name: 'Authorize' }).first().click(),
      ])
      await window.getByRole('link', { name: 'Create an account' }).waitFor()
      expect(authorize[0]?.searchParams.get('client_id')).toBe('workgraph-api-reference')
      expect(authorize[0]?.searchParams.get('code_challenge_method')).toBe('S256')
      await window.getByRole('link', { name: 'Create an account' }).click()
      const email = `docs.reader.${Date.now()}@example.com`
      await signUpInBrowser(window, { name: 'Ada', email })
      // The window returns to the callback page, where the reference takes the code and closes it,
      // often before the click returns on a busy machine: wait for the close from before the click.
      const closed = window.waitForEvent('close')
      await window.getByRole('button', { name: 'Allow' }).click()
      await closed
      await page.getByRole('button', { name: 'Clear' }).first().waitFor()

      const sent: (string | undefined)[] = []
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/me') sent.push(request.headers().authorization)
      })
      await page
        .getByRole('button', { name: /^Me\s+Open Group$/ })
        .first()
        .click()
      await page.getByText('Who am I').first().click()
      await page
        .getByRole('button', { name: /Test Request.*\/v1\/me\)/ })
        .first()
        .click()
      await page.getByRole('button', { name: /^Send/ }).first().click()
      await page.getByText(email).first().waitFor({ timeout: 10_000 })
      expect(sent).toHaveLength(1)
      expect(sent[0]).toMatch(/^Bearer ey/)
      await context.close()
    })
  },
)
