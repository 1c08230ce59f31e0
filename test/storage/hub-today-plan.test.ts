import type { UserId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { recordStatements, sqlitePlan } from '../support/statements.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * `hub.today`'s task sections read the person's tasks through `tasks_assignee_due` (their due
 * order, undated last, ties by id), each section stopping at its limit: the pages stay exact (dated
 * before undated, ties by id, completed ones left out), and on SQLite each section's member of the
 * statement is an index range in its order, not the person's every task sorted.
 */
describeEachDatabase('hub.today sections by due date', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  const today = new Date().toISOString().slice(0, 10)
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
  /** Task ids by due date (`none` for undated), in creation order. */
  const due = new Map<string, string[]>()

  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    const me = await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id as UserId))
    const base = `/v1/orgs/${ws.orgId}`
    for (const date of [
      day(-3),
      day(-3),
      day(-3),
      day(-1),
      today,
      today,
      today,
      day(1),
      day(2),
      day(6),
      null,
      null,
    ]) {
      const res = await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title: `due ${date ?? 'never'}`,
        assigneeId: me!.id,
        ...(date ? { dueDate: date } : {}),
      })
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      due.set(date ?? 'none', [...(due.get(date ?? 'none') ?? []), res.body.id])
    }
    // A completed task due today is in no section.
    const done = due.get(today)!.pop()!
    const states = (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data
    const completed = states.find((s: { category: string }) => s.category === 'completed').id
    expect((await ws.api.patch(`${base}/tasks/${done}`, { stateId: completed })).status).toBeLessThan(300)
  }, 60_000)
  afterAll(() => server.drop())

  const ids = (section: { items: Array<{ id: string }> }) => section.items.map((t) => t.id)
  const sorted = (xs: string[]) => [...xs].sort()

  it('pages each section in due order, ties by id, up to its limit', async () => {
    const res = await ws.api.get(`/v1/hub/today?date=${today}&limit=2`)
    expect(res.status).toBe(200)
    const overdue = [...sorted(due.get(day(-3))!), ...due.get(day(-1))!]
    expect(ids(res.body.overdue)).toEqual(overdue.slice(0, 2))
    expect(res.body.overdue.more).toBe(true)
    expect(ids(res.body.dueToday)).toEqual(sorted(due.get(today)!))
    expect(res.body.dueToday.more).toBe(false)
    expect(ids(res.body.dueSoon)).toEqual([...due.get(day(1))!, ...due.get(day(2))!])
    expect(res.body.dueSoon.more).toBe(false)
    const all = await ws.api.get(`/v1/hub/today?date=${today}&limit=20`)
    expect(ids(all.body.overdue)).toEqual(overdue)
  })

  it('reads each section as a range of tasks_assignee_due, in its order (SQLite plan)', async () => {
    if (db.name !== 'sqlite') return
    const recorded = await recordStatements(server.storage.db, async () => {
      expect((await ws.api.get(`/v1/hub/today?date=${today}`)).status).toBe(200)
    })
    const statement = recorded.find((r) => r.sql.includes('as "section"'))!
    expect(statement).toBeDefined()
    const details = await sqlitePlan(server.storage.db, statement)
    const reads = details.filter((d) => /^SEARCH tasks USING .*assignee_id=\?/.test(d))
    // One read per section, each through the index in its order: no section sorts its rows; the one
    // sort left is the statement's own, of the sections' few rows.
    expect(reads).toHaveLength(5)
    for (const read of reads) expect(read).toContain('tasks_assignee_due')
    // Overdue, due today and due soon: a range of the due order, not the person's every task.
    expect(reads.filter((r) => r.includes('<expr>'))).toHaveLength(3)
    expect(details.filter((d) => d === 'USE TEMP B-TREE FOR ORDER BY')).toHaveLength(1)
  })
})
