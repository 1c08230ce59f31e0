import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const START = Date.parse('2030-03-04T12:00:00.000Z')

describeEachDatabase('initiative metric', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = START
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  beforeEach(() => {
    now = START
  })
  afterAll(() => server.drop())

  /** An initiative holding one ENG project with two tasks, one of them done. */
  async function initiativeWithProject(ws: TestWorkspace) {
    const o = `/v1/orgs/${ws.orgId}`
    const initiative = (await ws.api.post(`${o}/initiatives`, { name: 'Activation', status: 'active' })).body
    const project = (await ws.api.post(`${o}/projects`, { name: 'Guided setup', teamIds: [ws.teamId] })).body
    await ws.api.put(`${o}/initiatives/${initiative.id}/projects/${project.id}`)
    await ws.api.post(`${o}/tasks`, { teamId: ws.teamId, title: 'a', projectId: project.id })
    await ws.api.post(`${o}/tasks`, {
      teamId: ws.teamId,
      title: 'b',
      projectId: project.id,
      stateId: ws.states.Done!.id,
    })
    return { o, item: `${o}/initiatives/${initiative.id}`, initiative }
  }

  it('defines a metric, records values that move its progress, and drives the rollup until removed', async () => {
    const ws = await newWorkspace(server)
    const { o, item, initiative } = await initiativeWithProject(ws)
    expect((await ws.api.get(item)).body.metric).toBeNull()
    expect((await ws.api.get(`${item}/rollup`)).body).toMatchObject({
      completedRatio: 0.5,
      progress: 0.5,
      progressSource: 'projects',
    })

    const set = await ws.api.put(`${item}/metric`, {
      unit: 'currency',
      currencyCode: 'EUR',
      precision: 2,
      initial: 1000,
      target: 5000,
    })
    expect(set.status).toBe(200)
    expect(set.body).toEqual({
      initiativeId: initiative.id,
      unit: 'currency',
      currencyCode: 'EUR',
      precision: 2,
      initial: 1000,
      target: 5000,
      current: 1000,
      progressSource: 'manual',
      progress: 0,
      updatedAt: new Date(START).toISOString(),
    })

    const value = await ws.api.post(`${item}/metric/values`, { value: 2000, note: 'First customers' })
    expect(value.status).toBe(201)
    expect(value.body).toMatchObject({
      id: expect.stringMatching(/^imv_/),
      initiativeId: initiative.id,
      value: 2000,
      note: 'First customers',
      authorId: initiative.creatorId,
    })
    const read = (await ws.api.get(item)).body
    expect(read.metric).toMatchObject({ current: 2000, progress: 0.25 })
    expect((await ws.api.get(`${item}/rollup`)).body).toMatchObject({
      completedRatio: 0.5,
      progress: 0.25,
      progressSource: 'metric',
    })
    // Past the target the progress stays at 1.
    await ws.api.post(`${item}/metric/values`, { value: 9000 })
    expect((await ws.api.get(item)).body.metric).toMatchObject({ current: 9000, progress: 1 })

    // A redefinition keeps the current value; following projects hands progress back to them.
    const redefined = await ws.api.put(`${item}/metric`, {
      unit: 'number',
      initial: 0,
      target: 18000,
      progressSource: 'projects',
    })
    expect(redefined.body).toMatchObject({ current: 9000, currencyCode: null, progress: 0.5, precision: 0 })
    expect((await ws.api.get(`${item}/rollup`)).body).toMatchObject({
      progress: 0.5,
      progressSource: 'projects',
    })

    expect((await ws.api.delete(`${item}/metric`)).status).toBe(204)
    expect((await ws.api.get(item)).body.metric).toBeNull()
    expect((await ws.api.get(`${item}/metric/values`)).body.data).toEqual([])
    expect((await ws.api.delete(`${item}/metric`)).status).toBe(404)

    const kinds = (await ws.api.get(`${o}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds.filter((k: string) => k.startsWith('initiative_metric'))).toEqual([
      'initiative_metric.updated',
      'initiative_metric_value.created',
      'initiative_metric_value.created',
      'initiative_metric.updated',
      'initiative_metric.deleted',
    ])
    const history = (await ws.api.get(`${item}/history`)).body.data.map((h: any) => h.action)
    expect(history.slice(0, 3)).toEqual(['metric_deleted', 'metric_set', 'metric_set'])
  })

  it('lists check-ins newest first by page', async () => {
    const ws = await newWorkspace(server)
    const { item } = await initiativeWithProject(ws)
    await ws.api.put(`${item}/metric`, { unit: 'percentage', initial: 0, target: 100 })
    for (const value of [10, 20, 30]) {
      now += 60_000
      const api = server.as(
        await server.engine.tokens.issueAccessToken({
          userId: ws.owner.user.id,
          scopes: ['work:read', 'work:write'],
        }),
      )
      expect((await api.post(`${item}/metric/values`, { value })).status).toBe(201)
    }
    const api = server.as(
      await server.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: ['work:read'] }),
    )
    const first = await api.get(`${item}/metric/values?limit=2`)
    expect(first.body.data.map((v: any) => v.value)).toEqual([30, 20])
    const second = await api.get(`${item}/metric/values?limit=2&cursor=${first.body.nextCursor}`)
    expect(second.body.data.map((v: any) => v.value)).toEqual([10])
    expect(second.body.nextCursor).toBeNull()
    expect((await api.get(`${item}/metric/values?cursor=nonsense`)).status).toBe(400)
  })

  it('refuses an inconsistent metric, a value without a metric, and writes without contribute', async () => {
    const ws = await newWorkspace(server)
    const { o, item } = await initiativeWithProject(ws)
    expect(await ws.api.post(`${item}/metric/values`, { value: 1 })).toMatchObject({
      status: 409,
      body: { code: 'metric_not_set' },
    })
    expect(await ws.api.put(`${item}/metric`, { unit: 'number', initial: 5, target: 5 })).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/target' }] },
    })
    expect(await ws.api.put(`${item}/metric`, { unit: 'currency', initial: 0, target: 5 })).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/currencyCode' }] },
    })
    expect(
      (await ws.api.put(`${item}/metric`, { unit: 'number', currencyCode: 'eur', initial: 0, target: 5 }))
        .status,
    ).toBe(400)
    expect((await ws.api.put(`${item}/metric`, { unit: 'miles', initial: 0, target: 5 })).status).toBe(400)
    expect((await ws.api.get(item)).body.metric).toBeNull()

    await ws.api.put(`${item}/metric`, { unit: 'number', initial: 0, target: 10 })
    // The guest sees the initiative through its ENG project, but may not change it.
    const guest = await teamGuest(ws, 'view')
    expect((await guest.api.get(item)).body.metric).toMatchObject({ target: 10 })
    expect((await guest.api.get(`${item}/metric/values`)).status).toBe(200)
    expect(await guest.api.post(`${item}/metric/values`, { value: 3 })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    expect((await guest.api.delete(`${item}/metric`)).status).toBe(403)
    expect((await ws.api.get(item)).body.metric.current).toBe(0)

    // Another team's guest cannot see the initiative at all.
    const design = (await ws.api.post(`${o}/teams`, { name: 'Design', key: 'DES' })).body
    const outsider = await teamGuest(ws, 'view', design.id)
    expect((await outsider.api.get(`${item}/metric/values`)).status).toBe(404)

    // An archived initiative keeps its metric as it is.
    await ws.api.post(`${item}/archive`)
    expect((await ws.api.post(`${item}/metric/values`, { value: 4 })).body.code).toBe('archived')
  })
})
