import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  addGrantedReader,
  expectReaderPagesNarrowOwners,
  type GrantedReader,
} from '../support/granted-reader-pages.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * The sides of a reader with project grants and at most one team read only each task's sort key
 * and id, then the page's rows: the filters that need another table (the state's category, the
 * full-text index, labels, dependencies, subtasks) must still narrow every side, so each filtered
 * walk gives exactly what the owner sees with the same filter, narrowed to the reader's grants.
 */
describeEachDatabase('filtered task pages of readers with project grants', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  let base: string
  let labelId: string
  const tasks = new Map<string, { teamId: string; projectId: string | null }>()
  const readers: GrantedReader[] = []

  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    base = `/v1/orgs/${ws.orgId}`
    const teams = [ws.teamId]
    for (const key of ['BBB', 'CCC'])
      teams.push((await ws.api.post(`${base}/teams`, { name: key, key })).body.id)
    const projects: string[] = []
    for (const [i, teamId] of teams.entries())
      projects.push((await ws.api.post(`${base}/projects`, { name: `P${i}`, teamIds: [teamId] })).body.id)
    labelId = (await ws.api.post(`${base}/labels`, { name: 'Bug' })).body.id
    const created: string[] = []
    for (let i = 0; i < 30; i++) {
      const teamId = teams[i % 3]!
      const projectId = i % 4 === 3 ? null : projects[i % 3]!
      const body = {
        teamId,
        title: i % 2 === 0 ? `Alpha ${i}` : `Beta ${i}`,
        priority: ['urgent', 'high', 'medium', 'low', 'none'][i % 5],
        ...(projectId ? { projectId } : {}),
        ...(i % 3 === 0 ? {} : { dueDate: `2030-01-0${1 + (i % 4)}` }),
        // The first team's tasks move through its states (the other teams' stay in their first).
        ...(teamId === ws.teamId && i % 2 === 0 ? { stateId: ws.states['In Progress']!.id } : {}),
        ...(i >= 6 && i % 5 === 1 ? { parentId: created[i - 6] } : {}),
      }
      const res = await ws.api.post(`${base}/tasks`, body)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      created.push(res.body.id)
      tasks.set(res.body.id, { teamId, projectId })
      if (i % 4 === 1)
        expect((await ws.api.put(`${base}/tasks/${res.body.id}/labels/${labelId}`)).status).toBe(200)
    }
    // Open tasks block others in the first project, which both readers see (a reader's flag counts
    // only blockers it can see, so pairs out of sight would differ from the owner's by design).
    for (const [blocked, blocker] of [
      [6, 0],
      [18, 12],
      [24, 21],
    ] as const) {
      const res = await ws.api.put(`${base}/tasks/${created[blocked]}/blockers/${created[blocker]}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }

    const reader = async (name: string, on: { teams: string[]; projects: string[] }) =>
      readers.push(await addGrantedReader(ws, name, on))
    await reader('team + other projects', { teams: [teams[1]!], projects: [projects[0]!, projects[2]!] })
    await reader('projects only', { teams: [], projects: [projects[0]!, projects[1]!] })
  }, 300_000)
  afterAll(() => server.drop())

  const FILTERS = [
    'stateCategory=started',
    'stateCategory=backlog,unstarted',
    'q=alpha',
    'labelId=LABEL',
    'blocked=true',
    'blocked=false',
    'parentId=none',
    'dueBefore=2030-01-02',
  ]

  it('narrows every side by each filter, in every sort, to exactly the visible tasks', async () => {
    for (const reader of readers)
      for (const filter of FILTERS)
        for (const sort of ['-createdAt', 'priority', '-dueDate']) {
          const query = `sort=${sort}&${filter.replace('LABEL', labelId)}`
          await expectReaderPagesNarrowOwners(ws, reader, { tasks, query, limit: 2 })
        }
  }, 300_000)
})
