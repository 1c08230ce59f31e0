import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

async function statusOf(ws: TestWorkspace, category: string): Promise<string> {
  const statuses = await ws.api.get(`/v1/orgs/${ws.orgId}/project-statuses`)
  return statuses.body.data.find((s: any) => s.category === category).id
}

describeEachDatabase('projects', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('creates a project with defaults, reads it back, and updates it with If-Match', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const created = await ws.api.post(base, { name: 'Launch', teamIds: [ws.teamId], icon: '🚀' })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`${base}/${created.body.id}`)
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^proj_/),
      name: 'Launch',
      icon: '🚀',
      color: '#5e6ad2',
      statusId: await statusOf(ws, 'backlog'),
      statusCategory: 'backlog',
      leadId: null,
      teamIds: [ws.teamId],
      priority: 'none',
      startedAt: null,
      archivedAt: null,
    })
    const item = `${base}/${created.body.id}`
    const read = await ws.api.get(item)
    expect(read.body).toEqual(created.body)
    const etag = read.headers.get('etag')!

    const member = await ws.addMember('member')
    const updated = await ws.api.patch(
      item,
      { name: 'Launch v2', leadId: member.memberId, priority: 'high', startDate: '2030-01-01' },
      { 'if-match': etag },
    )
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ name: 'Launch v2', leadId: member.memberId, priority: 'high' })
    const stale = await ws.api.patch(item, { name: 'Lost' }, { 'if-match': etag })
    expect(stale).toMatchObject({ status: 412, body: { code: 'precondition_failed' } })
    expect((await ws.api.get(item)).body.name).toBe('Launch v2')
  })

  it('refuses a target date before the start date, pointing at it, and writes nothing', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const bad = await ws.api.post(base, {
      name: 'Backwards',
      teamIds: [ws.teamId],
      startDate: '2030-02-01',
      targetDate: '2030-01-31',
    })
    expect(bad).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/targetDate' }] },
    })
    expect((await ws.api.get(base)).body.data).toEqual([])
    const ok = await ws.api.post(base, { name: 'Ok', teamIds: [ws.teamId], startDate: '2030-02-01' })
    const later = await ws.api.patch(`${base}/${ok.body.id}`, { targetDate: '2030-01-01' })
    expect(later).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/targetDate' }] } })
    const lead = await ws.api.patch(`${base}/${ok.body.id}`, { leadId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE' })
    expect(lead).toMatchObject({ status: 422, body: { errors: [{ pointer: '/body/leadId' }] } })
  })

  it('keeps startedAt, completedAt and canceledAt by status transitions', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const project = await ws.api.post(base, { name: 'Flow', teamIds: [ws.teamId] })
    const item = `${base}/${project.body.id}`
    const started = (await ws.api.patch(item, { statusId: await statusOf(ws, 'started') })).body
    expect(started).toMatchObject({ statusCategory: 'started', completedAt: null, canceledAt: null })
    expect(started.startedAt).not.toBeNull()
    const completed = (await ws.api.patch(item, { statusId: await statusOf(ws, 'completed') })).body
    expect(completed.startedAt).toBe(started.startedAt)
    expect(completed.completedAt).not.toBeNull()
    const canceled = (await ws.api.patch(item, { statusId: await statusOf(ws, 'canceled') })).body
    expect(canceled).toMatchObject({ completedAt: null, startedAt: started.startedAt })
    expect(canceled.canceledAt).not.toBeNull()
    const planned = (await ws.api.patch(item, { statusId: await statusOf(ws, 'planned') })).body
    expect(planned).toMatchObject({ canceledAt: null, completedAt: null, startedAt: started.startedAt })
    // Created straight into completed: started then too.
    const done = await ws.api.post(base, {
      name: 'Done',
      teamIds: [ws.teamId],
      statusId: await statusOf(ws, 'completed'),
    })
    expect(done.body.startedAt).toBe(done.body.completedAt)
  })

  it('filters by status, lead, team and archived, and pages newest first with exact pages', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const lead = await ws.addMember('member')
    const names = ['P1', 'P2', 'P3', 'P4', 'P5']
    const ids: string[] = []
    for (const [i, name] of names.entries()) {
      const res = await ws.api.post(base, {
        name,
        teamIds: i % 2 ? [design.id] : [ws.teamId, design.id],
        ...(i === 1 ? { leadId: lead.memberId, statusId: await statusOf(ws, 'started') } : {}),
      })
      ids.push(res.body.id)
    }
    await ws.api.post(`${base}/${ids[4]}/archive`)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(
        `${base}?limit=2&archived=include${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((p: any) => p.name))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual([...names].reverse())
    const names_ = async (q: string) => (await ws.api.get(`${base}?${q}`)).body.data.map((p: any) => p.name)
    expect(await names_('')).toEqual(['P4', 'P3', 'P2', 'P1'])
    expect(await names_('archived=only')).toEqual(['P5'])
    expect(await names_(`teamId=${ws.teamId}`)).toEqual(['P3', 'P1'])
    expect(await names_(`leadId=${lead.memberId}`)).toEqual(['P2'])
    expect(await names_('leadId=none')).toEqual(['P4', 'P3', 'P1'])
    expect(await names_(`statusId=${await statusOf(ws, 'started')}`)).toEqual(['P2'])
  })

  it('adds, lists and removes teams; a project keeps at least one', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const project = (await ws.api.post(base, { name: 'Cross', teamIds: [ws.teamId] })).body
    const teams = `${base}/${project.id}/teams`
    const added = await ws.api.put(`${teams}/${design.id}`)
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ projectId: project.id, teamId: design.id })
    expect((await ws.api.put(`${teams}/${design.id}`)).body).toEqual(added.body)
    expect((await ws.api.get(`${base}/${project.id}`)).body.teamIds).toEqual([ws.teamId, design.id])
    const page1 = await ws.api.get(`${teams}?limit=1`)
    const page2 = await ws.api.get(`${teams}?limit=1&cursor=${page1.body.nextCursor}`)
    expect([...page1.body.data, ...page2.body.data].map((t: any) => t.teamId).sort()).toEqual(
      [ws.teamId, design.id].sort(),
    )
    expect(page2.body.nextCursor).toBeNull()
    expect((await ws.api.delete(`${teams}/${ws.teamId}`)).status).toBe(204)
    const last = await ws.api.delete(`${teams}/${design.id}`)
    expect(last).toMatchObject({ status: 409, body: { code: 'conflict' } })
    expect((await ws.api.get(`${base}/${project.id}`)).body.teamIds).toEqual([design.id])
    const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(
      expect.arrayContaining(['project.created', 'project.team_added', 'project.team_removed']),
    )
  })

  it('archives, restores and deletes; deleted projects leave their tasks in their teams', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const project = (await ws.api.post(base, { name: 'Gone', teamIds: [ws.teamId] })).body
    const milestone = (await ws.api.post(`${base}/${project.id}/milestones`, { name: 'M1' })).body
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
      teamId: ws.teamId,
      title: 'Stays',
      milestoneId: milestone.id,
    })
    expect(task.body).toMatchObject({ projectId: project.id, milestoneId: milestone.id })
    const archived = await ws.api.post(`${base}/${project.id}/archive`)
    expect(archived.body.archivedAt).not.toBeNull()
    expect((await ws.api.post(`${base}/${project.id}/restore`)).body.archivedAt).toBeNull()
    expect((await ws.api.delete(`${base}/${project.id}`)).status).toBe(204)
    expect((await ws.api.get(`${base}/${project.id}`)).status).toBe(404)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/milestones/${milestone.id}`)).status).toBe(404)
    const after = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}`)
    expect(after.body).toMatchObject({ teamId: ws.teamId, projectId: null, milestoneId: null })
    const events = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data
    const deleted = events.find((e: any) => e.kind === 'project.deleted')
    expect(deleted.data.taskIds).toEqual([task.body.id])
    expect(events.map((e: any) => e.kind)).toEqual(
      expect.arrayContaining(['project.archived', 'project.restored']),
    )
  })

  it('shows a project to whoever can view one of its teams, and lets manage on one team delete it', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const shared = (await ws.api.post(base, { name: 'Shared', teamIds: [design.id, ws.teamId] })).body
    const hidden = (await ws.api.post(base, { name: 'Hidden', teamIds: [design.id] })).body
    const guest = await ws.addMember('guest')
    await grant(ws, guest.memberId, 'view')
    const list = await guest.api.get(`${base}?limit=1`)
    expect(list.body.data.map((p: any) => p.name)).toEqual(['Shared'])
    expect(list.body.nextCursor).toBeNull()
    const seen = await guest.api.get(`${base}/${shared.id}`)
    // Only the teams the reader can view are named.
    expect(seen.body.teamIds).toEqual([ws.teamId])
    expect((await guest.api.get(`${base}/${hidden.id}`)).status).toBe(404)
    expect((await guest.api.get(`${base}/${hidden.id}/teams`)).status).toBe(404)
    expect((await guest.api.delete(`${base}/${hidden.id}`)).status).toBe(404)
    const update = await guest.api.patch(`${base}/${shared.id}`, { name: 'Mine' })
    expect(update).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    const create = await guest.api.post(base, { name: 'New', teamIds: [ws.teamId] })
    expect(create).toMatchObject({ status: 403, body: { code: 'capability_required' } })

    const contributor = await ws.addMember('guest')
    await grant(ws, contributor.memberId, 'contribute')
    expect((await contributor.api.patch(`${base}/${shared.id}`, { name: 'Renamed' })).status).toBe(200)
    const noDelete = await contributor.api.delete(`${base}/${shared.id}`)
    expect(noDelete).toMatchObject({ status: 403, body: { capability: 'manage' } })
    // Creating across a team the caller cannot contribute to is refused.
    const across = await contributor.api.post(base, { name: 'Across', teamIds: [ws.teamId, design.id] })
    expect(across.status).toBe(404)

    const manager = await ws.addMember('guest')
    await grant(ws, manager.memberId, 'manage')
    expect((await manager.api.delete(`${base}/${shared.id}`)).status).toBe(204)
    expect((await ws.api.get(base)).body.data.map((p: any) => p.name)).toEqual(['Hidden'])
  })
})
