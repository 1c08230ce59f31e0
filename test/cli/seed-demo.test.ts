import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Api,
  apiClient,
  discover,
  existingWorkspace,
  fileMailbox,
  newRunName,
  seedDemo,
} from '@workgraph/cli'
import { createMailboxFileMailer } from '@workgraph/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { connect, mcpToken, tool } from '../mcp/support.ts'
import { authorizeAndAllow, authorizeUrl, pkce, register, tokenRequest } from '../oauth/support.ts'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const silent = () => ({ tick: () => {}, done: () => {} })
const titles = (items: { title: string }[]) => items.map((i) => i.title)

describeEachDatabase('workgraph seed --demo: every view has something on minute one', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let notifier: { stop(): Promise<void> }
  const mailFile = join(mkdtempSync(join(tmpdir(), 'workgraph-mailbox-')), 'workgraph.db.mail.jsonl')
  beforeAll(async () => {
    // The server keeps its mail where the seed reads it, as the reference server does on SQLite.
    server = await startTestServer(db, { mailer: createMailboxFileMailer(mailFile, () => {}) })
    // As the server binary does: notifications are written in the background, after each commit.
    notifier = server.engine.startNotifier({ onError: (error) => console.error(error) })
  })
  afterAll(async () => {
    await notifier.stop()
    await server.drop()
  })

  it('gives the seeding person a day, an inbox, a portfolio and MCP my_day, with two teammates who can sign in', async () => {
    const person = await newPerson(server.engine, { name: 'Riley Park' })
    const token = await server.engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read', 'work:write', 'agents:run'],
    })
    const api = server.as(token)
    const run = newRunName()
    const started = performance.now()
    const summary = await seedDemo(
      apiClient(server.url, token),
      {
        run,
        workspaceName: 'Acme Robotics (demo)',
        teammates: { server: await discover(server.url), mailbox: fileMailbox(mailFile) },
      },
      silent,
    )
    console.info(`seed --demo on ${db.name}: ${Math.round(performance.now() - started)} ms`)
    const base = `/v1/orgs/${summary.orgId}`

    // hub/today: overdue and due today, both assigned to me; the agent's action waiting; the mention.
    const today = (await api.get(`/v1/hub/today?date=${summary.context.day(0)}`)).body
    expect(titles(today.overdue.items)).toEqual([
      'Gripper calibration drifts after 6 hours of operation',
      'Ticket 4711: unit 12 stops after an emergency stop is released',
    ])
    expect(titles(today.dueToday.items)).toEqual(['Fleet API: report update status per unit'])
    expect(today.currentCycle.items.length).toBeGreaterThan(0)
    expect(today.approvals.items).toHaveLength(1)
    expect(today.approvals.items[0]).toMatchObject({ operationId: 'tasks.archive', state: 'pending' })
    expect(today.mentions.items).toHaveLength(1)
    expect(today.plan.map((i: { text?: string }) => i.text ?? null)).toContain(
      'Read the OTA rollout plan before the Lyon call',
    )

    // The inbox: Maya's comment mentioning me, unread, and the approval request.
    const inbox = (await api.get('/v1/hub/inbox')).body.data
    const mention = inbox.find((n: { kind: string }) => n.kind === 'mentioned')
    expect(mention).toMatchObject({ orgId: summary.orgId, readAt: null })
    expect(mention.summary).toContain('Gripper calibration drifts')
    expect(inbox.map((n: { kind: string }) => n.kind)).toContain('approvalRequested')

    // The portfolio: the project I lead is at risk (worst health first after the off-track one I follow),
    // and the program and initiative I own are there.
    const portfolio = (await api.get('/v1/hub/portfolio?limit=50')).body.data
    const ota = portfolio.find((p: { name: string }) => p.name === 'R2 over-the-air rollout')
    expect(ota).toMatchObject({
      type: 'project',
      health: 'atRisk',
      relations: expect.arrayContaining(['lead']),
    })
    expect(ota.nextMilestone.name).toBe('Signed images in CI')
    expect(ota.lastUpdate.excerpt).toContain('At risk')
    const names = portfolio.map((p: { type: string; name: string }) => `${p.type}:${p.name}`)
    expect(names).toEqual(
      expect.arrayContaining(['program:Field reliability', 'initiative:Autonomous fleet operations']),
    )

    // MCP my_day: the plan item and suggestions from the overdue and due-today tasks.
    const mcp = await connect(server, await mcpToken(server, person.user.id))
    const day = await tool(mcp, 'my_day', { date: summary.context.day(0) })
    expect(day.items.map((i: { task?: { title: string } }) => i.task?.title)).toContain(
      'Gripper calibration drifts after 6 hours of operation',
    )
    const reasons = day.suggestions.map((s: { reason: string; title: string }) => `${s.reason}:${s.title}`)
    expect(reasons).toContain('dueToday:Fleet API: report update status per unit')
    expect(reasons.some((r: string) => r.startsWith('overdue:Ticket 4711'))).toBe(true)
    await mcp.close()

    // The rest a user would open: blocked tasks, a sub-initiative, both cycles, a document, field values, a view.
    const blocked = (await api.get(`${base}/tasks?blocked=true&limit=50`)).body.data
    expect(titles(blocked)).toContain('Fleet API: report update status per unit')
    const initiatives = (await api.get(`${base}/initiatives`)).body.data
    const parent = initiatives.find((i: { name: string }) => i.name === 'Autonomous fleet operations')
    expect(initiatives.find((i: { name: string }) => i.name === 'Zero-touch updates').parentId).toBe(
      parent.id,
    )
    expect(titles((await api.get(`${base}/documents`)).body.data)).toEqual(['OTA rollout plan'])
    const fields = (await api.get(`${base}/custom-fields`)).body.data
    const site = fields.find((f: { name: string }) => f.name === 'Site')
    expect((await api.get(`${base}/tasks?fieldId=${site.id}&fieldValue=Lyon`)).body.data.length).toBe(3)
    const views = (await api.get(`${base}/views`)).body.data
    expect(views.map((v: { name: string }) => v.name)).toEqual(['My blocked work'])
    const viewed = (await api.get(`${base}/views/${views[0].id}/results`)).body.data
    expect(titles(viewed)).toContain('Fleet API: report update status per unit')

    // The printed teammates sign in with their passwords and get a token that works in the workspace.
    expect(summary.teammates.map((t) => t.name)).toEqual(['Maya Chen', 'Jonas Weber'])
    for (const teammate of summary.teammates) {
      const signedIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ email: teammate.email, password: teammate.password }),
      })
      expect(signedIn.status).toBe(200)
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!
      const client = (await register(server.url)).body
      const { verifier, challenge } = pkce()
      const redirectUri = 'http://127.0.0.1:8976/callback'
      const location = await authorizeAndAllow(
        server.url,
        authorizeUrl(server.url, {
          client_id: client.client_id,
          redirect_uri: redirectUri,
          response_type: 'code',
          scope: 'work:read',
          state: 'st',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: `${server.url}/v1`,
        }),
        cookie,
      )
      const tokens = await tokenRequest(server.url, {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: redirectUri,
        resource: `${server.url}/v1`,
      })
      expect(tokens.status).toBe(200)
      const me = (await server.as(tokens.body.access_token).get('/v1/me')).body
      expect(me.memberships.map((m: { orgId: string }) => m.orgId)).toContain(summary.orgId)
    }

    // Seeding again finds the demo instead of failing part-way.
    expect(await existingWorkspace(apiClient(server.url, token), 'Acme Robotics (demo)')).toMatchObject({
      id: summary.orgId,
    })
  }, 120_000)

  it('resumes a run that failed after the teammates joined: they sign in again, nothing is made twice', async () => {
    const person = await newPerson(server.engine, { name: 'Sam Ortiz' })
    const token = await server.engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read', 'work:write', 'agents:run'],
    })
    const api = apiClient(server.url, token)
    const teammates = { server: await discover(server.url), mailbox: fileMailbox(mailFile) }
    const options = { run: newRunName(), workspaceName: 'Resumed demo', teammates }
    let writes = 0
    const flaky: Api = {
      ...api,
      post: <T>(path: string, body: unknown, key?: string) => {
        if (++writes === 40) return Promise.reject(new Error('connection reset'))
        return api.post<T>(path, body, key)
      },
    }
    await expect(seedDemo(flaky, options, silent)).rejects.toThrow('connection reset')
    const resumed = await seedDemo(api, options, silent)
    expect(resumed.teammates).toHaveLength(2)
    const members = (await server.as(token).get(`/v1/orgs/${resumed.orgId}/members`)).body.data
    expect(members.map((m: { name: string }) => m.name).sort()).toEqual([
      'Jonas Weber',
      'Maya Chen',
      'Sam Ortiz',
    ])
    const tasks = (await server.as(token).get(`/v1/orgs/${resumed.orgId}/tasks?limit=200`)).body.data
    expect(tasks).toHaveLength(27)
    const mentions = (await server.as(token).get('/v1/hub/inbox?kind=mentioned')).body.data
    expect(mentions).toHaveLength(1)
  }, 120_000)
})
