/**
 * A newcomer's first hour in a browser: sign up, land on the welcome page, create a workspace and
 * its first team there, invite a second person; the second person opens the link from the mail
 * (captured by a test mail transport), creates an account, and joins.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signUpInBrowser } from '../support/browser-sign-up.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const CHROMIUM = '/usr/bin/chromium'
const required = process.env.WORKGRAPH_REQUIRE_BROWSER === '1'
const missing = !existsSync(CHROMIUM)
if (missing && required) throw new Error(`${CHROMIUM} is required (WORKGRAPH_REQUIRE_BROWSER=1) but missing`)

describeEachDatabase(
  `the first hour in a browser${missing ? ' (skipped: no Debian chromium)' : ''}`,
  (db) => {
    const mails: { to: string; subject: string; link: string }[] = []
    let server: Awaited<ReturnType<typeof startTestServer>>
    let browser: Browser
    beforeAll(async () => {
      if (missing) return
      server = await startTestServer(db, { mailer: { send: async (m) => void mails.push(m) } })
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
      'signs up, creates a workspace and team, invites, and the invitee joins by the mailed link',
      async () => {
        const stamp = Date.now()
        const founder = await browser.newContext()
        const page = await founder.newPage()
        await page.goto(`${server.url}/sign-up`)
        await signUpInBrowser(page, {
          name: 'Amara',
          email: `amara.${stamp}@example.com`,
          password: 'correct horse battery staple',
        })
        await page.getByRole('heading', { name: 'Welcome, Amara' }).waitFor()
        expect(new URL(page.url()).pathname).toBe('/welcome')
        await page.getByText('You are in no workspace yet').waitFor()

        await page.getByLabel('Workspace name').fill('Acme Rockets')
        await page.getByLabel('First team').fill('Propulsion')
        await page.getByLabel('Team key').fill('prop')
        await page.getByRole('button', { name: 'Create the workspace' }).click()
        await page.getByText('Created Acme Rockets with its first team.').waitFor()

        const invitee = `ines.${stamp}@example.com`
        await page.getByLabel('Their email').fill(invitee)
        await page.getByRole('button', { name: 'Send the invitation' }).click()
        await page.getByText(`Invited ${invitee} as member`).waitFor()
        await founder.close()

        const mail = mails.find((m) => m.to === invitee)!
        expect(mail).toBeDefined()
        const guest = await browser.newContext()
        const joining = await guest.newPage()
        await joining.goto(mail.link)
        // Signed out: sign-in, then "Create an account", which keeps the way back to the invitation.
        await joining.getByRole('link', { name: 'Create an account' }).click()
        await signUpInBrowser(joining, {
          name: 'Ines',
          email: invitee,
          password: 'correct horse battery staple',
        })
        await joining.getByRole('button', { name: 'Accept the invitation' }).click()
        await joining.getByRole('heading', { name: 'You joined Acme Rockets' }).waitFor()
        await guest.close()

        // What the pages did is what the API shows: the invitee is in the workspace, which has its team.
        const user = await server.storage.read((s) => s.users.getByEmail(invitee))
        const token = await server.engine.tokens.issueAccessToken({ userId: user!.id, scopes: ['work:read'] })
        const api = server.as(token)
        const orgs = (await api.get('/v1/orgs')).body.data
        expect(orgs.map((o: { name: string }) => o.name)).toEqual(['Acme Rockets'])
        const teams = (await api.get(`/v1/orgs/${orgs[0].id}/teams`)).body.data
        expect(teams.map((t: { key: string; name: string }) => `${t.key} ${t.name}`)).toEqual([
          'PROP Propulsion',
        ])
        const members = (await api.get(`/v1/orgs/${orgs[0].id}/members`)).body.data
        expect(members.map((m: { role: string }) => m.role).sort()).toEqual(['member', 'owner'])
      },
    )
  },
)
