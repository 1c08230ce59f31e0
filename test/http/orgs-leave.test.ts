import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('orgs.leave', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('lets a member leave with their grants, and refuses the last owner with 409 last_owner', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const bob = await ws.addMember('member')
    const carol = await ws.addMember('admin')
    const granted = await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: bob.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'manage',
    })
    expect(granted.status).toBe(201)

    const last = await ws.api.post(`${base}/leave`)
    expect(last.status).toBe(409)
    expect(last.body).toMatchObject({ code: 'last_owner', status: 409 })

    expect((await bob.api.post(`${base}/leave`)).status).toBe(204)
    // Gone: the workspace is a 404 to Bob now, and so is leaving again.
    expect((await bob.api.get(`${base}/tasks`)).status).toBe(404)
    expect((await bob.api.post(`${base}/leave`)).status).toBe(404)
    expect((await ws.api.get(`${base}/members/${bob.memberId}`)).status).toBe(404)
    const grants = (await ws.api.get(`${base}/grants?limit=200`)).body.data
    expect(grants.filter((g: any) => g.subjectId === bob.memberId)).toEqual([])
    const events = (await ws.api.get(`${base}/stream?limit=500`)).body.data
    expect(events.filter((e: any) => e.kind === 'member.removed').map((e: any) => e.resourceId)).toEqual([
      bob.memberId,
    ])

    // With a second owner, the first may leave.
    expect((await ws.api.patch(`${base}/members/${carol.memberId}`, { role: 'owner' })).status).toBe(200)
    expect((await ws.api.post(`${base}/leave`)).status).toBe(204)
    expect((await carol.api.post(`${base}/leave`)).body.code).toBe('last_owner')
  })
})
