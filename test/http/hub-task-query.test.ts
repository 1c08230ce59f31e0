import { newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson, type TestPerson } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/http.ts'
import { hubWorkspaces, joinWorkspace, postIn as post } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import type { TestWorkspace } from '../support/workspace.ts'

/**
 * `hub.tasks.query`: one filter naming people by email and labels by name, resolved in each of
 * Alice's workspaces. She owns A, is a member of B and a guest of C who sees only its ENG team, so
 * nothing of C's Secret team may match, however well it fits the filter.
 */
describeEachDatabase('hub: tasks by a composed filter', (db) => {
  let server: TestServer & { drop(): Promise<void> }
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)

  let api: ReturnType<TestServer['as']>
  let bob: TestPerson
  const ids: Record<string, string> = {}
  const names = (tasks: any[]) =>
    tasks.map((t) => Object.keys(ids).find((k) => ids[k] === t.id) ?? t.title).sort()

  beforeAll(async () => {
    const world = await hubWorkspaces(server)
    const { a, b, c, aliceInA, secretTeam } = world
    api = world.api
    bob = await newPerson(server.engine)
    const bobIn = {
      a: await joinWorkspace(server, a, bob.user.id, 'member'),
      b: await joinWorkspace(server, b, bob.user.id, 'member'),
      c: await joinWorkspace(server, c, bob.user.id, 'member'),
    }

    // "bug" is a team label in A, a workspace label spelled "Bug" in B, and a label of C's secret team.
    const bugA = (await post(a, '/labels', { name: 'bug', teamId: a.teamId })).id
    const bugB = (await post(b, '/labels', { name: 'Bug' })).id
    const bugC = (await post(c, '/labels', { name: 'bug', teamId: secretTeam })).id
    const task = async (ws: TestWorkspace, name: string, body: Record<string, unknown>) => {
      ids[name] = (await post(ws, '/tasks', { teamId: ws.teamId, title: name, ...body })).id
    }
    await task(a, 'a-bob-bug', { assigneeId: bobIn.a, labelIds: [bugA], priority: 'high' })
    await task(a, 'a-bob', { assigneeId: bobIn.a, priority: 'low' })
    await task(a, 'a-alice-bug', { assigneeId: aliceInA, labelIds: [bugA], dueDate: inDays(3) })
    await task(b, 'b-bob-bug', { assigneeId: bobIn.b, labelIds: [bugB], dueDate: inDays(30) })
    await task(b, 'b-urgent', { priority: 'urgent' })
    await task(c, 'c-bob', { assigneeId: bobIn.c, priority: 'high' })
    await task(c, 'c-secret', {
      teamId: secretTeam,
      assigneeId: bobIn.c,
      labelIds: [bugC],
      priority: 'urgent',
    })
  })

  const query = async (body: Record<string, unknown>) => {
    const res = await api.post('/v1/hub/tasks/query', { relation: 'any', status: 'all', limit: 100, ...body })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.partial).toEqual([])
    return names(res.body.data)
  }

  it('names people by email and labels by name in every workspace, never a task hidden from the reader', async () => {
    const email = bob.user.email
    expect(await query({ filter: { assigneeEmail: { eq: email } } })).toEqual([
      'a-bob',
      'a-bob-bug',
      'b-bob-bug',
      'c-bob',
    ])
    expect(await query({ filter: { assigneeEmail: { eq: email.toUpperCase() } } })).toHaveLength(4)
    expect(await query({ filter: { labelNames: { in: ['BUG'] } } })).toEqual([
      'a-alice-bug',
      'a-bob-bug',
      'b-bob-bug',
    ])
    expect(await query({ filter: { labelNames: { all: ['bug'] }, assigneeEmail: { eq: email } } })).toEqual([
      'a-bob-bug',
      'b-bob-bug',
    ])
    // Urgent, or Bob's without the label: "or", "and" and a negation together.
    const either = {
      or: [
        { priority: { eq: 'urgent' } },
        { and: [{ assigneeEmail: { in: [email] } }, { labelNames: { nin: ['bug'] } }] },
      ],
    }
    expect(await query({ filter: either })).toEqual(['a-bob', 'b-urgent', 'c-bob'])
    expect(await query({ filter: { not: either, assigneeEmail: { null: false } } })).toEqual([
      'a-alice-bug',
      'a-bob-bug',
      'b-bob-bug',
    ])
    // Nobody has this email: `eq` matches nothing, `neq` everything Alice may view.
    expect(await query({ filter: { assigneeEmail: { eq: 'nobody@example.com' } } })).toEqual([])
    expect(await query({ filter: { assigneeEmail: { neq: 'nobody@example.com' } } })).toEqual([
      'a-alice-bug',
      'a-bob',
      'a-bob-bug',
      'b-bob-bug',
      'b-urgent',
      'c-bob',
    ])
    expect(await query({ filter: { labelNames: { in: ['no such label'] } } })).toEqual([])
    expect(await query({ filter: { dueDate: { gte: 'P0D', lte: 'P7D' } } })).toEqual(['a-alice-bug'])
    expect(await query({ filter: { search: 'bug' } })).toEqual(['a-alice-bug', 'a-bob-bug', 'b-bob-bug'])
  })

  it('keeps the parameters of hub.tasks: relation, status and one workspace', async () => {
    // Assigned to Alice (the default relation): of the "bug" tasks, only hers.
    const mine = await api.post('/v1/hub/tasks/query', { filter: { labelNames: { in: ['bug'] } } })
    expect(names(mine.body.data)).toEqual(['a-alice-bug'])
    const plain = await api.post('/v1/hub/tasks/query', {})
    expect(plain.body.data).toEqual((await api.get('/v1/hub/tasks')).body.data)
    expect(await query({ filter: { priority: { in: ['urgent', 'high'] } }, status: 'closed' })).toEqual([])
  })

  it('pages exactly across workspaces in the order asked', async () => {
    const body = { filter: { assigneeEmail: { null: false } }, sort: '-priority' }
    const whole = (await api.post('/v1/hub/tasks/query', { relation: 'any', limit: 100, ...body })).body.data
    expect(whole.length).toBeGreaterThan(3)
    for (const limit of [1, 2]) {
      const paged: any[] = []
      let cursor: string | null = null
      for (let i = 0; i < 20; i++) {
        const res: any = await api.post('/v1/hub/tasks/query', {
          relation: 'any',
          limit,
          ...body,
          ...(cursor ? { cursor } : {}),
        })
        expect(res.status).toBe(200)
        paged.push(...res.body.data)
        cursor = res.body.nextCursor
        if (!cursor) break
      }
      expect(paged.map((t) => t.id)).toEqual(whole.map((t: any) => t.id))
    }
    // The cursor belongs to its filter.
    const first = (await api.post('/v1/hub/tasks/query', { relation: 'any', limit: 1, ...body })).body
      .nextCursor
    const other = await api.post('/v1/hub/tasks/query', {
      relation: 'any',
      limit: 1,
      sort: '-priority',
      filter: { assigneeEmail: { null: true } },
      cursor: first,
    })
    expect(other.body.code).toBe('invalid_cursor')
    expect(other.body.errors).toEqual([{ pointer: '/body/cursor', message: expect.any(String) }])
  })

  it('refuses a filter past its bounds or of the wrong shape, with a pointer', async () => {
    let deep: Record<string, unknown> = { priority: { eq: 'high' } }
    for (let i = 0; i < 5; i++) deep = { not: deep }
    const tooDeep = await api.post('/v1/hub/tasks/query', { filter: deep })
    expect(tooDeep.status).toBe(422)
    expect(tooDeep.body.code).toBe('rule_violated')
    expect(tooDeep.body.errors[0].pointer).toBe('/body/filter/not/not/not/not/not')
    // Ids belong to one workspace: the hub filter does not take them.
    const byId = await api.post('/v1/hub/tasks/query', { filter: { assigneeId: { eq: newId('MemberId') } } })
    expect(byId.status).toBe(400)
    const notEmail = await api.post('/v1/hub/tasks/query', { filter: { assigneeEmail: { eq: 'bob' } } })
    expect(notEmail.status).toBe(400)
    expect(JSON.stringify(notEmail.body.errors)).toContain('/body/filter/assigneeEmail/eq')
  })
})
