import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { linearExport } from '../support/import-fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { cliEnvironment, keepAccessToken, startCli } from './support.ts'

describeEachDatabase('workgraph import', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('imports a Linear CSV with progress on stderr, the counts and refused rows on stdout, and the job on the stream', {
    timeout: 120_000,
  }, async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const me = (await ws.api.get(`${base}/members`)).body.data[0]
    const fixture = linearExport(60, me.email)
    const file = join(mkdtempSync(join(tmpdir(), 'workgraph-import-')), 'export.csv')
    // The bytes as Linear wrote them, one row of them not UTF-8.
    writeFileSync(file, fixture.bytes)
    const env = cliEnvironment()
    keepAccessToken(env, server.url, ws.owner.token)

    const cli = startCli(['import', 'linear', file, '--team', 'ENG', '--server', server.url], env)
    // The server's job, a few rows per step, while the CLI watches it.
    let finished = false
    void cli.result.then(() => {
      finished = true
    })
    while (!finished) {
      await server.engine.transfer({ importBatch: 7, maxSteps: 1, onError: (e) => console.error(e) })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const run = await cli.result
    expect(run.code, run.stderr).toBe(0)

    // Not a terminal: one progress line per tenth of both passes, then the counts.
    const total = fixture.rows * 2
    const progress = run.stderr.split('\n').filter((l) => /^\s+\d+% \(\d+\/\d+\)/.test(l))
    expect(progress.length).toBeGreaterThan(2)
    expect(progress.at(-1)).toMatch(new RegExp(`100% \\(${total}/${total}\\)`))
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^Import imp_\w+ completed$/)
    expect(lines[1]).toBe(
      `  ${fixture.imported} created, 0 updated, 0 unchanged or skipped, ${fixture.refusedRows.length} refused`,
    )
    for (const row of fixture.refusedRows)
      expect(run.stdout).toContain(`refused row ${row} (line ${fixture.lineOf.get(row)})`)

    // What the CLI printed is what the workspace holds.
    const importId = /imp_\w+/.exec(lines[0]!)![0]
    const job = (await ws.api.get(`${base}/imports/${importId}`)).body
    expect(job).toMatchObject({
      status: 'completed',
      createdCount: fixture.imported,
      linkedRows: fixture.rows,
    })
    const tasks = (await ws.api.get(`${base}/tasks?limit=200`)).body.data
    expect(tasks).toHaveLength(fixture.imported)

    // The job on the workspace's stream: created, progress in order, then completed.
    const kinds = 'import.created,import.progressed,import.completed,import.failed'
    const events = (await ws.api.get(`${base}/stream?kinds=${kinds}&limit=200`)).body.data
    expect(events.every((e: any) => e.resourceId === importId)).toBe(true)
    expect(events[0].kind).toBe('import.created')
    expect(events.at(-1)).toMatchObject({ kind: 'import.completed', data: { import: job } })
    const progressed = events
      .filter((e: any) => e.kind === 'import.progressed')
      .map((e: any) => e.data.import)
    const done = progressed.map((i: any) => i.processedRows + i.linkedRows)
    expect(done).toEqual([...done].sort((a: number, b: number) => a - b))
    expect(done.at(-1)).toBe(total)
    expect(progressed.some((i: any) => i.status === 'running' && i.processedRows === fixture.rows)).toBe(true)
  })

  it('refuses a file that is not the named tool’s export, with nothing imported', async () => {
    const ws = await newWorkspace(server)
    const file = join(mkdtempSync(join(tmpdir(), 'workgraph-import-')), 'other.csv')
    writeFileSync(file, 'Name,Owner\nSomething,someone@example.com\n')
    const env = cliEnvironment()
    keepAccessToken(env, server.url, ws.owner.token)
    const run = await startCli(['import', 'linear', file, '--team', 'ENG', '--server', server.url], env)
      .result
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("This is not Linear's CSV export")
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/imports`)).body.data).toEqual([])
  })
})
