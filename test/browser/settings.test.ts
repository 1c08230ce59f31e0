/**
 * The account settings in a browser: a person signs up, creates a workspace, and changes their
 * profile, preferences and notification settings through the pages; then, signed in on a second
 * browser, signs that one out from the web sessions page. No page runs a script, and the CSP holds.
 */
import { existsSync } from 'node:fs'
import type { UserId } from '@workgraph/core'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signUpInBrowser } from '../support/browser-sign-up.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const CHROMIUM = '/usr/bin/chromium'
const required = process.env.WORKGRAPH_REQUIRE_BROWSER === '1'
const missing = !existsSync(CHROMIUM)
if (missing && required) throw new Error(`${CHROMIUM} is required (WORKGRAPH_REQUIRE_BROWSER=1) but missing`)

describeEachDatabase(
  `the settings pages in a browser${missing ? ' (skipped: no Debian chromium)' : ''}`,
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

    /** CSP violations, script errors and failed loads (the browser's own favicon probe aside). */
    const watch = (page: Page) => {
      const problems: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text())
      })
      page.on('response', (r) => {
        if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico')
          problems.push(`${r.status()} ${r.url()}`)
      })
      page.on('pageerror', (e) => problems.push(e.message))
      return problems
    }

    it.skipIf(missing)(
      'changes profile, preferences and notification settings, and signs another browser out',
      async () => {
        const email = `noor.${Date.now()}@example.com`
        const password = 'correct horse battery staple'
        const first = await browser.newContext({ userAgent: 'First browser' })
        const page = await first.newPage()
        const problems = watch(page)
        await page.goto(`${server.url}/sign-up`)
        await signUpInBrowser(page, { name: 'Noor', email, password })
        await page.getByRole('heading', { name: 'Welcome, Noor' }).waitFor()
        await page.getByLabel('Workspace name').fill('Orbital')
        await page.getByLabel('First team').fill('Flight')
        await page.getByLabel('Team key').fill('FLT')
        await page.getByRole('button', { name: 'Create the workspace' }).click()
        await page.getByText('Created Orbital with its first team.').waitFor()

        // Profile: a bad time zone is refused with the field named; a good one is saved.
        const profile = await page.goto(`${server.url}/settings`)
        expect(new URL(page.url()).pathname).toBe('/settings/profile')
        expect(profile!.headers()['content-security-policy']).toContain("default-src 'none'")
        await page.getByRole('heading', { name: 'Profile' }).waitFor()
        await page.getByLabel('Time zone').fill('Mars/Olympus')
        await page.getByRole('button', { name: 'Save the profile' }).click()
        await expect(page.getByRole('alert').textContent()).resolves.toContain('timeZone')
        await page.getByLabel('Name').fill('Noor Haddad')
        await page.getByLabel('Time zone').fill('Europe/Paris')
        await page.getByLabel('Language').fill('fr-fr')
        await page.getByRole('button', { name: 'Save the profile' }).click()
        await page.getByText('Your profile is saved.').waitFor()
        expect(await page.getByLabel('Language').inputValue()).toBe('fr-FR')

        // Preferences.
        await page.getByRole('link', { name: 'Preferences' }).click()
        await page.getByLabel('Week starts on').selectOption('sunday')
        await page.getByLabel('Default workspace').selectOption({ label: 'Orbital' })
        await page.getByLabel('Dates').selectOption('iso')
        await page.getByRole('button', { name: 'Save the preferences' }).click()
        await page.getByText('Your preferences are saved.').waitFor()
        await page.reload()
        expect(await page.getByLabel('Week starts on').inputValue()).toBe('sunday')

        // Notification settings, per workspace.
        await page.getByRole('link', { name: 'Notifications' }).click()
        const group = page.getByRole('group', { name: 'Orbital' })
        const boxes = group.getByRole('checkbox')
        expect(await boxes.count()).toBeGreaterThan(1)
        await boxes.first().uncheck()
        await page.getByRole('button', { name: 'Save notifications for Orbital' }).click()
        await page.getByText('Your notification settings are saved.').waitFor()
        expect(
          await page.getByRole('group', { name: 'Orbital' }).getByRole('checkbox').first().isChecked(),
        ).toBe(false)

        // What the pages did is what the API shows.
        const user = await server.storage.read((s) => s.users.getByEmail(email))
        const token = await server.engine.tokens.issueAccessToken({
          userId: user!.id as UserId,
          scopes: ['work:read'],
        })
        const api = server.as(token)
        const me = (await api.get('/v1/me')).body
        expect(me.user).toMatchObject({ name: 'Noor Haddad', timeZone: 'Europe/Paris', locale: 'fr-FR' })
        const orgId = me.memberships[0].orgId
        expect((await api.get('/v1/me/preferences')).body).toMatchObject({
          weekStart: 'sunday',
          defaultOrgId: orgId,
          dateFormat: 'iso',
        })
        const kinds = (await api.get(`/v1/orgs/${orgId}/notification-settings`)).body.kinds
        expect(Object.values(kinds).filter((on) => !on)).toHaveLength(1)

        // A second browser signs in; the first signs it out; the second is asked to sign in again.
        const second = await browser.newContext({ userAgent: 'Second browser' })
        const other = await second.newPage()
        await other.goto(`${server.url}/sign-in?return_to=/settings/sessions`)
        await other.getByLabel('Email').fill(email)
        await other.getByLabel('Password').fill(password)
        await other.getByRole('button', { name: 'Sign in' }).click()
        await other.getByRole('heading', { name: 'Web sessions' }).waitFor()

        await page.getByRole('link', { name: 'Web sessions' }).click()
        await page.getByText('First browser (this browser)').waitFor()
        const row = page.getByRole('row', { name: /Second browser/ })
        await row.getByRole('button').click()
        await page.getByText('That browser is signed out.').waitFor()
        expect(await page.getByRole('row', { name: /Second browser/ }).count()).toBe(0)
        await other.reload()
        expect(new URL(other.url()).pathname).toBe('/sign-in')

        // Connected apps links back to the other settings.
        await page.getByRole('link', { name: 'Connected apps' }).click()
        await page.getByRole('link', { name: 'Profile' }).waitFor()
        expect(problems).toEqual([])
        await first.close()
        await second.close()
      },
      60_000,
    )
  },
)
