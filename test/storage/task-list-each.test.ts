import { type MemberId, type OrgRole, type PageRequest, readerFor, type UserId } from '@workgraph/core'
import type { TaskFilter, TaskSort } from '@workgraph/core/storage'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * `tasks.listEach` (the hub's today sections, read together) answers for each filter exactly the
 * page `tasks.list` answers, rows, labels, fields and blocked flags included, for every shape of
 * reader: the whole org, a team with projects outside it and projects alone (read in sides), one
 * project (one range), with and without a cursor, in both directions.
 */
describeEachDatabase('tasks.listEach', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  let ownerMember: MemberId
  const readers: Array<{ name: string; memberId: MemberId; userId: UserId; role: OrgRole }> = []
  const now = new Date()
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10)

  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const post = async (path: string, body: unknown) => {
      const res = await ws.api.post(`${base}${path}`, body)
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      return res.body
    }
    ownerMember = (await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id)))!
      .id as MemberId
    const teams = [ws.teamId]
    for (const key of ['BBB', 'CCC']) teams.push((await post('/teams', { name: key, key })).id)
    const projects: string[] = []
    for (const [i, teamId] of teams.entries())
      projects.push((await post('/projects', { name: `P${i}`, teamIds: [teamId] })).id)
    const label = (await post('/labels', { name: 'Bug' })).id
    const cycle = await post(`/teams/${ws.teamId}/cycles`, {
      startsAt: new Date(now.getTime() - 86_400_000).toISOString(),
      endsAt: new Date(now.getTime() + 6 * 86_400_000).toISOString(),
    })
    const done = Object.values(ws.states).find((s) => s.category === 'completed')!.id
    const ids: string[] = []
    for (let i = 0; i < 36; i++) {
      const teamId = teams[i % 3]!
      const task = await post('/tasks', {
        teamId,
        title: `Task ${i}`,
        ...(i % 4 === 3 ? {} : { projectId: projects[i % 3] }),
        ...(i % 2 === 0 ? { assigneeId: ownerMember } : {}),
        ...(i % 5 === 4 ? {} : { dueDate: day((i % 7) - 3) }),
      })
      ids.push(task.id)
      if (i % 3 === 1) await ws.api.put(`${base}/tasks/${task.id}/labels/${label}`)
    }
    // Some tasks of the first team in the running cycle; blockers, some completed since (unblocked).
    await post('/tasks/batch-update', {
      items: ids.filter((_, i) => i % 3 === 0 && i % 2 === 0).map((id) => ({ id, cycleId: cycle.id })),
    })
    for (const [blocked, blocker] of [
      [0, 3],
      [6, 9],
      [12, 15],
      [18, 21],
    ] as const)
      expect((await ws.api.put(`${base}/tasks/${ids[blocked]}/blockers/${ids[blocker]}`)).status).toBe(200)
    for (const i of [3, 9, 15]) await ws.api.patch(`${base}/tasks/${ids[i]}`, { stateId: done })

    readers.push({ name: 'owner', memberId: ownerMember, userId: ws.owner.user.id, role: 'owner' })
    const guest = async (name: string, containers: string[]) => {
      const person = await ws.addMember('guest')
      for (const containerId of containers)
        await post('/grants', {
          subjectType: 'member',
          subjectId: person.memberId,
          containerType: containerId.startsWith('proj_') ? 'project' : 'team',
          containerId,
          capability: 'view',
        })
      readers.push({ name, memberId: person.memberId, userId: person.user.id, role: 'guest' })
    }
    await guest('a team and projects outside it', [teams[1]!, projects[0]!, projects[2]!])
    await guest('projects only', [projects[0]!, projects[1]!])
    await guest('one project', [projects[2]!])
  }, 120_000)
  afterAll(() => server.drop())

  const open = ['triage', 'backlog', 'unstarted', 'started'] as const
  const filters = (me: MemberId): TaskFilter[] => {
    const mine: TaskFilter = { assigneeId: me, stateCategory: [...open], archived: false }
    return [
      { ...mine, dueBefore: day(-1) },
      { ...mine, dueAfter: day(0), dueBefore: day(0) },
      { ...mine, dueAfter: day(1), dueBefore: day(2) },
      { ...mine, cycleRunningAt: now.toISOString() },
      { ...mine, blocked: false, blockerCompletedSince: new Date(now.getTime() - 86_400_000).toISOString() },
      { archived: false },
      { stateCategory: ['completed'], archived: null },
    ]
  }

  it('answers what list answers for each filter, for every reader and page', async () => {
    let compared = 0
    let full = 0
    for (const reader of readers) {
      await server.storage.read(async (s) => {
        const member = await s.members.get(ws.orgId, reader.memberId)
        const { scope } = await readerFor(s, {
          id: reader.memberId,
          kind: 'person',
          orgId: ws.orgId,
          role: reader.role,
          userId: reader.userId,
          name: member!.name,
        })
        const each = filters(ownerMember)
        const first: PageRequest<TaskSort> = { sort: 'dueDate', direction: 'asc', after: null, limit: 2 }
        const all = await s.tasks.list(ws.orgId, { archived: null }, { ...first, limit: 50 }, scope)
        const third = all[2]
        const pages: PageRequest<TaskSort>[] = [
          first,
          { sort: 'createdAt', direction: 'desc', after: null, limit: 3 },
          ...(third ? [{ ...first, after: { value: third.dueDate ?? '9999-12-31', id: third.id } }] : []),
        ]
        for (const page of pages) {
          const want = []
          for (const filter of each) want.push(await s.tasks.list(ws.orgId, filter, page, scope))
          const got = await s.tasks.listEach(ws.orgId, each, page, scope)
          expect(got, `${reader.name}, ${JSON.stringify(page)}`).toEqual(want)
          compared += want.length
          full += want.filter((p) => p.length === page.limit + 1).length
        }
      })
    }
    // The world gives every reader something to compare, and pages that go on.
    expect(compared).toBeGreaterThan(60)
    expect(full).toBeGreaterThan(10)
  })
})
