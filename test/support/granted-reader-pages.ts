import { expect } from 'vitest'
import type { TestWorkspace } from './workspace.ts'

/** A guest who may view whole teams and single projects, and nothing else. */
export interface GrantedReader {
  name: string
  api: TestWorkspace['api']
  teams: string[]
  projects: string[]
}

/** Where each task sits, by id: what decides whether a reader may see it. */
export type TaskPlaces = ReadonlyMap<string, { teamId: string; projectId: string | null }>

/** Adds a guest to the workspace with a view grant on each of the teams and projects. */
export async function addGrantedReader(
  ws: TestWorkspace,
  name: string,
  on: { teams: string[]; projects: string[] },
): Promise<GrantedReader> {
  const guest = await ws.addMember('guest')
  for (const containerId of [...on.teams, ...on.projects]) {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: containerId.startsWith('proj_') ? 'project' : 'team',
      containerId,
      capability: 'view',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  return { name, api: guest.api, ...on }
}

/**
 * Walks every page of the reader's task list (`query`, `limit` a page) and expects exactly the
 * owner's list under the same query (one page of 200), narrowed to the reader's teams and projects,
 * in the owner's order. With `fullPages`, also that no page is longer than the limit and every page
 * but the last is full.
 */
export async function expectReaderPagesNarrowOwners(
  ws: TestWorkspace,
  reader: GrantedReader,
  options: { tasks: TaskPlaces; query: string; limit: number; fullPages?: boolean },
): Promise<void> {
  const { tasks, query, limit } = options
  const path = `/v1/orgs/${ws.orgId}/tasks?${query}`
  const everything: { id: string }[] = (await ws.api.get(`${path}&limit=200`)).body.data
  const expected = everything
    .map((t) => t.id)
    .filter((id) => {
      const task = tasks.get(id)!
      return (
        reader.teams.includes(task.teamId) ||
        (task.projectId !== null && reader.projects.includes(task.projectId))
      )
    })
  const ids: string[] = []
  let cursor: string | null = null
  for (let guard = 0; guard < 200; guard++) {
    const page: { status: number; body: { data: { id: string }[]; nextCursor: string | null } } =
      await reader.api.get(`${path}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    if (options.fullPages) {
      expect(page.body.data.length).toBeLessThanOrEqual(limit)
      if (page.body.nextCursor) expect(page.body.data.length).toBe(limit)
    }
    ids.push(...page.body.data.map((t) => t.id))
    cursor = page.body.nextCursor
    if (!cursor) {
      expect(ids, `${reader.name}: ${query}, limit ${limit}`).toEqual(expected)
      return
    }
  }
  throw new Error('more pages than tasks')
}
