import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('allocations', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const path = (ws: TestWorkspace) => `/v1/orgs/${ws.orgId}/allocations`
  const project = async (ws: TestWorkspace, teamId = ws.teamId, name = 'Launch') =>
    (await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name, teamIds: [teamId] })).body

  it('allocates a person to a project and reports overlaps as their total', async () => {
    const ws = await newWorkspace(server)
    const p = await project(ws)
    const q = await project(ws, ws.teamId, 'Support')
    const member = await ws.addMember('member')
    const first = await ws.api.post(path(ws), {
      projectId: p.id,
      memberId: member.memberId,
      startDate: '2030-02-01',
      endDate: '2030-02-28',
      unit: 'percent',
      amount: 60,
    })
    expect(first.status).toBe(201)
    expect(first.body.personTotal).toEqual({ allocations: 1, percent: 60, hoursPerWeek: 0 })
    expect(first.headers.get('location')).toBe(`${path(ws)}/${first.body.id}`)
    const second = await ws.api.post(path(ws), {
      projectId: q.id,
      memberId: member.memberId,
      startDate: '2030-02-20',
      endDate: '2030-03-10',
      unit: 'percent',
      amount: 50,
      note: 'On call',
    })
    expect(second.body.personTotal).toEqual({ allocations: 2, percent: 110, hoursPerWeek: 0 })
    expect((await ws.api.get(`${path(ws)}/${first.body.id}`)).body.personTotal.percent).toBe(110)
    const moved = await ws.api.patch(`${path(ws)}/${second.body.id}`, { startDate: '2030-03-01' })
    expect(moved.body.personTotal).toEqual({ allocations: 1, percent: 50, hoursPerWeek: 0 })
    const listed = await ws.api.get(`${path(ws)}?memberId=${member.memberId}&from=2030-03-01`)
    expect(listed.body.data.map((a: any) => a.id)).toEqual([second.body.id])
    expect((await ws.api.delete(`${path(ws)}/${first.body.id}`)).status).toBe(204)
    expect((await ws.api.get(`${path(ws)}/${first.body.id}`)).status).toBe(404)
    const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(
      expect.arrayContaining(['allocation.created', 'allocation.updated', 'allocation.deleted']),
    )
  })

  it('refuses reversed dates, over 100 percent and a non-member, and saves nothing', async () => {
    const ws = await newWorkspace(server)
    const p = await project(ws)
    const member = await ws.addMember('member')
    const body = {
      projectId: p.id,
      memberId: member.memberId,
      startDate: '2030-02-01',
      endDate: '2030-02-28',
      unit: 'percent',
      amount: 50,
    }
    const reversed = await ws.api.post(path(ws), { ...body, endDate: '2030-01-01' })
    expect(reversed).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/endDate' }] } })
    const over = await ws.api.post(path(ws), { ...body, amount: 120 })
    expect(over).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/amount' }] } })
    expect((await ws.api.post(path(ws), { ...body, unit: 'hoursPerWeek', amount: 120 })).status).toBe(201)
    const stranger = await ws.api.post(path(ws), { ...body, memberId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE' })
    expect(stranger).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    expect((await ws.api.get(path(ws))).body.data).toHaveLength(1)
  })

  it('needs assign on the project; hides allocations on projects the reader cannot view', async () => {
    const ws = await newWorkspace(server)
    const design = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })
    const seen = await project(ws)
    const hidden = await project(ws, design.body.id, 'Secret')
    const member = await ws.addMember('member')
    const body = {
      memberId: member.memberId,
      startDate: '2030-02-01',
      endDate: '2030-02-28',
      unit: 'percent',
    }
    await ws.api.post(path(ws), { ...body, projectId: seen.id, amount: 30 })
    const secret = await ws.api.post(path(ws), { ...body, projectId: hidden.id, amount: 40 })
    const guest = await teamGuest(ws, 'view')
    const listed = await guest.api.get(path(ws))
    expect(listed.body.data.map((a: any) => a.projectId)).toEqual([seen.id])
    // Hidden allocations count in the person's total without being named.
    expect(listed.body.data[0].personTotal).toEqual({ allocations: 2, percent: 70, hoursPerWeek: 0 })
    expect((await guest.api.get(`${path(ws)}/${secret.body.id}`)).status).toBe(404)
    const denied = await guest.api.post(path(ws), { ...body, projectId: seen.id, amount: 10 })
    expect(denied).toMatchObject({ status: 403, body: { code: 'capability_required', capability: 'assign' } })
  })

  it('pages by start date', async () => {
    const ws = await newWorkspace(server)
    const p = await project(ws)
    const member = await ws.addMember('member')
    for (const day of ['05', '01', '03', '02', '04']) {
      await ws.api.post(path(ws), {
        projectId: p.id,
        memberId: member.memberId,
        startDate: `2030-04-${day}`,
        endDate: '2030-04-30',
        unit: 'hoursPerWeek',
        amount: 4,
      })
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${path(ws)}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.body.data.map((a: any) => a.startDate))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(['2030-04-01', '2030-04-02', '2030-04-03', '2030-04-04', '2030-04-05'])
  })
})
