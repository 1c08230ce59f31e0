import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('grants on projects', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A project on the workspace's team with `inside` tasks, and `outside` tasks of the team outside it. */
  async function projectWith(ws: TestWorkspace, inside: number, outside = 0, teamId = ws.teamId) {
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: `P${Math.random()}`, teamIds: [teamId] }))
      .body
    const tasks: string[] = []
    for (let i = 0; i < inside; i++)
      tasks.push(
        (await ws.api.post(`${base}/tasks`, { teamId, title: `In ${i}`, projectId: project.id })).body.id,
      )
    const others: string[] = []
    for (let i = 0; i < outside; i++)
      others.push((await ws.api.post(`${base}/tasks`, { teamId, title: `Out ${i}` })).body.id)
    return { id: project.id as string, tasks, others }
  }

  const grantOn = (ws: TestWorkspace, subjectId: string, containerId: string, capability: string) =>
    ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: subjectId.startsWith('team_') ? 'team' : 'member',
      subjectId,
      containerType: containerId.startsWith('proj_') ? 'project' : 'team',
      containerId,
      capability,
    })

  it('creates, reads, lists, changes and removes a grant on a project; each takes effect on the next request', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, 1, 1)
    const guest = await ws.addMember('guest')
    expect((await guest.api.get(`${base}/projects/${p.id}`)).status).toBe(404)
    expect((await guest.api.get(`${base}/tasks/${p.tasks[0]}`)).status).toBe(404)

    const created = await grantOn(ws, guest.memberId, p.id, 'comment')
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ containerType: 'project', containerId: p.id, capability: 'comment' })
    const grantPath = `${base}/grants/${created.body.id}`
    expect((await ws.api.get(grantPath)).body.id).toBe(created.body.id)
    const listed = await ws.api.get(`${base}/grants?containerType=project&containerId=${p.id}`)
    expect(listed.body.data.map((g: { id: string }) => g.id)).toEqual([created.body.id])

    // The project and its task are visible; the team's other task and the team itself are not.
    const seen = await guest.api.get(`${base}/projects/${p.id}`)
    expect(seen.status).toBe(200)
    expect(seen.body.teamIds).toEqual([])
    expect((await guest.api.get(`${base}/projects`)).body.data.map((x: { id: string }) => x.id)).toEqual([
      p.id,
    ])
    expect((await guest.api.get(`${base}/tasks`)).body.data.map((t: { id: string }) => t.id)).toEqual(p.tasks)
    expect((await guest.api.get(`${base}/tasks/${p.others[0]}`)).status).toBe(404)
    expect((await guest.api.get(`${base}/teams/${ws.teamId}`)).status).toBe(404)
    const edit = await guest.api.patch(`${base}/tasks/${p.tasks[0]}`, { title: 'Mine' })
    expect(edit.body).toMatchObject({
      code: 'capability_required',
      capability: 'contribute',
      held: 'comment',
    })

    const changed = await ws.api.patch(grantPath, { capability: 'contribute' })
    expect(changed.body.capability).toBe('contribute')
    expect((await guest.api.patch(`${base}/tasks/${p.tasks[0]}`, { title: 'Mine' })).status).toBe(200)
    expect((await guest.api.patch(`${base}/projects/${p.id}`, { description: 'Ours' })).status).toBe(200)

    expect((await ws.api.delete(grantPath)).status).toBe(204)
    expect((await guest.api.get(`${base}/tasks/${p.tasks[0]}`)).status).toBe(404)
    expect((await guest.api.get(`${base}/projects/${p.id}`)).status).toBe(404)

    const kinds = (await server.storage.read((s) => s.events.list(ws.orgId as never, 0, 10_000)))
      .filter((e) => e.resourceId === created.body.id)
      .map((e) => [e.kind, (e.data as { grant: { containerType: string } }).grant.containerType])
    expect(kinds).toEqual([
      ['grant.created', 'project'],
      ['grant.updated', 'project'],
      ['grant.deleted', 'project'],
    ])
  })

  it('needs `manage` on the project to grant on it; a project the caller cannot view is as missing', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, 0)
    const member = await ws.addMember('member')
    const guest = await ws.addMember('guest')
    const lead = await ws.addMember('guest')
    // A member's role gives `assign`: they see the project but may not grant on it.
    const denied = await member.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'project',
      containerId: p.id,
      capability: 'view',
    })
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({ code: 'capability_required', capability: 'manage', held: 'assign' })
    // `manage` on the project lets a guest run its grants, and only there.
    expect((await grantOn(ws, lead.memberId, p.id, 'manage')).status).toBe(201)
    const delegated = await lead.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'project',
      containerId: p.id,
      capability: 'view',
    })
    expect(delegated.status).toBe(201)
    expect((await lead.api.get(`${base}/grants?containerType=project&containerId=${p.id}`)).status).toBe(200)
    expect((await lead.api.get(`${base}/grants`)).status).toBe(403)
    const other = await projectWith(ws, 0)
    for (const containerId of [other.id, 'proj_01JD3Q2R4S5T6V7W8X9YZABCDE']) {
      const hidden = await lead.api.post(`${base}/grants`, {
        subjectType: 'member',
        subjectId: guest.memberId,
        containerType: 'project',
        containerId,
        capability: 'view',
      })
      expect(hidden).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/body/containerId' }] },
      })
    }
    expect((await grantOn(ws, lead.memberId, p.id, 'view')).body.code).toBe('already_exists')
    // Deleting the project deletes the grants on it.
    expect((await ws.api.delete(`${base}/projects/${p.id}`)).status).toBe(204)
    expect((await ws.api.get(`${base}/grants/${delegated.body.id}`)).status).toBe(404)
  })

  it('explains a project, and a task reached through its project, naming the deciding grant', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, 1, 1)
    const guest = await ws.addMember('guest')
    const team = (await grantOn(ws, guest.memberId, ws.teamId, 'view')).body
    const onProject = (await grantOn(ws, guest.memberId, p.id, 'contribute')).body
    const explain = async (
      actorId: string,
      targetType: string,
      targetId: string,
      capability = 'contribute',
    ) =>
      (
        await ws.api.get(
          `${base}/access/explain?actorId=${actorId}&capability=${capability}&targetType=${targetType}&targetId=${targetId}`,
        )
      ).body
    const inProject = await explain(guest.memberId, 'task', p.tasks[0]!)
    expect(inProject).toMatchObject({ allowed: true, effective: 'contribute', visible: true })
    expect(inProject.decidingGrant.id).toBe(onProject.id)
    expect(inProject.grants.map((g: { id: string }) => g.id).sort()).toEqual([team.id, onProject.id].sort())
    const outside = await explain(guest.memberId, 'task', p.others[0]!)
    expect(outside).toMatchObject({ allowed: false, effective: 'view' })
    expect(outside.decidingGrant.id).toBe(team.id)
    const project = await explain(guest.memberId, 'project', p.id, 'manage')
    expect(project).toMatchObject({ allowed: false, effective: 'contribute' })
    expect(project.decidingGrant.id).toBe(onProject.id)
    // A member's role already gives `assign`: a `view` grant on the project decides nothing.
    const member = await ws.addMember('member')
    await grantOn(ws, member.memberId, p.id, 'view')
    const byRole = await explain(member.memberId, 'project', p.id)
    expect(byRole).toMatchObject({ effective: 'assign', decidingGrant: null })
    expect(byRole.grants).toHaveLength(1)
    // Anyone may ask about themselves; a project they cannot view is a 404 like a missing one.
    const stranger = await ws.addMember('guest')
    const self = await stranger.api.get(
      `${base}/access/explain?actorId=${stranger.memberId}&capability=view&targetType=project&targetId=${p.id}`,
    )
    expect(self.status).toBe(200)
    expect(self.body).toMatchObject({ visible: false, effective: null, decidingGrant: null })
    expect(
      (
        await ws.api.get(
          `${base}/access/explain?actorId=${guest.memberId}&capability=view&targetType=project&targetId=proj_01JD3Q2R4S5T6V7W8X9YZABCDE`,
        )
      ).status,
    ).toBe(404)
  })

  it('keeps pages exact and in order for a reader who sees tasks through a team and through projects', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const second = (await ws.api.post(`${base}/teams`, { name: 'Second', key: 'SEC' })).body
    const granted = await projectWith(ws, 3, 2)
    const hidden = await projectWith(ws, 2)
    const onTeam = await projectWith(ws, 2, 2, second.id)
    const team = (await ws.api.post(`${base}/teams`, { name: 'Team', key: 'TMS' })).body
    const seenTeam = (await ws.api.post(`${base}/teams`, { name: 'Seen', key: 'SEN' })).body
    const teamGuest = await ws.addMember('guest')
    await ws.api.put(`${base}/teams/${team.id}/members/${teamGuest.memberId}`)
    // Through a team the guest is in: a grant on the project; directly: a grant on a second team.
    expect((await grantOn(ws, team.id, granted.id, 'view')).status).toBe(201)
    expect((await grantOn(ws, teamGuest.memberId, second.id, 'view')).status).toBe(201)
    expect((await grantOn(ws, teamGuest.memberId, seenTeam.id, 'view')).status).toBe(201)
    const expected = [...granted.tasks, ...onTeam.tasks, ...onTeam.others]
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const page: { status: number; body: { data: { id: string }[]; nextCursor: string | null } } =
        await teamGuest.api.get(`${base}/tasks?limit=2&sort=createdAt${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      if (page.body.nextCursor) expect(page.body.data).toHaveLength(2)
      ids.push(...page.body.data.map((t) => t.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(ids).toEqual(expected)
    expect(ids).not.toContain(hidden.tasks[0])
    // Projects: the granted one and the one on the visible team, one per page.
    const projects: string[] = []
    cursor = null
    do {
      const page: { body: { data: { id: string }[]; nextCursor: string | null } } = await teamGuest.api.get(
        `${base}/projects?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      )
      projects.push(...page.body.data.map((p) => p.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(projects.sort()).toEqual([granted.id, onTeam.id].sort())
    // The project's own task list and progress count what the reader sees through the grant.
    const inProject = await teamGuest.api.get(`${base}/projects/${granted.id}/tasks?limit=50`)
    expect(inProject.body.data.map((t: { id: string }) => t.id).sort()).toEqual([...granted.tasks].sort())
  })
  it('lets a project-grant reader see what the project holds: task comments, relations, documents, initiatives', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const p = await projectWith(ws, 1)
    const other = await projectWith(ws, 0)
    const guest = await ws.addMember('guest')
    const comment = (await ws.api.post(`${base}/tasks/${p.tasks[0]}/comments`, { body: 'Seen' })).body
    const relation = (
      await ws.api.post(`${base}/projects/${p.id}/relations`, { type: 'related', relatedProjectId: other.id })
    ).body
    const doc = (
      await ws.api.post(`${base}/documents`, { holderType: 'project', holderId: p.id, title: 'Plan' })
    ).body
    const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'Theme' })).body
    expect((await ws.api.put(`${base}/initiatives/${initiative.id}/projects/${p.id}`)).status).toBe(200)
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id)

    expect((await guest.api.get(`${base}/tasks/${p.tasks[0]}/comments`)).status).toBe(404)
    expect((await guest.api.get(`${base}/documents/${doc.id}`)).status).toBe(404)
    expect((await guest.api.get(`${base}/initiatives/${initiative.id}`)).status).toBe(404)
    expect((await grantOn(ws, guest.memberId, p.id, 'view')).status).toBe(201)

    expect(ids(await guest.api.get(`${base}/tasks/${p.tasks[0]}/comments`))).toEqual([comment.id])
    expect((await guest.api.get(`${base}/comments/${comment.id}`)).status).toBe(200)
    // The related project stays hidden: the relation is listed from the side the reader sees only
    // when both ends are visible, as for any reader.
    expect((await guest.api.get(`${base}/project-relations/${relation.id}`)).status).toBe(404)
    expect((await grantOn(ws, guest.memberId, other.id, 'view')).status).toBe(201)
    expect(ids(await guest.api.get(`${base}/projects/${p.id}/relations`))).toEqual([relation.id])
    expect((await guest.api.get(`${base}/project-relations/${relation.id}`)).status).toBe(200)
    expect(ids(await guest.api.get(`${base}/documents`))).toEqual([doc.id])
    expect((await guest.api.get(`${base}/documents/${doc.id}`)).status).toBe(200)
    expect(ids(await guest.api.get(`${base}/initiatives`))).toEqual([initiative.id])
    const linked = await guest.api.get(`${base}/initiatives/${initiative.id}/projects`)
    expect(linked.body.data.map((l: { projectId: string }) => l.projectId)).toEqual([p.id])
  })
})
