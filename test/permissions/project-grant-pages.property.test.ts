import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const SORTS = [
  'createdAt',
  '-createdAt',
  'updatedAt',
  '-updatedAt',
  'priority',
  '-priority',
  'dueDate',
  '-dueDate',
  'field',
  '-field',
] as const
const PRIORITIES = ['urgent', 'high', 'medium', 'low', 'none'] as const

/**
 * A reader with project grants and at most one team gets its task list in sides (its team, then
 * each granted project outside it) merged by the page's keyset; with more teams, one query. Whatever the sort, the filter and the page size, walking
 * the pages must give exactly what the owner sees, narrowed to the reader's teams and projects.
 */
describeEachDatabase('task pages of readers with project grants (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  let teams: string[]
  let projects: string[]
  let fieldId: string
  const tasks = new Map<string, { teamId: string; projectId: string | null }>()
  const readers: Array<{ name: string; api: TestWorkspace['api']; teams: string[]; projects: string[] }> = []

  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    teams = [ws.teamId]
    for (const key of ['BBB', 'CCC'])
      teams.push((await ws.api.post(`${base}/teams`, { name: key, key })).body.id)
    // P0 spans the first two teams; the others sit in one team each.
    const spans = [[teams[0], teams[1]], [teams[1]], [teams[2]], [teams[2]]]
    projects = []
    for (const [i, teamIds] of spans.entries())
      projects.push((await ws.api.post(`${base}/projects`, { name: `P${i}`, teamIds })).body.id)
    fieldId = (await ws.api.post(`${base}/custom-fields`, { name: 'Cost', type: 'number' })).body.id
    const created: string[] = []
    for (let i = 0; i < 42; i++) {
      const teamId = teams[i % 3]!
      const inProjects = spans.flatMap((s, p) => (s.includes(teamId) ? [projects[p]!] : []))
      const projectId = i % 4 === 3 ? null : inProjects[i % inProjects.length]!
      const body = {
        teamId,
        title: `T${i}`,
        priority: PRIORITIES[i % 5],
        ...(projectId ? { projectId } : {}),
        // Ties on purpose: equal due dates, equal costs, and tasks with neither.
        ...(i % 3 === 0 ? {} : { dueDate: `2030-01-0${1 + (i % 4)}` }),
        ...(i % 5 === 0 ? {} : { fields: { [fieldId]: i % 3 } }),
      }
      const res = await ws.api.post(`${base}/tasks`, body)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      created.push(res.body.id)
      tasks.set(res.body.id, { teamId, projectId })
    }
    // Past PROJECT_SIDES (32) granted projects, one side reads them all: 30 more projects in the
    // third team, a task in every fifth.
    for (let i = 0; i < 30; i++) {
      const projectId = (await ws.api.post(`${base}/projects`, { name: `Q${i}`, teamIds: [teams[2]] })).body
        .id
      projects.push(projectId)
      if (i % 5 !== 0) continue
      const body = { teamId: teams[2], title: `Q${i}`, projectId, priority: PRIORITIES[i % 5] }
      const res = await ws.api.post(`${base}/tasks`, body)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      created.push(res.body.id)
      tasks.set(res.body.id, { teamId: teams[2]!, projectId })
    }
    // Some change (updatedAt differs from creation order), some are archived.
    for (const id of created.filter((_, i) => i % 6 === 1).reverse())
      expect((await ws.api.patch(`${base}/tasks/${id}`, { estimate: 3 })).status).toBe(200)
    for (const id of created.filter((_, i) => i % 7 === 2))
      expect((await ws.api.post(`${base}/tasks/${id}/archive`)).status).toBe(200)

    const reader = async (name: string, on: { teams: string[]; projects: string[] }) => {
      const guest = await ws.addMember('guest')
      for (const containerId of [...on.teams, ...on.projects]) {
        const res = await ws.api.post(`${base}/grants`, {
          subjectType: 'member',
          subjectId: guest.memberId,
          containerType: containerId.startsWith('proj_') ? 'project' : 'team',
          containerId,
          capability: 'view',
        })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
      }
      readers.push({ name, api: guest.api, ...on })
    }
    // A team and projects of other teams; a team and a project spanning it (the sides overlap in
    // the data, never in the result); projects alone.
    await reader('team + other projects', { teams: [teams[0]!], projects: [projects[1]!, projects[2]!] })
    await reader('team + a project across it', { teams: [teams[0]!], projects: [projects[0]!, projects[3]!] })
    await reader('projects only', { teams: [], projects: [projects[0]!, projects[2]!] })
    // One project and no team: one index range, read directly as a one-team reader's.
    await reader('one project', { teams: [], projects: [projects[2]!] })
    await reader('team + 33 projects', { teams: [teams[1]!], projects: projects.slice(1, 34) })
    // Two teams: one query with the `or` (the team list alone already walks the org in page order).
    await reader('two teams + a project', { teams: [teams[0]!, teams[1]!], projects: [projects[2]!] })
  }, 300_000)
  afterAll(() => server.drop())

  const walk = async (api: TestWorkspace['api'], query: string, limit: number) => {
    const ids: string[] = []
    let cursor: string | null = null
    for (let guard = 0; guard < 200; guard++) {
      const page: { status: number; body: { data: { id: string }[]; nextCursor: string | null } } =
        await api.get(
          `/v1/orgs/${ws.orgId}/tasks?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        )
      expect(page.status, JSON.stringify(page.body)).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(limit)
      if (page.body.nextCursor) expect(page.body.data.length).toBe(limit)
      ids.push(...page.body.data.map((t: { id: string }) => t.id))
      cursor = page.body.nextCursor
      if (!cursor) return ids
    }
    throw new Error('more pages than tasks')
  }

  it('walks every sort, filter and page size to exactly the visible tasks, in the owner’s order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: readers.length - 1 }),
        fc.constantFrom(...SORTS),
        fc.constantFrom('', 'archived=include', 'archived=only', 'priority=high', 'team', 'project'),
        fc.integer({ min: 1, max: 7 }),
        async (r, sort, filter, limit) => {
          const reader = readers[r]!
          const sortQuery = sort.endsWith('field')
            ? `fieldSort=${sort.replace('field', fieldId)}`
            : `sort=${sort}`
          const filterQuery =
            filter === 'team'
              ? `teamId=${teams[1]}`
              : filter === 'project'
                ? `projectId=${projects[0]}`
                : filter
          const query = [sortQuery, filterQuery].filter(Boolean).join('&')
          const everything = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks?${query}&limit=200`)).body.data
          const expected = everything
            .map((t: { id: string }) => t.id)
            .filter((id: string) => {
              const task = tasks.get(id)!
              return (
                reader.teams.includes(task.teamId) ||
                (task.projectId !== null && reader.projects.includes(task.projectId))
              )
            })
          expect(await walk(reader.api, query, limit), `${reader.name}: ${query}, limit ${limit}`).toEqual(
            expected,
          )
        },
      ),
      { numRuns: Number(process.env.PAGE_RUNS ?? 60) },
    )
  }, 600_000)
})
