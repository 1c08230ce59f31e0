import type { TestWorkspace } from './workspace.ts'

/** Creates a task in the workspace's team (or another) and returns its body. */
export async function newTask(ws: TestWorkspace, title: string, extra: Record<string, unknown> = {}) {
  const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title, ...extra })
  if (res.status !== 201) throw new Error(`task: ${JSON.stringify(res.body)}`)
  return res.body
}

/**
 * Reads every page of a list with the given page size (no page longer than it); returns the items
 * in order.
 */
export async function readAll(ws: Pick<TestWorkspace, 'api'>, path: string, limit: number): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null = null
  const sep = path.includes('?') ? '&' : '?'
  do {
    const page: any = await ws.api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    if (page.status !== 200) throw new Error(`${path}: ${JSON.stringify(page.body)}`)
    if (page.body.data.length > limit)
      throw new Error(`${path}: a page of ${page.body.data.length} > ${limit}`)
    items.push(...page.body.data)
    cursor = page.body.nextCursor
  } while (cursor)
  return items
}
