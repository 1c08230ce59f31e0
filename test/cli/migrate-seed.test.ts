import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { type Api, anchorOf, apiClient, newRunName, seedDemo } from '@workgraph/cli'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { POSTGRES_URL } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { cliEnvironment, runCli } from './support.ts'

describeEachDatabase('workgraph migrate', (db) => {
  // A database of its own: migrate works on the default schema, as the server does.
  let url = ''
  let drop = async () => {}
  beforeAll(async () => {
    if (db.name === 'sqlite') {
      url = join(mkdtempSync(join(tmpdir(), 'workgraph-migrate-')), 'nested', 'workgraph.db')
      return
    }
    const name = `migrate_${Math.random().toString(36).slice(2, 10)}`
    const admin = new pg.Client({ connectionString: POSTGRES_URL })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    url = `${POSTGRES_URL.replace(/\/[^/]*$/, '')}/${name}`
    drop = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL })
      await client.connect()
      await client.query(`drop database if exists ${name}`)
      await client.end()
    }
  })
  afterAll(() => drop())

  it('applies every migration to DATABASE_URL, then has nothing left to do', async () => {
    const env = { ...cliEnvironment(), DATABASE_URL: url }
    if (db.name === 'sqlite') {
      // A file under a directory that does not exist is a typo until shown otherwise: refused, in one line.
      const refused = await runCli(['migrate'], env)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(`the directory ${dirname(url)} does not exist; create it (mkdir -p`)
      expect(refused.stderr).not.toMatch(/\n\s+at /)
      mkdirSync(dirname(url))
    }
    const first = await runCli(['migrate'], env)
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toMatch(/applied \d+ migration\(s\): 0001_initial, 0002_oauth/)
    const again = await runCli(['migrate', '--database-url', url], cliEnvironment())
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('already at the latest schema')
    // Two CLI processes start from source (tsx): on two busy cores that alone can take a minute.
  }, 120_000)
})

describeEachDatabase('workgraph seed --demo, resumed', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('replays the steps a run already did (Idempotency-Key) instead of creating them twice', async () => {
    const { owner } = await newWorkspace(server)
    const token = await server.engine.tokens.issueAccessToken({
      userId: owner.user.id,
      scopes: ['work:read', 'work:write'],
    })
    const api = apiClient(server.url, token)
    const silent = () => ({ tick: () => {}, done: () => {} })
    // A run that fails part-way: the fifth write never reaches the server.
    let writes = 0
    const flaky: Api = {
      get: api.get,
      put: api.put,
      delete: api.delete,
      post: <T>(path: string, body: unknown, key?: string) => {
        if (++writes === 5) return Promise.reject(new Error('connection reset'))
        return api.post<T>(path, body, key)
      },
    }
    const options = { run: newRunName(), workspaceName: 'Resumed demo' }
    await expect(seedDemo(flaky, options, silent)).rejects.toThrow('connection reset')
    const resumed = await seedDemo(api, options, silent)
    const orgs = (await server.as(token).get('/v1/orgs?limit=200')).body.data
    expect(orgs.filter((o: { name: string }) => o.name === 'Resumed demo')).toHaveLength(1)
    expect(resumed.counts.teams).toBe(3)
    const teams = (await server.as(token).get(`/v1/orgs/${resumed.orgId}/teams`)).body.data
    expect(teams).toHaveLength(3)
    // Cycles are dated from the run name: the Monday of its week.
    const eng = teams.find((t: { key: string }) => t.key === 'ENG')
    const cycles = (await server.as(token).get(`/v1/orgs/${resumed.orgId}/teams/${eng.id}/cycles`)).body.data
    const monday = anchorOf(options.run)
    expect(monday.getUTCDay()).toBe(1)
    expect(cycles.map((c: { startsAt: string }) => c.startsAt).sort()).toEqual([
      monday.toISOString(),
      new Date(monday.getTime() + 14 * 86_400_000).toISOString(),
    ])
  })
})
