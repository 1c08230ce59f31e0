import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('project members and labels', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('lists, adds and removes members; the lead is one and stays while lead', async () => {
    const ws = await newWorkspace(server)
    const ownerId = (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data[0].id
    const project = (
      await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId], leadId: ownerId })
    ).body
    const base = `/v1/orgs/${ws.orgId}/projects/${project.id}/members`
    expect((await ws.api.get(base)).body.data.map((m: any) => m.memberId)).toEqual([ownerId])

    const people = [await ws.addMember('member'), await ws.addMember('member'), await ws.addMember('member')]
    for (const p of people) {
      const added = await ws.api.put(`${base}/${p.memberId}`)
      expect(added).toMatchObject({ status: 200, body: { projectId: project.id, memberId: p.memberId } })
    }
    expect((await ws.api.put(`${base}/${people[0]!.memberId}`)).status).toBe(200)
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${base}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      ids.push(...page.body.data.map((m: any) => m.memberId))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(ids).toEqual([ownerId, ...people.map((p) => p.memberId)].sort())

    expect(await ws.api.delete(`${base}/${ownerId}`)).toMatchObject({
      status: 409,
      body: { code: 'conflict' },
    })
    expect((await ws.api.delete(`${base}/${people[1]!.memberId}`)).status).toBe(204)
    expect((await ws.api.delete(`${base}/${people[1]!.memberId}`)).status).toBe(204)
    expect((await ws.api.put(`${base}/mem_01JD3Q2R4S5T6V7W8X9YZABCDE`)).status).toBe(404)
    // A new lead becomes a member.
    await ws.api.patch(`/v1/orgs/${ws.orgId}/projects/${project.id}`, { leadId: people[1]!.memberId })
    expect((await ws.api.get(base)).body.data.map((m: any) => m.memberId)).toContain(people[1]!.memberId)

    const contributor = await teamGuest(ws, 'contribute')
    expect((await contributor.api.put(`${base}/${contributor.memberId}`)).status).toBe(403)
    expect((await contributor.api.get(base)).status).toBe(200)
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.get(base)).status).toBe(404)
    const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(expect.arrayContaining(['project.member_added', 'project.member_removed']))
  })

  it('adds and removes org labels, one per group', async () => {
    const ws = await newWorkspace(server)
    const project = (await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name: 'P', teamIds: [ws.teamId] }))
      .body
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const bug = (await ws.api.post(labels, { name: 'Bug' })).body
    const group = (await ws.api.post(labels, { name: 'Size', isGroup: true })).body
    const small = (await ws.api.post(labels, { name: 'Small', parentId: group.id })).body
    const large = (await ws.api.post(labels, { name: 'Large', parentId: group.id })).body
    const teamLabel = (await ws.api.post(labels, { name: 'Team', teamId: ws.teamId })).body
    const base = `/v1/orgs/${ws.orgId}/projects/${project.id}/labels`

    expect((await ws.api.put(`${base}/${bug.id}`)).body.labelIds).toEqual([bug.id])
    expect((await ws.api.put(`${base}/${small.id}`)).body.labelIds).toEqual([bug.id, small.id])
    expect((await ws.api.put(`${base}/${large.id}`)).body.labelIds).toEqual([bug.id, large.id])
    for (const id of [teamLabel.id, group.id]) {
      expect(await ws.api.put(`${base}/${id}`)).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/params/labelId' }] },
      })
    }
    expect((await ws.api.delete(`${base}/${bug.id}`)).status).toBe(204)
    expect((await ws.api.delete(`${base}/${bug.id}`)).status).toBe(204)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/projects/${project.id}`)).body.labelIds).toEqual([
      large.id,
    ])
    expect((await ws.api.delete(`${labels}/${large.id}`)).status).toBe(204)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/projects/${project.id}`)).body.labelIds).toEqual([])
    const viewer = await teamGuest(ws, 'view')
    expect((await viewer.api.put(`${base}/${bug.id}`)).status).toBe(403)
    const updated = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.filter(
      (e: any) => e.kind === 'project.updated' && e.data.changes.labelIds,
    )
    expect(updated.length).toBe(4)
  })
})
