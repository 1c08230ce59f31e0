import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('labels', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const events = (orgId: string) => server.storage.read((s) => s.events.list(orgId as never, 0, 10_000))

  it('creates org and team labels with defaults, reads them back and announces them', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const bug = await ws.api.post(labels, { name: 'Bug', color: '#eb5757', description: 'Broken' })
    expect(bug.status).toBe(201)
    expect(bug.body).toMatchObject({
      teamId: null,
      parentId: null,
      isGroup: false,
      name: 'Bug',
      color: '#eb5757',
      description: 'Broken',
      archivedAt: null,
    })
    expect(bug.headers.get('location')).toBe(`${labels}/${bug.body.id}`)
    const ui = await ws.api.post(labels, { name: 'UI', teamId: ws.teamId })
    expect(ui.body).toMatchObject({ teamId: ws.teamId, color: '#95a2b3', description: null })
    const got = await ws.api.get(`${labels}/${ui.body.id}`)
    expect(got.body).toEqual(ui.body)
    expect(got.headers.get('etag')).toBeTruthy()
    const created = (await events(ws.orgId)).filter((e) => e.kind === 'label.created')
    expect(created.map((e) => [e.resourceId, e.teamId])).toEqual([
      [bug.body.id, null],
      [ui.body.id, ws.teamId],
    ])
  })

  it('keeps names unique per scope, ignoring case, among active labels (409 label_name_taken)', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const bug = await ws.api.post(labels, { name: 'Bug' })
    const again = await ws.api.post(labels, { name: 'bug' })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'label_name_taken', errors: [{ pointer: '/body/name' }] })
    // A team label may share an org label's name, but not another label of its team.
    expect((await ws.api.post(labels, { name: 'Bug', teamId: ws.teamId })).status).toBe(201)
    expect((await ws.api.post(labels, { name: 'BUG', teamId: ws.teamId })).status).toBe(409)
    const feature = await ws.api.post(labels, { name: 'Feature' })
    expect((await ws.api.patch(`${labels}/${feature.body.id}`, { name: 'BUG' })).status).toBe(409)
    expect((await ws.api.get(`${labels}/${feature.body.id}`)).body.name).toBe('Feature')
    // Archiving frees the name; restoring while another label holds it is refused.
    await ws.api.post(`${labels}/${bug.body.id}/archive`)
    const successor = await ws.api.post(labels, { name: 'Bug' })
    expect(successor.status).toBe(201)
    const restore = await ws.api.post(`${labels}/${bug.body.id}/restore`)
    expect(restore.status).toBe(409)
    expect(restore.body.code).toBe('label_name_taken')
    expect((await ws.api.get(`${labels}/${bug.body.id}`)).body.archivedAt).not.toBeNull()
  })

  it('groups labels: no nesting, same scope only, filterable by group', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const type = await ws.api.post(labels, { name: 'Type', isGroup: true })
    expect(type.body.isGroup).toBe(true)
    const bug = await ws.api.post(labels, { name: 'Bug', parentId: type.body.id })
    expect(bug.body.parentId).toBe(type.body.id)
    await ws.api.post(labels, { name: 'Loose' })
    const nested = await ws.api.post(labels, { name: 'Sub', isGroup: true, parentId: type.body.id })
    expect(nested.status).toBe(422)
    expect(nested.body.errors).toEqual([expect.objectContaining({ pointer: '/body/parentId' })])
    const crossScope = await ws.api.post(labels, { name: 'Mine', teamId: ws.teamId, parentId: type.body.id })
    expect(crossScope).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    const notAGroup = await ws.api.post(labels, { name: 'Other', parentId: bug.body.id })
    expect(notAGroup.status).toBe(422)
    const members = await ws.api.get(`${labels}?parentId=${type.body.id}`)
    expect(members.body.data.map((l: any) => l.name)).toEqual(['Bug'])
    const out = await ws.api.patch(`${labels}/${bug.body.id}`, { parentId: null })
    expect(out.body.parentId).toBeNull()
  })

  it('updates, archives, restores and deletes; deleting takes the label off tasks and ungroups', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const group = await ws.api.post(labels, { name: 'Area', isGroup: true })
    const child = await ws.api.post(labels, { name: 'Backend', parentId: group.body.id })
    const renamed = await ws.api.patch(
      `${labels}/${child.body.id}`,
      { name: 'Server', color: '#000000' },
      { 'if-match': (await ws.api.get(`${labels}/${child.body.id}`)).headers.get('etag')! },
    )
    expect(renamed.body).toMatchObject({ name: 'Server', color: '#000000' })
    const stale = await ws.api.patch(`${labels}/${child.body.id}`, { name: 'X' }, { 'if-match': '"stale"' })
    expect(stale.status).toBe(412)
    const archived = await ws.api.post(`${labels}/${child.body.id}/archive`)
    expect(archived.body.archivedAt).not.toBeNull()
    expect((await ws.api.get(labels)).body.data.map((l: any) => l.name)).toEqual(['Area'])
    expect((await ws.api.get(`${labels}?archived=only`)).body.data.map((l: any) => l.name)).toEqual([
      'Server',
    ])
    await ws.api.post(`${labels}/${child.body.id}/restore`)
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'T' })
    await ws.api.put(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}/labels/${child.body.id}`)
    expect((await ws.api.delete(`${labels}/${group.body.id}`)).status).toBe(204)
    expect((await ws.api.get(`${labels}/${group.body.id}`)).status).toBe(404)
    expect((await ws.api.get(`${labels}/${child.body.id}`)).body.parentId).toBeNull()
    expect((await ws.api.delete(`${labels}/${child.body.id}`)).status).toBe(204)
    const after = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}`)
    expect(after.body.labelIds).toEqual([])
    const deleted = (await events(ws.orgId)).filter((e) => e.kind === 'label.deleted')
    expect(deleted.map((e) => e.data)).toEqual([
      { id: group.body.id, name: 'Area', taskCount: 0 },
      { id: child.body.id, name: 'Server', taskCount: 1 },
    ])
  })

  it('lets people who edit work manage labels: contribute on the team or org; delete needs manage', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const member = await ws.addMember('member')
    const orgLabel = await member.api.post(labels, { name: 'By member' })
    expect(orgLabel.status).toBe(201)
    const del = await member.api.delete(`${labels}/${orgLabel.body.id}`)
    expect(del).toMatchObject({ status: 403, body: { code: 'capability_required', capability: 'manage' } })

    const contributor = await ws.addMember('guest')
    await grant(ws, contributor.memberId, 'contribute')
    const teamLabel = await contributor.api.post(labels, { name: 'Guest label', teamId: ws.teamId })
    expect(teamLabel.status).toBe(201)
    const orgByGuest = await contributor.api.post(labels, { name: 'Org by guest' })
    expect(orgByGuest).toMatchObject({ status: 403, body: { capability: 'contribute' } })
    // Org labels are visible to every member; the guest can read but not rename this one.
    expect((await contributor.api.get(`${labels}/${orgLabel.body.id}`)).status).toBe(200)
    expect((await contributor.api.patch(`${labels}/${orgLabel.body.id}`, { name: 'X' })).status).toBe(403)

    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    const refused = await viewer.api.post(labels, { name: 'Nope', teamId: ws.teamId })
    expect(refused).toMatchObject({ status: 403, body: { capability: 'contribute' } })

    // A guest with no grant on the team does not see its labels at all.
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.get(`${labels}/${teamLabel.body.id}`)).status).toBe(404)
    const seen = await stranger.api.get(labels)
    expect(seen.body.data.map((l: any) => l.name)).toEqual(['By member'])
    expect((await ws.api.get(labels)).body.data.map((l: any) => l.name)).toEqual(['By member', 'Guest label'])
  })

  it('pages through labels alphabetically, ignoring case, and filters by team', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const other = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })
    const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'Foxtrot', 'golf']
    for (const [i, name] of names.entries()) {
      await ws.api.post(labels, { name, ...(i % 3 === 0 ? { teamId: ws.teamId } : {}) })
    }
    await ws.api.post(labels, { name: 'Design only', teamId: other.body.id })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(
        `${labels}?teamId=${ws.teamId}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(3)
      seen.push(...page.body.data.map((l: any) => l.name))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())))
    const all = await ws.api.get(`${labels}?limit=200`)
    expect(all.body.data).toHaveLength(8)
    const first = await ws.api.get(`${labels}?limit=3`)
    const wrongList = await ws.api.get(`${labels}?teamId=${ws.teamId}&cursor=${first.body.nextCursor}`)
    expect(wrongList).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } })
  })
})
