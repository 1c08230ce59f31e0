import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { linearExport } from '../support/import-fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP import_status', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('answers how an import is going: queued, then its counts and the rows it refused, by line', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const me = (await ws.api.get(`${base}/members`)).body.data[0]
    const file = linearExport(12, me.email)
    const created = await ws.api.post(`${base}/imports`, {
      format: 'linear_csv',
      teamId: ws.teamId,
      content: file.text,
    })
    expect(created.status).toBe(201)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))

    const queued = await tool(client, 'import_status', { import: created.body.id })
    expect(queued.import).toMatchObject({ id: created.body.id, status: 'queued', processed: 0, created: 0 })
    expect(queued.problems).toEqual([])

    await server.engine.transfer({ onError: (e) => console.error(e) })
    const done = await tool(client, 'import_status', { import: created.body.id })
    expect(done.import).toMatchObject({
      status: 'completed',
      format: 'linear_csv',
      rows: file.rows,
      processed: file.rows,
      linked: file.rows,
      created: file.imported,
      refused: file.refusedRows.length,
    })
    // The first ten problems, in row order, each with the line its row starts on.
    const all = (await ws.api.get(`${base}/imports/${created.body.id}/errors?limit=200`)).body.data
    expect(all.filter((e: any) => e.refused).map((e: any) => e.row)).toEqual(file.refusedRows)
    expect(done.problems.map((p: any) => [p.row, p.refused, p.message])).toEqual(
      all.slice(0, 10).map((e: any) => [e.row, e.refused, e.message]),
    )
    for (const p of done.problems) expect(p.line).toBe(file.lineOf.get(p.row))
    expect(done.moreProblems).toBe(all.length > 10)

    // Without an id: the latest imports, newest first.
    const again = await ws.api.post(`${base}/imports`, {
      format: 'linear_csv',
      teamId: ws.teamId,
      content: file.text,
      dryRun: true,
    })
    const latest = await tool(client, 'import_status', {})
    expect(latest.imports.map((i: any) => [i.id, i.status, i.dryRun])).toEqual([
      [again.body.id, 'queued', true],
      [created.body.id, 'completed', false],
    ])
  })

  it('is for owners and admins, as imports are', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const client = await connect(server, await mcpToken(server, member.user.id))
    const answer = await tool(client, 'import_status', {})
    expect(answer.error).toMatchObject({ code: 'capability_required' })
  })
})
