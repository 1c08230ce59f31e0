import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
  },
)
