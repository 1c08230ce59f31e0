import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('project relations', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const project = async (ws: TestWorkspace, name: string, teamId = ws.teamId) =>
    (await ws.api.post(`/v1/orgs/${ws.orgId}/projects`, { name, teamIds: [teamId] })).body
  const milestone = async (ws: TestWorkspace, projectId: string, name: string) =>
    (await ws.api.post(`/v1/orgs/${ws.orgId}/projects/${projectId}/milestones`, { name })).body

  it('relates projects and milestones across teams: create, list from both ends, get, update, delete', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const api = await project(ws, 'API')
    const site = await project(ws, 'Site', design.id)
    const beta = await milestone(ws, api.id, 'Beta')
    const relations = (p: string) => `/v1/orgs/${ws.orgId}/projects/${p}/relations`

    const created = await ws.api.post(relations(api.id), {
      type: 'blocks',
      milestoneId: beta.id,
      relatedProjectId: site.id,
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`/v1/orgs/${ws.orgId}/project-relations/${created.body.id}`)
    expect(created.body).toMatchObject({
      type: 'blocks',
      projectId: api.id,
      milestoneId: beta.id,
      relatedProjectId: site.id,
      relatedMilestoneId: null,
    })
    expect((await ws.api.get(relations(site.id))).body.data).toEqual([created.body])
    const item = `/v1/orgs/${ws.orgId}/project-relations/${created.body.id}`
    expect((await ws.api.get(item)).body).toEqual(created.body)

    // The blocked side says so; the blocker does not.
    const get = (p: string) => ws.api.get(`/v1/orgs/${ws.orgId}/projects/${p}`)
    expect((await get(site.id)).body).toMatchObject({ blocked: true, openBlockers: 1 })
    expect((await get(api.id)).body).toMatchObject({ blocked: false, openBlockers: 0 })
    const blocked = await ws.api.get(`/v1/orgs/${ws.orgId}/projects?blocked=true`)
    expect(blocked.body.data.map((p: any) => p.id)).toEqual([site.id])
    const free = await ws.api.get(`/v1/orgs/${ws.orgId}/projects?blocked=false`)
    expect(free.body.data.map((p: any) => p.id)).toEqual([api.id])

    const related = await ws.api.patch(item, { type: 'related', milestoneId: null })
    expect(related.body).toMatchObject({ type: 'related', milestoneId: null })
    expect((await get(site.id)).body.blocked).toBe(false)

    const duplicate = await ws.api.post(relations(site.id), { type: 'blocks', relatedProjectId: api.id })
    expect(duplicate).toMatchObject({
      status: 409,
      body: { code: 'already_exists', relationId: created.body.id },
    })
    const self = await ws.api.post(relations(api.id), { type: 'related', relatedProjectId: api.id })
    expect(self).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const foreign = await ws.api.post(relations(api.id), {
      type: 'blocks',
      relatedProjectId: site.id,
      relatedMilestoneId: beta.id,
    })
    expect(foreign).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/relatedMilestoneId' }] },
    })

    expect((await ws.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    expect((await ws.api.get(relations(api.id))).body.data).toEqual([])
    const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(
      expect.arrayContaining([
        'project_relation.created',
        'project_relation.updated',
        'project_relation.deleted',
      ]),
    )
  })

  it('pages the relations of a project', async () => {
    const ws = await newWorkspace(server)
    const hub = await project(ws, 'Hub')
    const made: string[] = []
    for (const name of ['A', 'B', 'C']) {
      const other = await project(ws, name)
      const r = await ws.api.post(`/v1/orgs/${ws.orgId}/projects/${other.id}/relations`, {
        type: 'blocks',
        relatedProjectId: hub.id,
      })
      made.push(r.body.id)
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(
        `/v1/orgs/${ws.orgId}/projects/${hub.id}/relations?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((r: any) => r.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(made)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/projects/${hub.id}`)).body.openBlockers).toBe(3)
  })

  it('refuses a link that closes a cycle, naming the path without naming what the caller cannot see', async () => {
    const ws = await newWorkspace(server)
    const secret = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Secret', key: 'SEC' })).body
    const a = await project(ws, 'Alpha')
    const b = await project(ws, 'Bravo')
    const hidden = await project(ws, 'Hush', secret.id)
    const m = await milestone(ws, a.id, 'M1')
    const rel = (from: string, body: object) =>
      ws.api.post(`/v1/orgs/${ws.orgId}/projects/${from}/relations`, body)
    // Alpha's milestone M1 blocks Hush, Hush blocks Bravo.
    expect((await rel(a.id, { type: 'blocks', milestoneId: m.id, relatedProjectId: hidden.id })).status).toBe(
      201,
    )
    expect((await rel(hidden.id, { type: 'blocks', relatedProjectId: b.id })).status).toBe(201)

    // Bravo blocking Alpha would close Bravo → Alpha (start) → M1 → Hush → Bravo.
    const owner = await rel(b.id, { type: 'blocks', relatedProjectId: a.id })
    expect(owner).toMatchObject({ status: 409, body: { code: 'dependency_cycle' } })
    expect(owner.body.path).toEqual([b.id, a.id, m.id, hidden.id, b.id])
    expect(owner.body.detail).toContain('Hush')

    const guest = await teamGuest(ws, 'contribute')
    const refused = await guest.api.post(`/v1/orgs/${ws.orgId}/projects/${b.id}/relations`, {
      type: 'blocks',
      relatedProjectId: a.id,
    })
    expect(refused).toMatchObject({ status: 409, body: { code: 'dependency_cycle' } })
    expect(refused.body.path).toEqual([b.id, a.id, m.id, null, b.id])
    expect(refused.body.detail).not.toContain('Hush')
    expect(refused.body.detail).toContain('a project you cannot view')
    // A related link is no dependency; neither is a milestone blocking another of its own project.
    expect((await rel(b.id, { type: 'related', relatedProjectId: a.id })).status).toBe(201)
    const m2 = await milestone(ws, a.id, 'M2')
    expect(
      (
        await rel(a.id, {
          type: 'blocks',
          milestoneId: m.id,
          relatedProjectId: a.id,
          relatedMilestoneId: m2.id,
        })
      ).status,
    ).toBe(201)
    // A project cannot block its own milestone, which ends before it does.
    const own = await rel(a.id, { type: 'blocks', relatedProjectId: a.id, relatedMilestoneId: m2.id })
    expect(own).toMatchObject({ status: 409, body: { code: 'dependency_cycle', path: [a.id, m2.id, a.id] } })
    // Turning the related link into blocks is checked too.
    const [related] = (await ws.api.get(`/v1/orgs/${ws.orgId}/projects/${b.id}/relations`)).body.data.filter(
      (r: any) => r.type === 'related',
    )
    const update = await ws.api.patch(`/v1/orgs/${ws.orgId}/project-relations/${related.id}`, {
      type: 'blocks',
    })
    expect(update).toMatchObject({ status: 409, body: { code: 'dependency_cycle' } })
  })

  it('a relation is removed with contribute on either end; view on both is not enough', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const api = await project(ws, 'API')
    const site = await project(ws, 'Site', design.id)
    const link = async () =>
      (
        await ws.api.post(`/v1/orgs/${ws.orgId}/projects/${api.id}/relations`, {
          type: 'blocks',
          relatedProjectId: site.id,
        })
      ).body.id as string
    const item = (id: string) => `/v1/orgs/${ws.orgId}/project-relations/${id}`
    // Views both ends, contributes to neither: 403, naming the capability the operation declares.
    const viewer = await teamGuest(ws, 'view')
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: viewer.memberId,
      containerType: 'team',
      containerId: design.id,
      capability: 'view',
    })
    const first = await link()
    expect(await viewer.api.delete(item(first))).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    // Contributes to the related (blocked) project only, and views the source: enough.
    const blocked = await teamGuest(ws, 'contribute', design.id)
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: blocked.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'view',
    })
    expect((await blocked.api.delete(item(first))).status).toBe(204)
    // Contributes to the source only: enough as well.
    const second = await link()
    const source = await teamGuest(ws, 'contribute')
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: source.memberId,
      containerType: 'team',
      containerId: design.id,
      capability: 'view',
    })
    expect((await source.api.delete(item(second))).status).toBe(204)
    expect((await ws.api.get(item(second))).status).toBe(404)
  })

  it('counts blockers the reader cannot see without naming them, and only open ones', async () => {
    const ws = await newWorkspace(server)
    const secret = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Secret', key: 'SEC' })).body
    const target = await project(ws, 'Target')
    const hidden = await project(ws, 'Hidden', secret.id)
    const visible = await project(ws, 'Visible')
    const gate = await milestone(ws, visible.id, 'Gate')
    const rel = (from: string, body: object) =>
      ws.api.post(`/v1/orgs/${ws.orgId}/projects/${from}/relations`, body)
    const hiddenLink = (await rel(hidden.id, { type: 'blocks', relatedProjectId: target.id })).body
    await rel(visible.id, { type: 'blocks', milestoneId: gate.id, relatedProjectId: target.id })

    const guest = await teamGuest(ws, 'contribute')
    const seen = await guest.api.get(`/v1/orgs/${ws.orgId}/projects/${target.id}`)
    expect(seen.body).toMatchObject({ blocked: true, openBlockers: 2 })
    const list = await guest.api.get(`/v1/orgs/${ws.orgId}/projects/${target.id}/relations`)
    expect(list.body.data.map((r: any) => r.projectId)).toEqual([visible.id])
    expect((await guest.api.get(`/v1/orgs/${ws.orgId}/project-relations/${hiddenLink.id}`)).status).toBe(404)
    const unseen = await guest.api.post(`/v1/orgs/${ws.orgId}/projects/${target.id}/relations`, {
      type: 'related',
      relatedProjectId: hidden.id,
    })
    expect(unseen).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/relatedProjectId' }] },
    })
    expect((await guest.api.delete(`/v1/orgs/${ws.orgId}/project-relations/${hiddenLink.id}`)).status).toBe(
      404,
    )
    const viewer = await teamGuest(ws, 'view')
    const readOnly = await viewer.api.post(`/v1/orgs/${ws.orgId}/projects/${target.id}/relations`, {
      type: 'related',
      relatedProjectId: visible.id,
    })
    expect(readOnly.status).toBe(403)

    // A completed project stops blocking; a milestone is done when all its tasks are finished.
    const statuses = (await ws.api.get(`/v1/orgs/${ws.orgId}/project-statuses`)).body.data
    const completed = statuses.find((s: any) => s.category === 'completed')
    await ws.api.patch(`/v1/orgs/${ws.orgId}/projects/${hidden.id}`, { statusId: completed.id })
    expect((await guest.api.get(`/v1/orgs/${ws.orgId}/projects/${target.id}`)).body.openBlockers).toBe(1)
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
      teamId: ws.teamId,
      title: 'gate work',
      milestoneId: gate.id,
      stateId: ws.states.Done!.id,
    })
    expect((await guest.api.get(`/v1/orgs/${ws.orgId}/projects/${target.id}`)).body).toMatchObject({
      blocked: false,
      openBlockers: 0,
    })
  })

  it('deletes the relations anchored on a deleted milestone and those of a deleted project', async () => {
    const ws = await newWorkspace(server)
    const a = await project(ws, 'A')
    const b = await project(ws, 'B')
    const c = await project(ws, 'C')
    const m = await milestone(ws, a.id, 'M')
    const rel = (from: string, body: object) =>
      ws.api.post(`/v1/orgs/${ws.orgId}/projects/${from}/relations`, body)
    const onMilestone = (await rel(a.id, { type: 'blocks', milestoneId: m.id, relatedProjectId: b.id })).body
    const onProject = (await rel(a.id, { type: 'related', relatedProjectId: b.id, relatedMilestoneId: null }))
      .body
    const toC = (await rel(c.id, { type: 'blocks', relatedProjectId: b.id })).body
    expect((await ws.api.delete(`/v1/orgs/${ws.orgId}/milestones/${m.id}`)).status).toBe(204)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/project-relations/${onMilestone.id}`)).status).toBe(404)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/project-relations/${onProject.id}`)).status).toBe(200)
    expect((await ws.api.delete(`/v1/orgs/${ws.orgId}/projects/${a.id}`)).status).toBe(204)
    const left = (await ws.api.get(`/v1/orgs/${ws.orgId}/projects/${b.id}/relations`)).body.data
    expect(left.map((r: any) => r.id)).toEqual([toC.id])
    const events = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data
    expect(events.find((e: any) => e.kind === 'milestone.deleted').data.relationIds).toEqual([onMilestone.id])
    expect(events.find((e: any) => e.kind === 'project.deleted').data.relationIds).toEqual([onProject.id])
  })
})
