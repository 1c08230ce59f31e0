import { ProblemError, type UserId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { hubWorkspaces, postIn as post } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import type { TestWorkspace } from '../support/workspace.ts'

// A Monday; the projects' updates fall due on Wednesday at 10:00.
const START = Date.parse('2030-03-04T12:00:00.000Z')
const WEDNESDAY = Date.parse('2030-03-06T11:00:00.000Z')

/**
 * `hub.today`'s `updatesDue` and `plan` sections: Alice owns A, is a member of B and a guest of C who
 * sees only its ENG team. She leads a project in each, and one of C's hidden Secret team.
 */
describeEachDatabase('hub: today, updates due and the daily plan', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = START
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  afterAll(() => server.drop())

  /** Access tokens live 15 minutes of the server's clock: after moving it, sign in again. */
  async function signIn(userId: UserId) {
    const token = await server.engine.tokens.issueAccessToken({ userId, scopes: ['work:read', 'work:write'] })
    return server.as(token)
  }

  let a: TestWorkspace
  let b: TestWorkspace
  let c: TestWorkspace
  let alice: UserId
  const projects: Record<string, string> = {}
  let bTask: { id: string; key: string }

  beforeAll(async () => {
    now = START
    const world = await hubWorkspaces(server, () => new Date(now))
    ;({ a, b, c } = world)
    alice = world.alice.user.id
    const { aliceInA, aliceInB, aliceInC, secretTeam } = world
    const other = await a.addMember('member')

    const weekly = { project: { everyWeeks: 1, weekday: 'wednesday', hour: 10 } }
    for (const ws of [a, b, c]) await ws.api.patch(`/v1/orgs/${ws.orgId}/update-settings`, weekly)
    const project = async (ws: TestWorkspace, name: string, body: Record<string, unknown>) => {
      projects[name] = (await post(ws, '/projects', { name, teamIds: [ws.teamId], ...body })).id
    }
    await project(a, 'A-mine', { leadId: aliceInA })
    await project(a, 'A-theirs', { leadId: other.memberId })
    await project(b, 'B-mine', { leadId: aliceInB })
    await project(c, 'C-mine', { leadId: aliceInC })
    await project(c, 'C-secret', { leadId: aliceInC, teamIds: [secretTeam] })
    bTask = await post(b, '/tasks', { teamId: b.teamId, title: 'Draft the brief', assigneeId: aliceInB })
  })

  it('lists what she leads whose update is due, in every workspace, never what she cannot view', async () => {
    now = WEDNESDAY
    const api = await signIn(alice)
    const res = await api.get('/v1/hub/today?date=2030-03-06')
    expect(res.status).toBe(200)
    expect(res.body.partial).toEqual([])
    const due = res.body.updatesDue.items as any[]
    expect(new Set(due.map((d) => d.subjectId))).toEqual(
      new Set([projects['A-mine'], projects['B-mine'], projects['C-mine']]),
    )
    expect(due.map((d) => d.nextUpdateDueAt)).toEqual(due.map(() => '2030-03-06T10:00:00.000Z'))
    expect(due.find((d) => d.subjectId === projects['B-mine'])).toMatchObject({
      orgId: b.orgId,
      subjectType: 'project',
      name: 'B-mine',
      overdue: false,
    })
    expect(res.body.updatesDue.more).toBe(false)
    // Each one also is what `updates.due` with ownerId=me answers in its workspace.
    const inB = await api.get(`/v1/orgs/${b.orgId}/updates/due?ownerId=me`)
    expect(inB.body.data).toEqual([due.find((d) => d.orgId === b.orgId)].map(({ orgId: _, ...d }) => d))

    const capped = await api.get('/v1/hub/today?date=2030-03-06&limit=2')
    expect(capped.body.updatesDue.items).toHaveLength(2)
    expect(capped.body.updatesDue.more).toBe(true)

    // Posting an update takes the project off the list.
    await api.post(`/v1/orgs/${a.orgId}/projects/${projects['A-mine']}/updates`, {
      body: 'On it',
      health: 'onTrack',
    })
    const after = await api.get('/v1/hub/today?date=2030-03-06')
    expect(after.body.updatesDue.items.map((d: any) => d.name).sort()).toEqual(['B-mine', 'C-mine'])
  })

  it('shows the daily plan of the day, as me.dailyPlan.list does', async () => {
    now = WEDNESDAY
    const api = await signIn(alice)
    const empty = await api.get('/v1/hub/today?date=2030-03-07')
    expect(empty.body.plan).toEqual([])
    const item = await api.post('/v1/me/daily-plan/2030-03-07/items', {
      task: { orgId: b.orgId, key: bTask.key },
      timeBlock: { start: '09:00', end: '10:00' },
    })
    expect(item.status).toBe(201)
    await api.post('/v1/me/daily-plan/2030-03-07/items', { text: 'Call the printer' })
    const res = await api.get('/v1/hub/today?date=2030-03-07')
    const plan = (await api.get('/v1/me/daily-plan?from=2030-03-07&to=2030-03-07')).body.days[0].items
    expect(res.body.plan).toEqual(plan)
    expect(res.body.plan.map((i: any) => i.task?.key ?? i.text)).toEqual([bTask.key, 'Call the printer'])
    // Another day has its own plan.
    expect((await api.get('/v1/hub/today?date=2030-03-08')).body.plan).toEqual([])
  })

  it('reports a workspace whose updates-due read fails in partial', async () => {
    now = WEDNESDAY
    const api = await signIn(alice)
    const root = await server.storage.read(async (s) => s)
    const original = root.updateDue.candidates
    root.updateDue.candidates = async (orgId, ...rest) => {
      if (orgId === c.orgId) throw new ProblemError('service_unavailable', 'injected')
      return original(orgId, ...rest)
    }
    try {
      const res = await api.get('/v1/hub/today?date=2030-03-06')
      expect(res.status).toBe(200)
      expect(res.body.partial).toEqual([{ orgId: c.orgId, code: 'service_unavailable' }])
      expect(res.body.updatesDue.items.map((d: any) => d.orgId)).toEqual([b.orgId])
    } finally {
      root.updateDue.candidates = original
    }
  })
})
