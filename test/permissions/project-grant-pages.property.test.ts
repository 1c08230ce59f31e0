import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  addGrantedReader,
  expectReaderPagesNarrowOwners,
  type GrantedReader,
} from '../support/granted-reader-pages.ts'
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
  const readers: GrantedReader[] = []

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

    const reader = async (name: string, on: { teams: string[]; projects: string[] }) =>
      readers.push(await addGrantedReader(ws, name, on))
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
          await expectReaderPagesNarrowOwners(ws, reader, { tasks, query, limit, fullPages: true })
        },
      ),
      { numRuns: Number(process.env.PAGE_RUNS ?? 60) },
    )
  }, 600_000)
})
