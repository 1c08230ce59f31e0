import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cliEnvironment, runCli, startCli, waitForOutput } from '../cli/support.ts'
import { signUpInBrowser } from '../support/browser-sign-up.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const CHROMIUM = '/usr/bin/chromium'
const required = process.env.WORKGRAPH_REQUIRE_BROWSER === '1'
const missing = !existsSync(CHROMIUM)
if (missing && required) throw new Error(`${CHROMIUM} is required (WORKGRAPH_REQUIRE_BROWSER=1) but missing`)

describeEachDatabase(
  `workgraph login in a browser${missing ? ' (skipped: no Debian chromium)' : ''}`,
  (db) => {
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
      'signs up, allows, lands on the loopback page; the token it prints calls the API',
      async () => {
        const env = cliEnvironment()
        const login = startCli(['login', '--server', server.url, '--no-browser'], env)
        const url = await waitForOutput(login, /http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/)

        const page = await browser.newPage()
        await page.goto(url)
        // Not signed in: the sign-in page, then "Create an account", which keeps where to come back.
        await page.getByRole('link', { name: 'Create an account' }).click()
        await signUpInBrowser(page, {
          name: 'Noor',
          email: `cli.browser.${Date.now()}@example.com`,
          password: 'correct horse battery staple',
        })
        await page.getByRole('button', { name: 'Allow' }).click()
        await page.getByText('You are signed in').waitFor({ timeout: 10_000 })
        expect(new URL(page.url()).pathname).toBe('/callback')
        await page.close()

        const loggedIn = await login.result
        expect(loggedIn.code, loggedIn.stderr).toBe(0)

        const printed = await runCli(['token'], env)
        expect(printed.code, printed.stderr).toBe(0)
        // What `curl -H "Authorization: Bearer $(workgraph token)" …/v1/orgs` does.
        const call = await fetch(`${server.url}/v1/orgs`, {
          headers: { authorization: `Bearer ${printed.stdout.trim()}` },
        })
        expect(call.status).toBe(200)
        expect(await call.json()).toEqual({ data: [], nextCursor: null })
      },
      90_000,
    )
  },
)
