import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { walk, workspaceOf } from '../support/import-workspace.ts'
import { jiraCsvExport, jiraEpics, jiraJsonExport } from '../support/jira-fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { sized } from '../support/tier.ts'
import { asanaCsvExport, asanaJsonExport, linearJsonExport } from '../support/tool-fixtures.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * Generated issues per file, before the awkward rows every file ends with. The checks below name
 * issues up to 32 (the first child of the second Jira epic); every kind of row the generators make
 * (quoted newlines, unknown people, missing states, sprints, links, comments) first comes by 13.
 */
const ISSUES = sized('IMPORT_ISSUES', { test: 36, deep: 200 })
if (ISSUES < 32) throw new Error(`IMPORT_ISSUES=${ISSUES}: the checks name issues up to 32`)

describeEachDatabase('imports from Jira, Asana and Linear JSON', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  async function importFile(ws: TestWorkspace, body: Record<string, unknown>) {
    const base = `/v1/orgs/${ws.orgId}`
    const created = await ws.api.post(`${base}/imports`, { teamId: ws.teamId, ...body })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    await server.engine.transfer({ onError: (e) => console.error(e) })
    return (await ws.api.get(`${base}/imports/${created.body.id}`)).body
  }

  /** The comments of every fourth task (those the fixtures comment on), by task title: author, time and body. */
  async function commentsOf(ws: TestWorkspace) {
    const base = `/v1/orgs/${ws.orgId}`
    const out = new Map<string, Array<{ authorId: string; createdAt: string; body: string }>>()
    for (const [title, t] of await workspaceOf(ws)) {
      if (!/ (4|8|12|16|20|24|28|32|36|40)$/.test(title)) continue
      const comments = await walk(ws.api, `${base}/tasks/${t.id}/comments`)
      if (comments.length)
        out.set(
          title,
          comments.map((c: any) => ({ authorId: c.authorId, createdAt: c.createdAt, body: c.body })),
        )
    }
    return out
  }

  /**
   * The checks every format shares: a dry run counts what the import then does, refused rows are
   * reported (with their CSV lines) and the rest imported, and the same file again changes nothing.
   */
  async function roundTrip<
    F extends { content: string; rows: number; refused: number[]; lineOf?: Map<number, number> },
  >(
    format: string,
    make: (me: { email: string; name: string }) => F,
    created: (file: F) => number,
    inspect: (ws: TestWorkspace, me: any, errors: any[], file: F) => Promise<void>,
  ) {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const me = (await ws.api.get(`${base}/members`)).body.data[0]
    const file = make(me)
    const counts = {
      status: 'completed',
      totalRows: file.rows,
      processedRows: file.rows,
      createdCount: created(file),
      updatedCount: 0,
      skippedCount: 0,
      errorCount: file.refused.length,
    }
    const dry = await importFile(ws, { format, content: file.content, dryRun: true })
    expect(dry).toMatchObject({ ...counts, dryRun: true })
    expect(await walk(ws.api, `${base}/tasks`)).toEqual([])
    expect((await ws.api.get(`${base}/invitations`)).body.data).toEqual([])

    const imp = await importFile(ws, { format, content: file.content })
    expect(imp).toMatchObject({ ...counts, linkedRows: file.rows })
    const errors = await walk(ws.api, `${base}/imports/${imp.id}/errors`)
    const refused = errors.filter((e) => e.refused)
    expect(refused.map((e) => e.row)).toEqual(file.refused)
    expect(refused.map((e) => e.line)).toEqual(file.refused.map((r) => file.lineOf?.get(r) ?? null))
    expect(refused.some((e) => e.message.includes('not UTF-8'))).toBe(true)
    await inspect(ws, me, errors, file)

    const tasks = await workspaceOf(ws)
    const comments = await commentsOf(ws)
    const invitations = (await ws.api.get(`${base}/invitations`)).body.data
    const again = await importFile(ws, { format, content: file.content })
    expect(again).toMatchObject({
      createdCount: 0,
      updatedCount: 0,
      skippedCount: file.rows - file.refused.length,
      errorCount: file.refused.length,
    })
    expect(await workspaceOf(ws)).toEqual(tasks)
    expect(await commentsOf(ws)).toEqual(comments)
    expect((await ws.api.get(`${base}/invitations`)).body.data).toEqual(invitations)
    const dryAgain = await importFile(ws, { format, content: file.content, dryRun: true })
    expect(dryAgain).toMatchObject({ createdCount: 0, updatedCount: 0 })
    return ws
  }

  it('Jira REST search JSON: epics as projects, sprints as cycles, links, comments with authors and times', async () => {
    await roundTrip(
      'jira_json',
      (me) => jiraJsonExport(ISSUES, me.email),
      (f) => f.epics + f.tasks,
      async (ws, me, errors, file) => {
        const base = `/v1/orgs/${ws.orgId}`
        const tasks = await workspaceOf(ws)
        expect(tasks.size).toBe(file.tasks)
        const projects = await walk(ws.api, `${base}/projects`)
        expect(projects.map((p: any) => p.name).sort()).toEqual(jiraEpics(ISSUES).sort())
        const epic = (name: string) => projects.find((p: any) => p.name === name).id
        expect(tasks.get('Jira issue 2')!.projectId).toBe(epic('Epic 1'))
        expect(tasks.get('Jira issue 32')!.projectId).toBe(epic('Epic 26'))
        expect(tasks.get('Jira issue 3')!.parent).toBe('Jira issue 4')
        expect(tasks.get('Jira issue 2')!.state).toBe('Done')
        expect(tasks.get('Jira issue 3')!.state).toBe('In Review')
        expect(tasks.get('Jira issue 4')!.state).toBe('Canceled')
        expect(tasks.get('Jira issue 5')!.state).toBe('Todo')
        expect(errors.find((e) => e.row === 5)!.message).toContain('no state named `To Do`')
        expect(tasks.get('Jira issue 10')!.assigneeId).toBe(me.id)
        expect(tasks.get('Jira issue 14')!.assigneeId).toBeNull()
        expect(errors.find((e) => e.row === 14)!.message).toContain(
          'newcomer@example.com is not a member: invited',
        )
        expect(tasks.get('Jira issue 13')!.priority).toBe('none')
        expect(errors.find((e) => e.row === 13)!.message).toContain('`P0` has no match')
        expect(tasks.get('Jira issue 9')).toMatchObject({
          description: 'Line one of 9\nline "two", quoted',
          estimate: 8,
          labels: ['backend'],
        })
        expect(tasks.get('Jira issue 8')!.dueDate).toBe('2031-03-09')
        expect(tasks.get('Jira issue 6')!.cycleId).toEqual(expect.any(String))
        expect(tasks.get('Jira issue 12')!.cycleId).toBe(tasks.get('Jira issue 6')!.cycleId)
        expect(tasks.get('Jira issue 3')!.cycleId).not.toBe(tasks.get('Jira issue 6')!.cycleId)
        const cycles = (await ws.api.get(`${base}/teams/${ws.teamId}/cycles`)).body.data
        expect(cycles.map((c: any) => c.name).sort()).toEqual(['ENG Sprint 1', 'ENG Sprint 2'])
        const four = tasks.get('Jira issue 4')!
        const blockers = (await ws.api.get(`${base}/tasks/${four.id}/blockers`)).body.data
        expect(blockers.map((b: any) => b.id)).toContain(tasks.get('Jira issue 5')!.id)
        const links = (await ws.api.get(`${base}/tasks/${tasks.get('Jira issue 2')!.id}/links`)).body.data
        expect(links.map((l: any) => [l.title, l.url])).toEqual([
          ['ENG-2', 'https://acme.atlassian.net/browse/ENG-2'],
        ])
        // Comments: the member's under their name, a stranger's by the importer, each at its original time.
        const comments = (await ws.api.get(`${base}/tasks/${tasks.get('Jira issue 8')!.id}/comments`)).body
          .data
        expect(comments.map((c: any) => [c.authorId, c.createdAt, c.body])).toEqual([
          [me.id, '2030-06-01T10:00:00.000Z', 'First comment on 8'],
          [me.id, '2030-06-02T09:30:00.000Z', '*Originally by Grace Hopper*\n\nSecond\non 8'],
        ])
        expect(errors.find((e) => e.row === ISSUES + 5)!.message).toContain(
          'stranger@example.com wrote comments',
        )
        const invited = (await ws.api.get(`${base}/invitations`)).body.data.map((i: any) => i.email).sort()
        expect(invited).toEqual(['newcomer@example.com', 'stranger@example.com'])
      },
    )
  }, 600_000)

  it('Jira CSV (all fields): repeated columns, epics by parent id, links both ways, comment cells', async () => {
    await roundTrip(
      'jira_csv',
      (me) => jiraCsvExport(ISSUES, me.name),
      (f) => f.epics + f.tasks,
      async (ws, me, errors, file) => {
        const base = `/v1/orgs/${ws.orgId}`
        const tasks = await workspaceOf(ws)
        expect(tasks.size).toBe(file.tasks)
        const projects = await walk(ws.api, `${base}/projects`)
        expect(projects).toHaveLength(file.epics)
        expect(tasks.get('Jira CSV issue 32')!.projectId).toBe(
          projects.find((p: any) => p.name === 'Epic 26').id,
        )
        expect(tasks.get('Jira CSV issue 3')!.parent).toBe('Jira CSV issue 4')
        expect(tasks.get('Jira CSV issue 11')).toMatchObject({
          labels: ['backend', 'ops'],
          state: 'In Progress',
        })
        expect(tasks.get('Jira CSV issue 10')!.assigneeId).toBe(me.id)
        expect(errors.find((e) => e.row === 14)!.message).toContain('No member is named `Someone Unknown`')
        expect(errors.find((e) => e.row === 6)!.message).toContain('sprint `OPS Sprint 1` no dates')
        expect(tasks.get('Jira CSV issue 9')).toMatchObject({
          description: 'Line one of 9\nline "two", quoted',
          estimate: 8,
        })
        expect(tasks.get('Jira CSV issue 8')!.dueDate).toBe('2031-03-09')
        const blockers = (await ws.api.get(`${base}/tasks/${tasks.get('Jira CSV issue 4')!.id}/blockers`))
          .body.data
        expect(blockers).toHaveLength(1)
        const comments = (await ws.api.get(`${base}/tasks/${tasks.get('Jira CSV issue 8')!.id}/comments`))
          .body.data
        expect(comments.map((c: any) => [c.createdAt, c.body])).toEqual([
          ['2030-06-02T14:15:00.000Z', '*Originally by acc-grace*\n\nA comment; with a semicolon'],
          ['2030-06-03T09:00:00.000Z', '*Originally by acc-owner*\n\nSecond on 8'],
        ])
        const refused = errors.filter((e) => e.refused)
        expect(refused[0].message).toContain('has the same key, OPS-3')
        expect(refused.map((e) => e.field)).toEqual(['key', 'title', 'Due date', 'title'])
      },
    )
  }, 600_000)

  it('Asana project JSON: sections to states, completion to done, tags, dependencies, comment stories', async () => {
    await roundTrip(
      'asana_json',
      (me) => asanaJsonExport(ISSUES, me.email),
      (f) => f.tasks,
      async (ws, me, errors, file) => {
        const base = `/v1/orgs/${ws.orgId}`
        const tasks = await workspaceOf(ws)
        expect(tasks.size).toBe(file.tasks)
        expect(tasks.get('Asana task 1')!.state).toBe('In Progress')
        expect(tasks.get('Asana task 2')!.state).toBe('Todo')
        expect(errors.find((e) => e.row === 2)!.message).toContain('no state named `Doing`')
        expect(tasks.get('Asana task 3')!.state).toBe('Done')
        expect(tasks.get('Asana task 11')!.state).toBe('Done')
        expect(tasks.get('Asana task 4')).toMatchObject({ priority: 'high', labels: [] })
        expect(tasks.get('Asana task 9')).toMatchObject({
          estimate: 3,
          labels: ['design'],
          description: 'Line one of 9\nline "two", quoted',
        })
        expect(tasks.get('Asana task 10')!.assigneeId).toBe(me.id)
        expect(tasks.get('Asana task 3')!.parent).toBe('Asana task 4')
        expect(tasks.get('Asana task 8')!.dueDate).toBe('2031-03-09')
        expect((await walk(ws.api, `${base}/projects`)).map((p: any) => p.name)).toEqual(['Website launch'])
        const blockers = (await ws.api.get(`${base}/tasks/${tasks.get('Asana task 4')!.id}/blockers`)).body
          .data
        expect(blockers).toHaveLength(1)
        const comments = (await ws.api.get(`${base}/tasks/${tasks.get('Asana task 8')!.id}/comments`)).body
          .data
        expect(comments.map((c: any) => [c.authorId, c.createdAt, c.body])).toEqual([
          [me.id, '2030-06-02T10:00:00.000Z', 'Looks good, 8'],
          [me.id, '2030-06-03T10:00:00.000Z', '*Originally by Alan Turing*\n\nFrom a former colleague'],
        ])
        const links = (await ws.api.get(`${base}/tasks/${tasks.get('Asana task 8')!.id}/links`)).body.data
        expect(links.map((l: any) => l.url)).toEqual(['https://app.asana.com/0/99/1200008'])
      },
    )
  }, 600_000)

  it('Asana CSV: columns as Asana writes them, a parent named by title is a note', async () => {
    await roundTrip(
      'asana_csv',
      (me) => asanaCsvExport(ISSUES, me.email),
      (f) => f.tasks,
      async (ws, me, errors, file) => {
        const tasks = await workspaceOf(ws)
        expect(tasks.size).toBe(file.tasks)
        expect(tasks.get('Asana CSV task 3')).toMatchObject({ state: 'Done', parent: 'Asana CSV task 4' })
        expect(tasks.get('Asana CSV task 9')).toMatchObject({ estimate: 5, labels: ['design', 'web'] })
        expect(tasks.get('Asana CSV task 10')!.assigneeId).toBe(me.id)
        expect(tasks.get('Asana CSV task 4')!.priority).toBe('high')
        expect(errors.find((e) => e.row === 7)!.message).toContain('named, not given by id')
        expect(errors.find((e) => e.row === 14)!.message).toContain('newcomer@example.com is not a member')
      },
    )
  }, 600_000)

  it('Linear GraphQL JSON: state types, priorities 0-4, relations, comments', async () => {
    await roundTrip(
      'linear_json',
      (me) => linearJsonExport(ISSUES, me.email),
      (f) => f.tasks,
      async (ws, me, errors, file) => {
        const base = `/v1/orgs/${ws.orgId}`
        const tasks = await workspaceOf(ws)
        expect(tasks.size).toBe(file.tasks)
        expect(tasks.get('Linear issue 5')!.state).toBe('In Progress')
        expect(errors.find((e) => e.row === 5)!.message).toContain('no state named `In QA`')
        expect(tasks.get('Linear issue 1')).toMatchObject({
          state: 'Todo',
          priority: 'urgent',
          labels: ['Bug'],
        })
        expect(tasks.get('Linear issue 8')).toMatchObject({
          priority: 'medium',
          dueDate: '2031-03-09',
          projectId: expect.any(String),
        })
        expect(tasks.get('Linear issue 10')!.assigneeId).toBe(me.id)
        expect(tasks.get('Linear issue 11')!.parent).toBe('Linear issue 16')
        expect(tasks.get('Linear issue 6')!.cycleId).toBe(tasks.get('Linear issue 12')!.cycleId)
        const blockers = (await ws.api.get(`${base}/tasks/${tasks.get('Linear issue 3')!.id}/blockers`)).body
          .data
        expect(blockers).toHaveLength(1)
        const comments = (await ws.api.get(`${base}/tasks/${tasks.get('Linear issue 8')!.id}/comments`)).body
          .data
        expect(comments.map((c: any) => [c.authorId, c.createdAt, c.body])).toEqual([
          [me.id, '2030-06-02T10:00:00.000Z', 'Comment on 8'],
          [me.id, '2030-06-03T10:00:00.000Z', '*Originally by gone@example.com*\n\nFrom someone gone'],
        ])
        const links = (await ws.api.get(`${base}/tasks/${tasks.get('Linear issue 8')!.id}/links`)).body.data
        expect(links.map((l: any) => [l.title, l.url])).toEqual([
          ['LIN-8', 'https://linear.app/acme/issue/LIN-8/issue-8'],
        ])
        const invited = (await ws.api.get(`${base}/invitations`)).body.data.map((i: any) => i.email).sort()
        expect(invited).toEqual(['gone@example.com', 'newcomer@example.com'])
      },
    )
  }, 600_000)

  it('a file that is not the shape its format names is refused before anything is queued', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    for (const [format, content] of [
      ['jira_json', '{"issues": 3}'],
      ['jira_json', '{"issues": [1, '],
      ['asana_json', '[]'],
      ['linear_json', '{"data": {}}'],
      ['jira_csv', 'Title\nx\n'],
      ['asana_csv', 'ID,Name\n1,x\n'],
    ])
      expect(await ws.api.post(`${base}/imports`, { format, teamId: ws.teamId, content })).toMatchObject({
        status: 422,
        body: { code: 'rule_violated', errors: [{ pointer: '/body/content' }] },
      })
  })
})
