import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { accessTokenPath, credentialsPath } from '@workgraph/cli'
import { createMailboxFileMailer } from '@workgraph/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { authorizeAndAllow, consentFields, signUp, tokenRequest } from '../oauth/support.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { cliEnvironment, runCli, startCli, waitForOutput } from './support.ts'

describeEachDatabase('workgraph CLI: login, token, whoami, seed, logout', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  // Where the server keeps its mail, as the reference server does beside its SQLite file.
  const mailbox = join(mkdtempSync(join(tmpdir(), 'workgraph-mailbox-')), 'workgraph.db.mail.jsonl')
  beforeAll(async () => {
    server = await startTestServer(db, { mailer: createMailboxFileMailer(mailbox, () => {}) })
  })
  afterAll(() => server.drop())

  it('signs in through the browser step, prints working tokens, seeds a workspace, and revokes on logout', async () => {
    const env = cliEnvironment()
    const base = server.url

    // login: the CLI prints the authorize URL and waits on its loopback redirect; the "browser"
    // here is an HTTP client that signs a new person up and presses Allow, as test/oauth does.
    const login = startCli(['login', '--server', base, '--no-browser'], env)
    const url = await waitForOutput(login, /http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/)
    const person = await signUp(base)
    const callback = await authorizeAndAllow(base, url, person.cookie)
    expect(callback.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(callback.pathname).toBe('/callback')
    const landed = await fetch(callback)
    expect(landed.status).toBe(200)
    expect(await landed.text()).toContain('You are signed in')
    const loggedIn = await login.result
    expect(loggedIn.stderr).toContain(`Signed in to ${base}`)
    expect(loggedIn.code).toBe(0)

    // The refresh token sits in the config dir, readable by its owner only.
    const file = credentialsPath(base, env)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const stored = JSON.parse(readFileSync(file, 'utf8'))
    expect(stored).toMatchObject({ server: base, issuer: base, resource: `${base}/v1` })
    expect(stored.scope.split(' ')).toEqual(expect.arrayContaining(['work:write', 'offline_access']))

    // token: a working access token on stdout alone; the refresh token rotated and saved again.
    const printed = await runCli(['token', '--server', base], env)
    expect(printed.code).toBe(0)
    const accessToken = printed.stdout.trim()
    expect(accessToken.split('.')).toHaveLength(3)
    expect((await server.as(accessToken).get('/v1/orgs')).status).toBe(200)
    const rotated = JSON.parse(readFileSync(file, 'utf8'))
    expect(rotated.refreshToken).not.toBe(stored.refreshToken)
    expect(statSync(file).mode & 0o777).toBe(0o600)

    // whoami: the server of the last login is the default from now on.
    const whoami = await runCli(['whoami', '--json'], env)
    expect(whoami.code).toBe(0)
    expect(JSON.parse(whoami.stdout)).toMatchObject({ server: base, workspaces: [] })

    // api: the first call refreshes and keeps the access token (mode 0600); the next one reuses it,
    // so the refresh token is not spent again and the call costs only the request.
    const me = await runCli(['api', 'GET', '/v1/me'], env)
    expect(me.code, me.stderr).toBe(0)
    expect(JSON.parse(me.stdout)).toMatchObject({ user: { email: person.email } })
    const kept = accessTokenPath(base, env)
    expect(statSync(kept).mode & 0o777).toBe(0o600)
    const spent = JSON.parse(readFileSync(file, 'utf8')).refreshToken
    const again = await runCli(['api', 'get', '/v1/me'], env)
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8')).refreshToken).toBe(spent)
    const created = await runCli(['api', 'POST', '/v1/orgs', '--data', '{"name":"Made with api"}'], env)
    expect(created.code, created.stderr).toBe(0)
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Made with api' })
    const missing = await runCli(['api', 'GET', '/v1/orgs/org_00000000000000000000000000'], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('404')
    expect(JSON.parse(missing.stdout)).toMatchObject({ code: 'not_found' })
    const badBody = await runCli(['api', 'POST', '/v1/orgs', '--data', '{name:'], env)
    expect(badBody.code).toBe(1)
    expect(badBody.stderr).toContain('--data is not JSON')

    // seed --demo: the demo workspace is there through the API, for this person, with two
    // teammates whose sign-ins it prints.
    const seeded = await runCli(['seed', '--demo', '--mailbox', mailbox], env)
    expect(seeded.code, seeded.stderr).toBe(0)
    expect(seeded.stderr).toMatch(/Workspace \S+ \(org_\w+\) in \d+\.\d s: .*\b2 teammates\b/)
    const signIns = [...seeded.stderr.matchAll(/(\S+@demo\.workgraph\.test) {2}password: (\S+)/g)]
    expect(signIns).toHaveLength(2)
    for (const [, email, password] of signIns) {
      const signedIn = await fetch(`${base}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ email, password }),
      })
      expect(signedIn.status).toBe(200)
    }
    const orgId = seeded.stdout.trim().split('\n').at(-1)!
    const api = server.as(accessToken)
    const teams = (await api.get(`/v1/orgs/${orgId}/teams`)).body.data
    expect(teams.map((t: { key: string }) => t.key).sort()).toEqual(['DES', 'ENG', 'OPS'])
    const tasks = (await api.get(`/v1/orgs/${orgId}/tasks?limit=200`)).body.data
    expect(tasks.length).toBeGreaterThanOrEqual(25)
    const ota = tasks.find((t: { title: string }) => t.title.startsWith('Over-the-air'))
    expect(tasks.filter((t: { parentId: string | null }) => t.parentId === ota.id)).toHaveLength(4)
    const fleet = tasks.find((t: { title: string }) => t.title.startsWith('Fleet API'))
    const blockers = (await api.get(`/v1/orgs/${orgId}/tasks/${fleet.id}/blockers`)).body.data
    expect(blockers.map((b: { id: string }) => b.id)).toContain(ota.id)
    expect((await api.get(`/v1/orgs/${orgId}/labels`)).body.data.length).toBe(8)
    expect((await api.get(`/v1/orgs/${orgId}/agents`)).body.data.length).toBe(2)
    const eng = teams.find((t: { key: string }) => t.key === 'ENG')
    expect((await api.get(`/v1/orgs/${orgId}/teams/${eng.id}/cycles`)).body.data.length).toBe(2)
    const drift = tasks.find((t: { title: string }) => t.title.startsWith('Gripper'))
    expect((await api.get(`/v1/orgs/${orgId}/tasks/${drift.id}/comments`)).body.data.length).toBeGreaterThan(
      0,
    )
    expect(seeded.stderr).toContain('Workspace')

    // Again: the demo is there, said in one line, nothing created, the same id for scripts.
    const again2 = await runCli(['seed', '--demo', '--mailbox', mailbox], env)
    expect(again2.code, again2.stderr).toBe(0)
    expect(again2.stderr).toContain('You already have the workspace “Acme Robotics (demo)”')
    expect(again2.stdout.trim()).toBe(orgId)
    expect((await api.get('/v1/orgs?limit=200')).body.data).toHaveLength(2)

    // --size large: many more tasks, in calls of 100, with comments; pages of 200 go on.
    const large = await runCli(
      ['seed', '--demo', '--size', 'large', '--tasks', '250', '--name', 'Large demo', '--mailbox', mailbox],
      env,
    )
    expect(large.code, large.stderr).toBe(0)
    expect(large.stderr).toMatch(/Workspace \S+ \(org_\w+\) in \d+\.\d s: .*\b265 tasks\b.*\b\d+ comments\b/)
    const largeId = large.stdout.trim().split('\n').at(-1)!
    const first = (await api.get(`/v1/orgs/${largeId}/tasks?limit=200`)).body
    expect(first.data).toHaveLength(200)
    const second = (await api.get(`/v1/orgs/${largeId}/tasks?limit=200&cursor=${first.nextCursor}`)).body
    expect(second.data.length).toBeGreaterThan(70)
    const found = (await api.get(`/v1/hub/search?q=calibration&types=task&orgId=${largeId}&limit=5`)).body
    expect(found.data).toHaveLength(5)

    // logout: the CLI's consent is gone (its access tokens fail at once), the refresh token is
    // revoked at the server, and the file is gone.
    const lastRefresh = JSON.parse(readFileSync(file, 'utf8')).refreshToken
    const out = await runCli(['logout'], env)
    expect(out.code).toBe(0)
    expect(() => statSync(file)).toThrow()
    expect(() => statSync(kept)).toThrow()
    const refused = await tokenRequest(base, {
      grant_type: 'refresh_token',
      refresh_token: lastRefresh,
      client_id: stored.clientId,
    })
    expect(refused.body.error).toBe('invalid_grant')
    expect((await server.request('GET', '/v1/orgs', { token: accessToken })).status).toBe(401)
    const after = await runCli(['token'], env)
    expect(after.code).toBe(1)
    expect(after.stderr).toContain('Not signed in')
  }, 240_000)

  it('stores nothing when the person presses Deny', async () => {
    const env = cliEnvironment()
    const login = startCli(['login', '--server', server.url, '--no-browser'], env)
    const url = await waitForOutput(login, /http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/)
    const person = await signUp(server.url)
    const form = consentFields(await (await fetch(url, { headers: { cookie: person.cookie } })).text())
    form.set('decision', 'deny')
    const denied = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      headers: {
        cookie: person.cookie,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form,
      redirect: 'manual',
    })
    const callback = new URL(denied.headers.get('location')!)
    expect(callback.searchParams.get('error')).toBe('access_denied')
    expect(await (await fetch(callback)).text()).toContain('did not complete')
    const result = await login.result
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('You chose Deny; nothing was stored.')
    expect(() => statSync(credentialsPath(server.url, env))).toThrow()
  }, 60_000)
})
