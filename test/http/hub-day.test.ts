import { ProblemError } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/http.ts'
import { hubWorkspaces, postIn as post } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import type { TestWorkspace } from '../support/workspace.ts'

/**
 * The hub's personal reads (today, tasks, approvals, inbox counts): Alice owns A, is a member of B
 * and a guest of C who sees only its ENG team; nothing of C's Secret team may show.
 */
describeEachDatabase('hub: my day', (db) => {
  let server: TestServer & { drop(): Promise<void> }
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  // Days counted from one moment, so a run that crosses midnight (UTC) keeps them consistent.
  const start = new Date()
  const day = (offset: number) => {
    const d = new Date(start)
    d.setUTCDate(d.getUTCDate() + offset)
    return d.toISOString().slice(0, 10)
  }
  const today = day(0)

  let a: TestWorkspace
  let b: TestWorkspace
  let c: TestWorkspace
  let api: ReturnType<TestServer['as']>
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    const world = await hubWorkspaces(server)
    ;({ a, b, c, api } = world)
    const { aliceInA, aliceInB, aliceInC, secretTeam } = world

    const task = async (ws: TestWorkspace, name: string, body: Record<string, unknown>) => {
      ids[name] = (await post(ws, '/tasks', { teamId: ws.teamId, title: name, ...body })).id
      return ids[name]!
    }
    await task(a, 'a-overdue', { assigneeId: aliceInA, dueDate: day(-3) })
    await task(a, 'a-today', { assigneeId: aliceInA, dueDate: today })
    await task(a, 'a-soon', { assigneeId: aliceInA, dueDate: day(2) })
    await task(a, 'a-later', { assigneeId: aliceInA, dueDate: day(5) })
    const cycle = await post(a, `/teams/${a.teamId}/cycles`, {
      startsAt: new Date(Date.now() - 86_400_000).toISOString(),
      endsAt: new Date(Date.now() + 6 * 86_400_000).toISOString(),
    })
    const inCycle = await task(a, 'a-cycle', { assigneeId: aliceInA })
    await post(a, '/tasks/batch-update', { items: [{ id: inCycle, cycleId: cycle.id }] })
    // A task whose only blocker was just completed is newly unblocked.
    const blocker = await task(a, 'a-blocker', {})
    const blocked = await task(a, 'a-unblocked', { assigneeId: aliceInA })
    expect((await a.api.put(`/v1/orgs/${a.orgId}/tasks/${blocked}/blockers/${blocker}`)).status).toBe(200)
    const done = Object.values(a.states).find((s) => s.category === 'completed')!.id
    await a.api.patch(`/v1/orgs/${a.orgId}/tasks/${blocker}`, { stateId: done })
    await task(a, 'a-done', { assigneeId: aliceInA, dueDate: day(-1), stateId: done })

    await task(b, 'b-today', { assigneeId: aliceInB, dueDate: today })
    // Created by B's owner: Alice follows it, and a comment mentions her.
    const followed = await task(b, 'b-followed', {})
    const follow = await b.api.put(`/v1/orgs/${b.orgId}/tasks/${followed}/subscribers/${aliceInB}`)
    expect(follow.status).toBe(200)
    const aliceName = (await b.api.get(`/v1/orgs/${b.orgId}/members/${aliceInB}`)).body.name as string
    await post(b, `/tasks/${followed}/comments`, {
      body: `@${aliceName.replace(/\s+/g, '').toLowerCase()} look`,
    })

    await task(c, 'c-today', { assigneeId: aliceInC, dueDate: today })
    ids['c-secret'] = (
      await post(c, '/tasks', { teamId: secretTeam, title: 'c-secret', assigneeId: aliceInC, dueDate: today })
    ).id
    await server.engine.notify({ onError: (e) => console.error(e) })
  })

  const names = (tasks: any[]) => tasks.map((t) => Object.keys(ids).find((k) => ids[k] === t.id))

  it('today: sections from every workspace, only what the caller may view', async () => {
    const res = await api.get(`/v1/hub/today?date=${today}`)
    expect(res.status).toBe(200)
    expect(res.body.date).toBe(today)
    expect(res.body.partial).toEqual([])
    expect(names(res.body.overdue.items)).toEqual(['a-overdue'])
    expect(new Set(names(res.body.dueToday.items))).toEqual(new Set(['a-today', 'b-today', 'c-today']))
    expect(names(res.body.dueSoon.items)).toEqual(['a-soon'])
    expect(names(res.body.currentCycle.items)).toEqual(['a-cycle'])
    expect(names(res.body.unblocked.items)).toEqual(['a-unblocked'])
    expect(res.body.mentions.items.map((n: any) => n.orgId)).toEqual([b.orgId])
    expect(res.body.approvals).toEqual({ items: [], more: false })
    const capped = await api.get(`/v1/hub/today?date=${today}&limit=1`)
    expect(capped.body.dueToday.items).toHaveLength(1)
    expect(capped.body.dueToday.more).toBe(true)
    expect(capped.body.overdue.more).toBe(false)
    // Another day moves the sections; a bad date is refused.
    const later = await api.get(`/v1/hub/today?date=${day(5)}`)
    expect(names(later.body.dueToday.items)).toEqual(['a-later'])
    expect((await api.get('/v1/hub/today?date=tomorrow')).status).toBe(400)
  })

  it('tasks: assigned, created, followed across workspaces, paged, never the secret team', async () => {
    const all = await api.get('/v1/hub/tasks?limit=100')
    expect(all.status).toBe(200)
    const assigned = names(all.body.data)
    expect(assigned).not.toContain('c-secret')
    expect(assigned).not.toContain('a-done')
    expect(new Set(assigned)).toEqual(
      new Set(['a-overdue', 'a-today', 'a-soon', 'a-later', 'a-cycle', 'a-unblocked', 'b-today', 'c-today']),
    )
    // Due date order, undated last, across workspaces.
    const dues = all.body.data.map((t: any) => t.dueDate ?? '9999-12-31')
    expect(dues).toEqual([...dues].sort())
    for (const sort of ['dueDate', '-updatedAt', 'priority']) {
      const first = (await api.get(`/v1/hub/tasks?limit=100&sort=${sort}`)).body.data.map((t: any) => t.id)
      for (const limit of [1, 3]) {
        const paged: string[] = []
        let cursor: string | null = null
        for (let i = 0; i < 20; i++) {
          const res: any = await api.get(
            `/v1/hub/tasks?limit=${limit}&sort=${sort}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          )
          expect(res.status).toBe(200)
          paged.push(...res.body.data.map((t: any) => t.id))
          cursor = res.body.nextCursor
          if (!cursor) break
        }
        expect(paged).toEqual(first)
      }
    }
    const closed = await api.get('/v1/hub/tasks?status=closed')
    expect(names(closed.body.data)).toEqual(['a-done'])
    const followed = await api.get('/v1/hub/tasks?relation=followed&limit=100')
    expect(names(followed.body.data)).toContain('b-followed')
    expect(names(followed.body.data)).not.toContain('c-secret')
    const created = await api.get('/v1/hub/tasks?relation=created&limit=100')
    expect(new Set(created.body.data.map((t: any) => t.orgId))).toEqual(new Set([a.orgId]))
    const onlyB = await api.get(`/v1/hub/tasks?orgId=${b.orgId}`)
    expect(names(onlyB.body.data)).toEqual(['b-today'])
    const cursor = (await api.get('/v1/hub/tasks?limit=1')).body.nextCursor
    expect((await api.get(`/v1/hub/tasks?limit=1&sort=priority&cursor=${cursor}`)).body.code).toBe(
      'invalid_cursor',
    )
  })

  it('inbox counts: unread per workspace and in all', async () => {
    const res = await api.get('/v1/hub/inbox/counts')
    expect(res.status).toBe(200)
    const byOrg = Object.fromEntries(res.body.data.map((c: any) => [c.orgId, c]))
    expect(Object.keys(byOrg).sort()).toEqual([a.orgId, b.orgId, c.orgId].sort())
    expect(byOrg[b.orgId].unreadByKind.mentioned).toBe(1)
    // Alice assigned herself in A (no notification to the actor); B and C assigned her.
    expect(byOrg[a.orgId].unread).toBe(0)
    expect(byOrg[c.orgId].unread).toBe(1)
    expect(res.body.unread).toBe(res.body.data.reduce((s: number, c: any) => s + c.unread, 0))
  })

  it('reports a failing workspace in partial and answers with the others', async () => {
    const root = await server.storage.read(async (s) => s)
    const original = root.tasks.list
    const originalEach = root.tasks.listEach
    root.tasks.list = async (orgId, ...rest) => {
      if (orgId === b.orgId) throw new ProblemError('service_unavailable', 'injected')
      return original(orgId, ...rest)
    }
    // Today reads its task sections together.
    root.tasks.listEach = async (orgId, ...rest) => {
      if (orgId === b.orgId) throw new ProblemError('service_unavailable', 'injected')
      return originalEach(orgId, ...rest)
    }
    try {
      const today_ = await api.get(`/v1/hub/today?date=${today}`)
      expect(today_.body.partial).toEqual([{ orgId: b.orgId, code: 'service_unavailable' }])
      expect(new Set(names(today_.body.dueToday.items))).toEqual(new Set(['a-today', 'c-today']))
      const tasks = await api.get('/v1/hub/tasks?limit=2')
      expect(tasks.body.partial).toEqual([{ orgId: b.orgId, code: 'service_unavailable' }])
    } finally {
      root.tasks.list = original
      root.tasks.listEach = originalEach
    }
  })

  it('approvals: empty without agents, and a workspace filter', async () => {
    const res = await api.get('/v1/hub/approvals')
    expect(res.body).toEqual({ data: [], nextCursor: null, partial: [] })
  })
})
