import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { githubExport, linearExport } from '../support/import-fixtures.ts'
import { walk, workspaceOf } from '../support/import-workspace.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { sized } from '../support/tier.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * Generated issues in the Linear CSV and the GitHub list, before the Linear file's awkward rows. The
 * checks name issues up to 26 (a parent named five rows later); every kind of generated row (quoted
 * newlines, unknown people, a state the team lacks, cycles, pull requests) first comes by 11.
 */
const ISSUES = sized('IMPORT_ISSUES', { test: 36, deep: 200 })
if (ISSUES < 26) throw new Error(`IMPORT_ISSUES=${ISSUES}: the checks name issues up to 26`)

describeEachDatabase('imports from other tools', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const runAll = () => server.engine.transfer({ onError: (e) => console.error(e) })

  async function importFile(ws: TestWorkspace, body: Record<string, unknown>) {
    const base = `/v1/orgs/${ws.orgId}`
    const created = await ws.api.post(`${base}/imports`, { teamId: ws.teamId, ...body })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    await runAll()
    return (await ws.api.get(`${base}/imports/${created.body.id}`)).body
  }

  it('Linear CSV: the expected workspace, broken rows reported by line, a re-run changes nothing, a dry run counts the same', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const me = (await ws.api.get(`${base}/members`)).body.data[0]
    const file = linearExport(ISSUES, me.email)

    // A dry run first, in a workspace of its own: the counts the real run will have, nothing written.
    const dry = await importFile(ws, { format: 'linear_csv', content: file.text, dryRun: true })
    expect(dry).toMatchObject({
      status: 'completed',
      dryRun: true,
      totalRows: file.rows,
      processedRows: file.rows,
      createdCount: file.imported,
      updatedCount: 0,
      skippedCount: 0,
      errorCount: file.refusedRows.length,
    })
    expect(await walk(ws.api, `${base}/tasks`)).toEqual([])
    expect((await ws.api.get(`${base}/invitations`)).body.data).toEqual([])

    const imp = await importFile(ws, {
      format: 'linear_csv',
      content: file.text,
      sourceUrl: 'https://linear.app/acme',
    })
    expect(imp).toMatchObject({
      status: 'completed',
      dryRun: false,
      processedRows: file.rows,
      linkedRows: file.rows,
      createdCount: file.imported,
      updatedCount: 0,
      skippedCount: 0,
      errorCount: file.refusedRows.length,
    })

    // Each broken row is reported with its row and the line it starts on; nothing of it was written.
    const errors = await walk(ws.api, `${base}/imports/${imp.id}/errors`, 50)
    const refused = errors.filter((e) => e.refused)
    expect(refused.map((e) => [e.row, e.line, e.field])).toEqual(
      [
        [ISSUES + 1, 'key'],
        [ISSUES + 4, 'title'],
        [ISSUES + 5, 'Estimate'],
        [ISSUES + 6, 'title'],
        [ISSUES + 7, 'ID'],
      ].map(([row, field]) => [row, file.lineOf.get(row as number), field]),
    )
    expect(refused[0].message).toContain('Row 3 of this file has the same key, ENG-3')
    expect(refused[1].message).toContain('not UTF-8')
    // Quoted newlines before them: lines run ahead of rows.
    expect(file.lineOf.get(ISSUES + 1)! - (ISSUES + 1)).toBeGreaterThan(1)

    const tasks = await workspaceOf(ws)
    expect(tasks.size).toBe(file.imported)
    expect([...tasks.keys()].filter((t) => t.startsWith('Issue '))).toHaveLength(ISSUES)
    expect(tasks.has('A second ENG-3')).toBe(false)
    // States by name, and by category where the team has no state of that name (In QA: started).
    expect(tasks.get('Issue 1')!.state).toBe('Todo')
    expect(tasks.get('Issue 3')!.state).toBe('Done')
    expect(tasks.get('Issue 4')!.state).toBe('Canceled')
    expect(tasks.get('Issue 5')!.state).toBe('In Progress')
    expect(errors.find((e) => e.row === 5)).toMatchObject({ refused: false })
    expect(errors.find((e) => e.row === 5)!.message).toContain('no state named `In QA`')
    // People by email; an unknown email is invited (once), a bare name is a note, never a silent drop.
    expect(tasks.get('Issue 10')!.assigneeId).toBe(me.id)
    expect(tasks.get('Issue 7')!.assigneeId).toBeNull()
    expect(errors.find((e) => e.row === 7)!.message).toContain(
      'newcomer@example.com is not a member: invited',
    )
    expect(errors.find((e) => e.row === 11)!.message).toContain('No member is named `Someone Unknown`')
    const invitations = (await ws.api.get(`${base}/invitations`)).body.data
    expect(invitations.map((i: any) => i.email)).toEqual(['newcomer@example.com'])
    // Fields, labels, quoted newlines, project, cycles.
    expect(tasks.get('Issue 9')).toMatchObject({
      description: 'Line one of 9\nline "two", quoted',
      estimate: 8,
      priority: 'low',
      labels: ['Bug', 'Frontend'],
    })
    expect(tasks.get('Issue 8')).toMatchObject({ dueDate: '2031-03-09', projectId: expect.any(String) })
    expect(tasks.get('Issue 6')!.cycleId).toEqual(expect.any(String))
    expect(tasks.get('Issue 12')!.cycleId).toBe(tasks.get('Issue 6')!.cycleId)
    expect(tasks.get('Issue 3')!.cycleId).not.toBe(tasks.get('Issue 6')!.cycleId)
    const cycles = (await ws.api.get(`${base}/teams/${ws.teamId}/cycles`)).body.data
    expect(cycles.map((c: any) => c.name).sort()).toEqual(['Sprint 1', 'Sprint 2'])
    const projects = (await ws.api.get(`${base}/projects`)).body.data
    expect(projects.map((p: any) => p.name)).toEqual(['Mobile app'])
    // Parents named later in the file, and a pair that name each other: one link set, one note.
    expect(tasks.get('Issue 11')!.parent).toBe('Issue 16')
    expect(tasks.get('Issue 21')!.parent).toBe('Issue 26')
    const pair = [tasks.get('Cycle A')!.parent, tasks.get('Cycle B')!.parent]
    expect(pair.filter(Boolean)).toHaveLength(1)
    expect(errors.find((e) => e.row === ISSUES + 3)).toMatchObject({ refused: false })
    // Blocking links.
    const blocked = (await walk(ws.api, `${base}/tasks?archived=include`)).find(
      (t: any) => t.title === 'Issue 2',
    )
    const deps = (await ws.api.get(`${base}/tasks/${blocked.id}/blockers`)).body.data
    expect(deps).toHaveLength(1)
    // The source key and URL stay on the task as its link.
    const links = (await ws.api.get(`${base}/tasks/${blocked.id}/links`)).body.data
    expect(links.map((l: any) => [l.title, l.url])).toEqual([
      ['ENG-2', 'https://linear.app/acme/issue/ENG-2'],
    ])

    // The same file again: every issue matched, nothing changes, nothing doubles.
    const again = await importFile(ws, {
      format: 'linear_csv',
      content: file.text,
      sourceUrl: 'https://linear.app/acme',
    })
    expect(again).toMatchObject({
      status: 'completed',
      createdCount: 0,
      updatedCount: 0,
      skippedCount: file.imported,
      errorCount: file.refusedRows.length,
    })
    expect(await workspaceOf(ws)).toEqual(tasks)
    expect((await ws.api.get(`${base}/invitations`)).body.data).toHaveLength(1)
    expect((await ws.api.get(`${base}/tasks/${blocked.id}/links`)).body.data).toHaveLength(1)

    // A dry run now counts what is already there; an edited issue is updated, not duplicated.
    const dryAgain = await importFile(ws, { format: 'linear_csv', content: file.text, dryRun: true })
    expect(dryAgain).toMatchObject({ createdCount: 0, updatedCount: 0, skippedCount: file.imported })
    const edited = file.text.replace('ENG-13,Engineering,Issue 13,', 'ENG-13,Engineering,Issue 13 renamed,')
    const update = await importFile(ws, { format: 'linear_csv', content: edited })
    expect(update).toMatchObject({ createdCount: 0, updatedCount: 1, skippedCount: file.imported - 1 })
    const after = await workspaceOf(ws)
    expect(after.size).toBe(file.imported)
    expect(after.has('Issue 13 renamed')).toBe(true)
  }, 600_000)

  it('GitHub issues JSON: pull requests skipped, states by category, links back; re-run and dry run agree', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const me = (await ws.api.get(`${base}/members`)).body.data[0]
    const items = githubExport(ISSUES, (i) => (i % 4 === 1 ? me.name : i % 4 === 2 ? 'octocat' : null))
    const content = JSON.stringify(items)
    const pulls = Math.floor(ISSUES / 6)
    const issues = ISSUES - pulls

    const dry = await importFile(ws, { format: 'github_json', content, dryRun: true })
    expect(dry).toMatchObject({
      status: 'completed',
      createdCount: issues,
      skippedCount: pulls,
      errorCount: 0,
    })
    expect(await walk(ws.api, `${base}/tasks`)).toEqual([])

    const imp = await importFile(ws, { format: 'github_json', content })
    expect(imp).toMatchObject({
      status: 'completed',
      totalRows: ISSUES,
      createdCount: issues,
      skippedCount: pulls,
      errorCount: 0,
    })
    const tasks = await workspaceOf(ws)
    expect(tasks.size).toBe(issues)
    expect(tasks.has('GitHub issue 6')).toBe(false)
    expect(tasks.get('GitHub issue 1')).toMatchObject({ state: 'Todo', assigneeId: me.id, labels: ['bug'] })
    expect(tasks.get('GitHub issue 3')!.state).toBe('Canceled')
    expect(tasks.get('GitHub issue 9')!.state).toBe('Canceled')
    expect(tasks.get('GitHub issue 15')!.state).toBe('Canceled')
    expect(tasks.get('GitHub issue 21')!.state).toBe('Canceled')
    expect(tasks.get('GitHub issue 10')!.description).toBe('Steps:\r\n1. open\r\n2. "click"')
    expect(tasks.get('GitHub issue 4')!.projectId).toEqual(expect.any(String))
    const errors = await walk(ws.api, `${base}/imports/${imp.id}/errors`)
    expect(errors.find((e) => e.row === 2)).toMatchObject({ refused: false, line: null })
    const one = (await walk(ws.api, `${base}/tasks`)).find((t: any) => t.title === 'GitHub issue 1')
    const links = (await ws.api.get(`${base}/tasks/${one.id}/links`)).body.data
    expect(links.map((l: any) => [l.title, l.url])).toEqual([
      ['acme/app#1', 'https://github.com/acme/app/issues/1'],
    ])

    const again = await importFile(ws, { format: 'github_json', content })
    expect(again).toMatchObject({ createdCount: 0, updatedCount: 0, skippedCount: ISSUES, errorCount: 0 })
    expect(await workspaceOf(ws)).toEqual(tasks)

    // Closing an issue upstream and importing again updates that task only.
    const closed = items.map((item: any) =>
      item.number === 1 ? { ...item, state: 'closed', state_reason: 'completed' } : item,
    )
    const update = await importFile(ws, { format: 'github_json', content: JSON.stringify(closed) })
    expect(update).toMatchObject({ createdCount: 0, updatedCount: 1 })
    expect((await workspaceOf(ws)).get('GitHub issue 1')!.state).toBe('Done')

    const bad = await ws.api.post(`${base}/imports`, {
      format: 'github_json',
      teamId: ws.teamId,
      content: '{"x":1}',
    })
    expect(bad).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/content' }] },
    })
    const notLinear = await ws.api.post(`${base}/imports`, {
      format: 'linear_csv',
      teamId: ws.teamId,
      content: 'title\nx',
    })
    expect(notLinear).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const ndjsonDry = await ws.api.post(`${base}/imports`, { format: 'ndjson', content: '{}', dryRun: true })
    expect(ndjsonDry).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/dryRun' }] } })
  }, 600_000)

  it('cancel: stops after the rows in progress, keeps what was imported; a finished import is 409', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const content = JSON.stringify(githubExport(40, () => null).filter((i: any) => !i.pull_request))
    const imp = (await ws.api.post(`${base}/imports`, { format: 'github_json', teamId: ws.teamId, content }))
      .body
    await server.engine.transfer({ maxSteps: 1, importBatch: 10 })
    const canceled = await ws.api.post(`${base}/imports/${imp.id}/cancel`)
    expect(canceled).toMatchObject({ status: 200, body: { status: 'canceled', processedRows: 10 } })
    await runAll()
    expect((await ws.api.get(`${base}/imports/${imp.id}`)).body).toMatchObject({
      status: 'canceled',
      processedRows: 10,
      createdCount: 10,
    })
    expect(await walk(ws.api, `${base}/tasks`)).toHaveLength(10)
    expect((await ws.api.post(`${base}/imports/${imp.id}/cancel`)).status).toBe(409)
    const member = await ws.addMember('member')
    expect((await member.api.post(`${base}/imports/${imp.id}/cancel`)).status).toBe(403)

    // Running the file again carries on: the ten are matched, the rest created.
    const rest = await importFile(ws, { format: 'github_json', content })
    expect(rest).toMatchObject({ status: 'completed', createdCount: 24, skippedCount: 10 })
  }, 120_000)
})
