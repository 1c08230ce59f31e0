import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('grants on programs and initiatives', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  type Api = TestWorkspace['api']
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id)

  /** A project on the workspace's team with `count` tasks. */
  async function projectWith(ws: TestWorkspace, count: number) {
    const base = `/v1/orgs/${ws.orgId}`
    const project = (
      await ws.api.post(`${base}/projects`, { name: `P${Math.random()}`, teamIds: [ws.teamId] })
    ).body
    const tasks: string[] = []
    for (let i = 0; i < count; i++)
      tasks.push(
        (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: `T${i}`, projectId: project.id }))
          .body.id,
      )
    return { id: project.id as string, tasks }
  }

  const grantOn = (
    ws: TestWorkspace,
    subjectId: string,
    containerType: string,
    containerId: string,
    capability: string,
  ) =>
    ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId,
      containerType,
      containerId,
      capability,
    })

  /** Every page of a list, `limit` at a time, asserting each full page but the last. */
  async function readAll(api: Api, path: string, limit: number): Promise<string[]> {
    const out: string[] = []
    let cursor: string | null = null
    do {
      const sep = path.includes('?') ? '&' : '?'
      const page: { status: number; body: { data: { id: string }[]; nextCursor: string | null } } =
        await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      if (page.body.nextCursor) expect(page.body.data).toHaveLength(limit)
      out.push(...page.body.data.map((x) => x.id))
      cursor = page.body.nextCursor
    } while (cursor)
    return out
  }

  /**
   * top → sub (sub-initiative) → program → inProgram (project), plus a project linked to `sub`
   * directly and one outside everything. Tasks: 3 in `inProgram`, 2 in `onSub`, 2 `outside`.
   */
  async function hierarchy(ws: TestWorkspace) {
    const base = `/v1/orgs/${ws.orgId}`
    const top = (await ws.api.post(`${base}/initiatives`, { name: 'Top' })).body
    const sub = (await ws.api.post(`${base}/initiatives`, { name: 'Sub', parentId: top.id })).body
    const sibling = (await ws.api.post(`${base}/initiatives`, { name: 'Sibling' })).body
    const program = (await ws.api.post(`${base}/programs`, { name: 'Reliability' })).body
    const otherProgram = (await ws.api.post(`${base}/programs`, { name: 'Elsewhere' })).body
    const inProgram = await projectWith(ws, 3)
    const onSub = await projectWith(ws, 2)
    const outside = await projectWith(ws, 2)
    expect((await ws.api.put(`${base}/programs/${program.id}/projects/${inProgram.id}`)).status).toBe(200)
    expect((await ws.api.put(`${base}/initiatives/${sub.id}/programs/${program.id}`)).status).toBe(200)
    expect((await ws.api.put(`${base}/initiatives/${sub.id}/projects/${onSub.id}`)).status).toBe(200)
    return { base, top, sub, sibling, program, otherProgram, inProgram, onSub, outside }
  }

  it('an initiative grant reaches sub-initiatives, their programs, projects and tasks, with exact pages', async () => {
    const ws = await newWorkspace(server)
    const h = await hierarchy(ws)
    const guest = await ws.addMember('guest')
    // Without any grant a guest sees none of it.
    expect((await guest.api.get(`${h.base}/programs/${h.program.id}`)).status).toBe(404)
    expect(ids(await guest.api.get(`${h.base}/programs`))).toEqual([])
    expect(ids(await guest.api.get(`${h.base}/initiatives`))).toEqual([])
    expect((await guest.api.get(`${h.base}/tasks/${h.inProgram.tasks[0]}`)).status).toBe(404)

    const grant = await grantOn(ws, guest.memberId, 'initiative', h.top.id, 'view')
    expect(grant.status).toBe(201)
    expect(grant.body).toMatchObject({ containerType: 'initiative', containerId: h.top.id })

    const tasks = await readAll(guest.api, `${h.base}/tasks?sort=createdAt`, 2)
    expect(tasks).toEqual([...h.inProgram.tasks, ...h.onSub.tasks])
    expect((await guest.api.get(`${h.base}/tasks/${h.inProgram.tasks[1]}`)).status).toBe(200)
    expect((await guest.api.get(`${h.base}/tasks/${h.outside.tasks[0]}`)).status).toBe(404)
    expect((await guest.api.get(`${h.base}/projects/${h.outside.id}`)).status).toBe(404)
    expect((await readAll(guest.api, `${h.base}/projects`, 1)).sort()).toEqual(
      [h.inProgram.id, h.onSub.id].sort(),
    )
    expect(await readAll(guest.api, `${h.base}/programs`, 1)).toEqual([h.program.id])
    expect((await guest.api.get(`${h.base}/programs/${h.program.id}`)).status).toBe(200)
    expect((await guest.api.get(`${h.base}/programs/${h.otherProgram.id}`)).status).toBe(404)
    expect((await readAll(guest.api, `${h.base}/initiatives`, 1)).sort()).toEqual([h.top.id, h.sub.id].sort())
    expect((await guest.api.get(`${h.base}/initiatives/${h.sibling.id}`)).status).toBe(404)
    const linked = await guest.api.get(`${h.base}/initiatives/${h.sub.id}/programs`)
    expect(linked.body.data.map((l: { programId: string }) => l.programId)).toEqual([h.program.id])

    // `view` does not write; the explanation names the initiative grant.
    expect(await guest.api.patch(`${h.base}/tasks/${h.inProgram.tasks[0]}`, { title: 'x' })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', held: 'view' },
    })
    const explained = (
      await ws.api.get(
        `${h.base}/access/explain?actorId=${guest.memberId}&capability=view&targetType=task&targetId=${h.inProgram.tasks[0]}`,
      )
    ).body
    expect(explained).toMatchObject({ allowed: true, effective: 'view', visible: true })
    expect(explained.decidingGrant).toMatchObject({ id: grant.body.id, containerType: 'initiative' })
    const holders = await ws.api.get(
      `${h.base}/access/holders?targetType=program&targetId=${h.program.id}&capability=view`,
    )
    expect(holders.body.data.map((x: { actorId: string }) => x.actorId)).toContain(guest.memberId)

    // Revoking the grant takes everything back on the next request.
    expect((await ws.api.delete(`${h.base}/grants/${grant.body.id}`)).status).toBe(204)
    expect(ids(await guest.api.get(`${h.base}/tasks`))).toEqual([])
    expect((await guest.api.get(`${h.base}/programs/${h.program.id}`)).status).toBe(404)
    expect((await guest.api.get(`${h.base}/initiatives/${h.sub.id}`)).status).toBe(404)
  })

  it('a contribute grant on a program lets a guest update its projects’ tasks; view does not', async () => {
    const ws = await newWorkspace(server)
    const h = await hierarchy(ws)
    const guest = await ws.addMember('guest')
    const grant = (await grantOn(ws, guest.memberId, 'program', h.program.id, 'view')).body
    const task = h.inProgram.tasks[0]
    expect(await guest.api.patch(`${h.base}/tasks/${task}`, { title: 'Mine' })).toMatchObject({
      status: 403,
      body: { capability: 'contribute', held: 'view' },
    })
    // The program grant reaches the program's projects, not the sub-initiative or its other project.
    expect(await readAll(guest.api, `${h.base}/tasks`, 2)).toHaveLength(3)
    expect((await guest.api.get(`${h.base}/tasks/${h.onSub.tasks[0]}`)).status).toBe(404)
    expect((await guest.api.get(`${h.base}/initiatives/${h.sub.id}`)).status).toBe(404)

    expect((await ws.api.patch(`${h.base}/grants/${grant.id}`, { capability: 'contribute' })).status).toBe(
      200,
    )
    expect((await guest.api.patch(`${h.base}/tasks/${task}`, { title: 'Mine' })).status).toBe(200)
    expect(
      (await guest.api.patch(`${h.base}/programs/${h.program.id}`, { description: 'Ours' })).status,
    ).toBe(200)
    expect((await guest.api.patch(`${h.base}/tasks/${h.outside.tasks[0]}`, { title: 'x' })).status).toBe(404)
    // The highest grant on any container holding the task decides.
    const onProject = (await grantOn(ws, guest.memberId, 'project', h.inProgram.id, 'view')).body
    const explained = (
      await ws.api.get(
        `${h.base}/access/explain?actorId=${guest.memberId}&capability=contribute&targetType=task&targetId=${task}`,
      )
    ).body
    expect(explained).toMatchObject({ allowed: true, effective: 'contribute' })
    expect(explained.decidingGrant.id).toBe(grant.id)
    expect(explained.grants.map((g: { id: string }) => g.id).sort()).toEqual([grant.id, onProject.id].sort())
  })

  it('removing a project from a program (or a program from an initiative) removes the reach', async () => {
    const ws = await newWorkspace(server)
    const h = await hierarchy(ws)
    const viaProgram = await ws.addMember('guest')
    const viaInitiative = await ws.addMember('guest')
    await grantOn(ws, viaProgram.memberId, 'program', h.program.id, 'contribute')
    await grantOn(ws, viaInitiative.memberId, 'initiative', h.sub.id, 'view')
    const task = h.inProgram.tasks[0]
    expect((await viaProgram.api.get(`${h.base}/tasks/${task}`)).status).toBe(200)
    expect((await viaInitiative.api.get(`${h.base}/tasks/${task}`)).status).toBe(200)

    expect((await ws.api.delete(`${h.base}/initiatives/${h.sub.id}/programs/${h.program.id}`)).status).toBe(
      204,
    )
    expect((await viaInitiative.api.get(`${h.base}/tasks/${task}`)).status).toBe(404)
    expect((await viaInitiative.api.get(`${h.base}/programs/${h.program.id}`)).status).toBe(404)
    expect(await readAll(viaInitiative.api, `${h.base}/tasks?sort=createdAt`, 5)).toEqual(h.onSub.tasks)

    expect(
      (await ws.api.delete(`${h.base}/programs/${h.program.id}/projects/${h.inProgram.id}`)).status,
    ).toBe(204)
    expect((await viaProgram.api.get(`${h.base}/tasks/${task}`)).status).toBe(404)
    expect((await viaProgram.api.patch(`${h.base}/tasks/${task}`, { title: 'x' })).status).toBe(404)
    expect(ids(await viaProgram.api.get(`${h.base}/tasks`))).toEqual([])
    // The program itself stays visible to its grant holder.
    expect((await viaProgram.api.get(`${h.base}/programs/${h.program.id}`)).status).toBe(200)
  })

  it('grants on programs and initiatives need manage there, and go with the container', async () => {
    const ws = await newWorkspace(server)
    const h = await hierarchy(ws)
    const lead = await ws.addMember('guest')
    const guest = await ws.addMember('guest')
    const member = await ws.addMember('member')
    const denied = await member.api.post(`${h.base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'program',
      containerId: h.program.id,
      capability: 'view',
    })
    expect(denied.body).toMatchObject({ code: 'capability_required', capability: 'manage', held: 'assign' })
    // `manage` on an initiative lets a guest grant on it and on what it holds, and list those grants.
    expect((await grantOn(ws, lead.memberId, 'initiative', h.top.id, 'manage')).status).toBe(201)
    const onProgram = await lead.api.post(`${h.base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'program',
      containerId: h.program.id,
      capability: 'view',
    })
    expect(onProgram.status).toBe(201)
    const listed = await lead.api.get(`${h.base}/grants?containerType=program&containerId=${h.program.id}`)
    expect(ids(listed)).toEqual([onProgram.body.id])
    // Programs and initiatives are org-level: one without `manage` is a 403; a missing one, named in
    // the body, a 422 at the field.
    for (const [containerType, containerId, status] of [
      ['program', h.otherProgram.id, 403],
      ['initiative', h.sibling.id, 403],
      ['program', 'prg_01JD3Q2R4S5T6V7W8X9YZABCDE', 422],
    ] as const) {
      const hidden = await lead.api.post(`${h.base}/grants`, {
        subjectType: 'member',
        subjectId: guest.memberId,
        containerType,
        containerId,
        capability: 'view',
      })
      expect(hidden.status, `${containerType} ${containerId}`).toBe(status)
      if (status === 422)
        expect(hidden.body.errors).toEqual([expect.objectContaining({ pointer: '/body/containerId' })])
    }
    // Deleting the program or the initiative deletes the grants on it.
    const onSub = (await grantOn(ws, guest.memberId, 'initiative', h.sub.id, 'view')).body
    expect((await ws.api.delete(`${h.base}/programs/${h.program.id}`)).status).toBe(204)
    expect((await ws.api.get(`${h.base}/grants/${onProgram.body.id}`)).status).toBe(404)
    expect((await ws.api.delete(`${h.base}/initiatives/${h.sub.id}`)).status).toBe(204)
    expect((await ws.api.get(`${h.base}/grants/${onSub.id}`)).status).toBe(404)
  })
})
