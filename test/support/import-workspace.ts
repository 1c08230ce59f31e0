import { expect } from 'vitest'
import type { TestWorkspace } from './workspace.ts'

type Api = TestWorkspace['api']

/** Every item of a paged list. */
export async function walk(api: Api, path: string, limit = 200): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null = null
  do {
    const sep = path.includes('?') ? '&' : '?'
    const res: any = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    items.push(...res.body.data)
    cursor = res.body.nextCursor
  } while (cursor)
  return items
}

/** The team's tasks as a person would compare them: by title, with state, people, labels and links by name. */
export async function workspaceOf(ws: TestWorkspace) {
  const base = `/v1/orgs/${ws.orgId}`
  const tasks = await walk(ws.api, `${base}/tasks?archived=include`)
  const stateName = new Map(Object.entries(ws.states).map(([name, s]) => [s.id, name]))
  const labels = new Map((await walk(ws.api, `${base}/labels`)).map((l: any) => [l.id, l.name]))
  const titleOf = new Map(tasks.map((t: any) => [t.id, t.title]))
  return new Map(
    tasks.map((t: any) => [
      t.title,
      {
        id: t.id,
        state: stateName.get(t.stateId),
        assigneeId: t.assigneeId,
        priority: t.priority,
        estimate: t.estimate,
        dueDate: t.dueDate,
        description: t.description,
        labels: t.labelIds.map((id: string) => labels.get(id)).sort(),
        parent: t.parentId ? titleOf.get(t.parentId) : null,
        projectId: t.projectId,
        cycleId: t.cycleId,
        updatedAt: t.updatedAt,
      },
    ]),
  )
}
