import type { UserId } from '@workgraph/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * On SQLite the indexes of `tasks` on parent, cycle, milestone, project and assignee hold only the
 * tasks that have one (migration 0075: a create without them writes fewer WAL frames). The lists
 * filtered by each, and by its `none`, still find exactly their tasks on both databases, and on
 * SQLite a lookup by one of them (a filter, a foreign key's check of its children) still reads its index.
 */
describeEachDatabase('tasks indexes on columns most tasks leave empty', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const post = async (path: string, body: unknown) => {
      const res = await ws.api.post(`${base}${path}`, body)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return res.body.id as string
    }
    const me = await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id as UserId))
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString()
    ids.project = await post('/projects', { name: 'Launch', teamIds: [ws.teamId] })
    ids.milestone = await post(`/projects/${ids.project}/milestones`, { name: 'Beta' })
    ids.cycle = await post(`/teams/${ws.teamId}/cycles`, { startsAt: day(-1), endsAt: day(6) })
    ids.plain = await post('/tasks', { teamId: ws.teamId, title: 'plain' })
    ids.inProject = await post('/tasks', {
      teamId: ws.teamId,
      title: 'in a project',
      projectId: ids.project,
      milestoneId: ids.milestone,
    })
    ids.inCycle = await post('/tasks', { teamId: ws.teamId, title: 'in a cycle', cycleId: ids.cycle })
    ids.child = await post('/tasks', { teamId: ws.teamId, title: 'a sub-task', parentId: ids.plain })
    ids.assigned = await post('/tasks', { teamId: ws.teamId, title: 'assigned', assigneeId: me!.id })
    ids.me = me!.id
  }, 60_000)
  afterAll(() => server.drop())

  const listed = async (query: string) => {
    const res = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks?${query}&limit=50`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return (res.body.data as { id: string }[]).map((t) => t.id).sort()
  }
  const all = () => ['plain', 'inProject', 'inCycle', 'child', 'assigned'].map((k) => ids[k]!)
  const except = (key: string) =>
    all()
      .filter((id) => id !== ids[key])
      .sort()

  it('finds exactly the tasks with a given parent, cycle, milestone, project or assignee, and those with none', async () => {
    expect(await listed(`projectId=${ids.project}`)).toEqual([ids.inProject])
    expect(await listed('projectId=none')).toEqual(except('inProject'))
    expect(await listed(`milestoneId=${ids.milestone}`)).toEqual([ids.inProject])
    expect(await listed('milestoneId=none')).toEqual(except('inProject'))
    expect(await listed(`cycleId=${ids.cycle}`)).toEqual([ids.inCycle])
    expect(await listed('cycleId=none')).toEqual(except('inCycle'))
    expect(await listed(`parentId=${ids.plain}`)).toEqual([ids.child])
    expect(await listed(`assigneeId=${ids.me}`)).toEqual([ids.assigned])
    expect(await listed('assigneeId=none')).toEqual(except('assigned'))
  })

  it('reads each index for a lookup by its column (SQLite plan)', async () => {
    if (db.name !== 'sqlite') return
    const lookups: [index: RegExp, column: string][] = [
      [/INDEX tasks_parent /, 'parent_id'],
      [/INDEX tasks_cycle /, 'cycle_id'],
      [/INDEX tasks_milestone /, 'milestone_id'],
      [/INDEX tasks_project_(created|updated) /, 'project_id'],
      [/INDEX tasks_assignee_due /, 'assignee_id'],
    ]
    for (const [index, column] of lookups) {
      const plan = await sql<{
        detail: string
      }>`explain query plan select id from tasks where org_id = ${ws.orgId} and ${sql.ref(column)} = ${'x'}`.execute(
        server.storage.db,
      )
      expect(plan.rows.map((r) => r.detail).join(' | ')).toMatch(index)
    }
  })
})
