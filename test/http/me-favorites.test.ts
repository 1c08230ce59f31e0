import { FAVORITES_MAX, newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const favorites = '/v1/me/favorites'

describeEachDatabase('me.favorites', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const task = async (ws: TestWorkspace, title = 'Task', teamId = ws.teamId) =>
    (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId, title })).body.id as string
  const star = (api: TestWorkspace['api'], orgId: string, type: string, id: string) =>
    api.post(favorites, { record: { orgId, type, id } })
  const listed = async (api: TestWorkspace['api'], query = '') =>
    (await api.get(`${favorites}${query}`)).body.data.map((f: any) => f.record.id)

  it('stars records of several kinds in two workspaces, in order; starring again answers the same favorite', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const person = await a.addMember('member')
    const now = new Date().toISOString()
    await server.storage.transaction((s) =>
      s.members.insert({
        id: newId('MemberId'),
        orgId: b.orgId,
        userId: person.user.id,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    const taskId = await task(a)
    const project = await a.api.post(`/v1/orgs/${a.orgId}/projects`, { name: 'Launch', teamIds: [a.teamId] })
    const first = await star(person.api, a.orgId, 'task', taskId)
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ record: { orgId: a.orgId, type: 'task', id: taskId }, position: 0 })
    await star(person.api, a.orgId, 'project', project.body.id)
    await star(person.api, a.orgId, 'team', a.teamId)
    // In b the person is a member, who sees b's org-level labels.
    const label = await b.api.post(`/v1/orgs/${b.orgId}/labels`, { name: 'Urgent' })
    expect((await star(person.api, b.orgId, 'label', label.body.id)).status).toBe(201)
    expect(await listed(person.api)).toEqual([taskId, project.body.id, a.teamId, label.body.id])
    const again = await star(person.api, a.orgId, 'task', taskId)
    expect(again.body).toEqual(first.body)
    expect(await listed(person.api)).toHaveLength(4)
    // Another person's favorites are theirs alone.
    expect(await listed(a.api)).toEqual([])
  })

  it('pages in order with exact pages', async () => {
    const ws = await newWorkspace(server)
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push(await task(ws, `T${i}`))
      await star(ws.api, ws.orgId, 'task', ids[i]!)
    }
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res: any = await ws.api.get(`${favorites}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status).toBe(200)
      seen.push(...res.body.data.map((f: any) => f.record.id))
      if (res.body.nextCursor) expect(res.body.data).toHaveLength(2)
      cursor = res.body.nextCursor
      pages++
    } while (cursor)
    expect(seen).toEqual(ids)
    expect(pages).toBe(3)
    const bad = await ws.api.get(`${favorites}?cursor=forged.cursor`)
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } })
  })

  it('never shows a record the person can no longer view, and pages stay full around hidden ones', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const guest = await ws.addMember('guest')
    const grant = async (teamId: string) =>
      (
        await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
          subjectType: 'member',
          subjectId: guest.memberId,
          containerType: 'team',
          containerId: teamId,
          capability: 'view',
        })
      ).body.id as string
    await grant(ws.teamId)
    const designGrant = await grant(design)
    const eng = [await task(ws, 'E1'), await task(ws, 'E2')]
    const des = [await task(ws, 'D1', design), await task(ws, 'D2', design)]
    const deleted = await task(ws, 'E3')
    const starred = new Map<string, string>()
    for (const id of [eng[0]!, des[0]!, des[1]!, deleted, eng[1]!])
      starred.set(id, (await star(guest.api, ws.orgId, 'task', id)).body.id)

    await ws.api.delete(`/v1/orgs/${ws.orgId}/grants/${designGrant}`)
    await ws.api.delete(`/v1/orgs/${ws.orgId}/tasks/${deleted}`)
    expect(await listed(guest.api)).toEqual(eng)
    const page = await guest.api.get(`${favorites}?limit=1`)
    expect(page.body.data.map((f: any) => f.record.id)).toEqual([eng[0]])
    const next = await guest.api.get(`${favorites}?limit=1&cursor=${page.body.nextCursor}`)
    expect(next.body.data.map((f: any) => f.record.id)).toEqual([eng[1]])
    expect(next.body.nextCursor).toBeNull()

    // A move names only what is visible; the hidden ones keep their places and come back there.
    const shown = (await guest.api.get(favorites)).body.data.map((f: any) => f.id)
    const ontoHidden = await guest.api.post(`${favorites}/${shown[1]}/move`, {
      afterId: starred.get(des[0]!),
    })
    expect(ontoHidden).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/afterId' }] },
    })
    const hiddenMoves = await guest.api.post(`${favorites}/${starred.get(des[1]!)}/move`, {
      beforeId: shown[0],
    })
    expect(hiddenMoves.status).toBe(404)
    const moved = await guest.api.post(`${favorites}/${shown[1]}/move`, { beforeId: shown[0] })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ id: shown[1], record: { id: eng[1] }, position: 0 })
    expect(await listed(guest.api)).toEqual([eng[1], eng[0]])
    await grant(design)
    expect(await listed(guest.api)).toEqual([eng[1], eng[0], des[0], des[1]])

    // A membership that ends hides everything of that workspace.
    await ws.api.delete(`/v1/orgs/${ws.orgId}/members/${guest.memberId}`)
    expect(await listed(guest.api)).toEqual([])
  })

  it('refuses a record the person cannot view, a workspace they are not in, and a wrong id; stars nothing', async () => {
    const ws = await newWorkspace(server)
    const stranger = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const guest = await ws.addMember('guest')
    const hidden = await task(ws, 'Secret', design)
    const theirs = await task(stranger, 'Theirs')
    for (const [orgId, id] of [
      [ws.orgId, hidden],
      [stranger.orgId, theirs],
      [ws.orgId, 'task_01JD3Q2R4S5T6V7W8X9YZABCDE'],
    ] as const) {
      const res = await star(guest.api, orgId, 'task', id)
      expect(res).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/body/record' }] },
      })
    }
    const wrongBrand = await star(ws.api, ws.orgId, 'task', ws.teamId)
    // The schema admits an id of any brand a favorite takes: an id of another brand than `type` names
    // is a rule across fields, and names no record of that type.
    expect(wrongBrand).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/record/id' }] },
    })
    const badType = await ws.api.post(favorites, { record: { orgId: ws.orgId, type: 'planet', id: hidden } })
    expect(badType.status).toBe(400)
    expect(await listed(guest.api)).toEqual([])
    expect(await listed(ws.api)).toEqual([])
  })

  it('removes a favorite (404 for an unknown one or another person’s) and moves only your own', async () => {
    const ws = await newWorkspace(server)
    const other = await ws.addMember('member')
    const a = (await star(ws.api, ws.orgId, 'task', await task(ws, 'A'))).body
    const b = (await star(ws.api, ws.orgId, 'team', ws.teamId)).body
    expect((await other.api.delete(`${favorites}/${a.id}`)).status).toBe(404)
    const both = await ws.api.post(`${favorites}/${b.id}/move`, { beforeId: a.id, afterId: a.id })
    expect(both.status).toBe(400)
    const notYours = await other.api.post(`${favorites}/${b.id}/move`, { beforeId: a.id })
    expect(notYours.status).toBe(404)
    expect((await ws.api.get(favorites)).body.data.map((f: any) => f.id)).toEqual([a.id, b.id])
    expect((await ws.api.delete(`${favorites}/${a.id}`)).status).toBe(204)
    expect((await ws.api.delete(`${favorites}/${a.id}`)).status).toBe(404)
    expect((await ws.api.get(favorites)).body.data.map((f: any) => f.id)).toEqual([b.id])
    const next = await star(ws.api, ws.orgId, 'task', await task(ws, 'C'))
    expect(next.body.position).toBe(b.position + 1)
  })
  it('keeps at most FAVORITES_MAX favorites per person (409 conflict beyond) and stars nothing more', async () => {
    const ws = await newWorkspace(server)
    const at = new Date().toISOString()
    const taskId = await task(ws)
    await server.storage.transaction(async (s) => {
      for (let i = 0; i < FAVORITES_MAX; i++)
        await s.favorites.insertOnce({
          id: newId('FavoriteId'),
          userId: ws.owner.user.id,
          orgId: ws.orgId,
          recordType: 'task',
          recordId: newId('TaskId'),
          position: i,
          createdAt: at,
        })
    })
    const res = await star(ws.api, ws.orgId, 'task', taskId)
    expect(res).toMatchObject({ status: 409, body: { code: 'conflict' } })
    const all = await server.storage.read((s) => s.favorites.all(ws.owner.user.id))
    expect(all).toHaveLength(FAVORITES_MAX)
  })

  it('gets one favorite with an ETag; a hidden one, another person’s and an unknown one are 404', async () => {
    const ws = await newWorkspace(server)
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body.id
    const guest = await ws.addMember('guest')
    const grant = (
      await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
        subjectType: 'member',
        subjectId: guest.memberId,
        containerType: 'team',
        containerId: design,
        capability: 'view',
      })
    ).body.id
    const starred = (await star(guest.api, ws.orgId, 'task', await task(ws, 'D1', design))).body
    const path = `${favorites}/${starred.id}`
    const got = await guest.api.get(path)
    expect(got.status).toBe(200)
    expect(got.body).toEqual(starred)
    const etag = got.headers.get('etag')!
    expect((await guest.api.get(path, { 'if-none-match': etag })).status).toBe(304)
    expect((await ws.api.get(path)).status).toBe(404)
    expect((await guest.api.get(`${favorites}/fav_01JD3Q2R4S5T6V7W8X9YZABCDE`)).status).toBe(404)
    // Access removed: hidden, as in the list; back when access returns.
    await ws.api.delete(`/v1/orgs/${ws.orgId}/grants/${grant}`)
    expect((await guest.api.get(path)).body).toMatchObject({ status: 404, code: 'not_found' })
    await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: design,
      capability: 'view',
    })
    expect((await guest.api.get(path)).body).toEqual(starred)
  })
})
