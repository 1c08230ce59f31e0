import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('labels on tasks', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  async function setup(ws: TestWorkspace) {
    const base = `/v1/orgs/${ws.orgId}`
    const label = async (body: Record<string, unknown>) =>
      (await ws.api.post(`${base}/labels`, body)).body.id as string
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Labelled' })).body
    return { base, label, task, path: `${base}/tasks/${task.id}` }
  }

  it('adds and removes labels; the task lists them in order, with events and history', async () => {
    const ws = await newWorkspace(server)
    const { label, task, path } = await setup(ws)
    const bug = await label({ name: 'Bug' })
    const ui = await label({ name: 'UI', teamId: ws.teamId })
    expect(task.labelIds).toEqual([])
    const first = await ws.api.put(`${path}/labels/${bug}`)
    expect(first.status).toBe(200)
    expect(first.body.labelIds).toEqual([bug])
    expect(first.body.updatedAt > task.updatedAt || first.body.updatedAt === task.updatedAt).toBe(true)
    const second = await ws.api.put(`${path}/labels/${ui}`)
    expect(second.body.labelIds).toEqual([bug, ui])
    // Adding a label the task carries changes nothing and announces nothing.
    const before = await server.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))
    expect((await ws.api.put(`${path}/labels/${bug}`)).body.labelIds).toEqual([bug, ui])
    expect((await ws.api.delete(`${path}/labels/${bug}`)).status).toBe(204)
    // Idempotent: removing a label the task no longer carries is 204 again.
    expect((await ws.api.delete(`${path}/labels/${bug}`)).status).toBe(204)
    expect((await ws.api.get(path)).body.labelIds).toEqual([ui])

    const after = await server.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))
    const updates = after.filter((e) => e.kind === 'task.updated' && e.resourceId === task.id)
    expect(updates.map((e) => (e.data as any).changes.labelIds)).toEqual([
      { before: [], after: [bug] },
      { before: [bug], after: [bug, ui] },
      { before: [bug, ui], after: [ui] },
    ])
    expect(updates.every((e) => e.teamId === ws.teamId)).toBe(true)
    expect(after.filter((e) => !before.some((b) => b.seq === e.seq)).map((e) => e.kind)).toEqual([
      'task.updated',
    ])
    const history = await ws.api.get(`${path}/history`)
    expect(
      history.body.data.filter((h: any) => h.field === 'labelIds').map((h: any) => [h.before, h.after]),
    ).toEqual([
      [[bug, ui], [ui]],
      [[bug], [bug, ui]],
      [[], [bug]],
    ])
  })

  it('keeps one label per group: a label of a group replaces its sibling', async () => {
    const ws = await newWorkspace(server)
    const { label, path } = await setup(ws)
    const priority = await label({ name: 'Size', isGroup: true })
    const small = await label({ name: 'Small', parentId: priority })
    const large = await label({ name: 'Large', parentId: priority })
    const loose = await label({ name: 'Loose' })
    await ws.api.put(`${path}/labels/${small}`)
    await ws.api.put(`${path}/labels/${loose}`)
    const swapped = await ws.api.put(`${path}/labels/${large}`)
    expect(swapped.body.labelIds).toEqual([loose, large])
    const groupOnTask = await ws.api.put(`${path}/labels/${priority}`)
    expect(groupOnTask).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
  })

  it('refuses moving a label into a group when a task would carry two of it (409)', async () => {
    const ws = await newWorkspace(server)
    const { label, path } = await setup(ws)
    const group = await label({ name: 'Kind', isGroup: true })
    const bug = await label({ name: 'Bug', parentId: group })
    const chore = await label({ name: 'Chore' })
    await ws.api.put(`${path}/labels/${bug}`)
    await ws.api.put(`${path}/labels/${chore}`)
    const move = await ws.api.patch(`/v1/orgs/${ws.orgId}/labels/${chore}`, { parentId: group })
    expect(move).toMatchObject({ status: 409, body: { code: 'label_group_conflict', taskCount: 1 } })
    await ws.api.delete(`${path}/labels/${bug}`)
    expect((await ws.api.patch(`/v1/orgs/${ws.orgId}/labels/${chore}`, { parentId: group })).status).toBe(200)
  })

  it("refuses archived labels, another team's labels and another org's, changing nothing", async () => {
    const ws = await newWorkspace(server)
    const other = await newWorkspace(server)
    const { base, label, path } = await setup(ws)
    const design = await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })
    const theirs = await label({ name: 'Design only', teamId: design.body.id })
    const old = await label({ name: 'Old' })
    await ws.api.post(`${base}/labels/${old}/archive`)
    const foreign = (await other.api.post(`/v1/orgs/${other.orgId}/labels`, { name: 'Foreign' })).body.id
    for (const labelId of [theirs, old, foreign]) {
      const res = await ws.api.put(`${path}/labels/${labelId}`)
      expect(res.status, labelId).toBe(422)
      expect(res.body).toMatchObject({
        code: 'reference_not_found',
        errors: [{ pointer: '/params/labelId' }],
      })
    }
    // A label archived after it was added stays on the task.
    const kept = await label({ name: 'Kept' })
    await ws.api.put(`${path}/labels/${kept}`)
    await ws.api.post(`${base}/labels/${kept}/archive`)
    expect((await ws.api.get(path)).body.labelIds).toEqual([kept])
  })

  it('needs contribute on the task: a guest with only comment cannot label', async () => {
    const ws = await newWorkspace(server)
    const { label, path } = await setup(ws)
    const bug = await label({ name: 'Bug' })
    const commenter = await ws.addMember('guest')
    await grant(ws, commenter.memberId, 'comment')
    const denied = await commenter.api.put(`${path}/labels/${bug}`)
    expect(denied).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    await ws.api.put(`${path}/labels/${bug}`)
    expect((await commenter.api.delete(`${path}/labels/${bug}`)).status).toBe(403)
    expect((await commenter.api.get(path)).body.labelIds).toEqual([bug])
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.put(`${path}/labels/${bug}`)).status).toBe(404)
  })

  it('shows labelIds on every task of every page of the task list', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const a = (await ws.api.post(`${base}/labels`, { name: 'A' })).body.id
    const b = (await ws.api.post(`${base}/labels`, { name: 'B' })).body.id
    const expected = new Map<string, string[]>()
    for (let i = 0; i < 5; i++) {
      const t = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: `T${i}` })).body
      const ids = i % 3 === 0 ? [] : i % 3 === 1 ? [a] : [b, a]
      for (const labelId of ids) await ws.api.put(`${base}/tasks/${t.id}/labels/${labelId}`)
      expected.set(t.id, ids)
    }
    const seen = new Map<string, string[]>()
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${base}/tasks?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      for (const t of page.body.data) seen.set(t.id, t.labelIds)
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(expected)
  })

  it("drops the old team's labels when the task moves to another team, keeping org labels", async () => {
    const ws = await newWorkspace(server)
    const { base, label, task, path } = await setup(ws)
    const design = await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })
    const org = await label({ name: 'Customer' })
    const team = await label({ name: 'Backend', teamId: ws.teamId })
    await ws.api.put(`${path}/labels/${team}`)
    await ws.api.put(`${path}/labels/${org}`)
    const moved = await ws.api.patch(path, { teamId: design.body.id })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ teamId: design.body.id, labelIds: [org] })
    const history = await ws.api.get(`${path}/history?limit=200`)
    expect(history.body.data.filter((h: any) => h.field === 'labelIds')[0]).toMatchObject({
      before: [team, org],
      after: [org],
    })
    expect(task.id).toBe(moved.body.id)
  })

  describe('labelIds on tasks.create and tasks.update', () => {
    const labelEvents = async (orgId: string, taskId: string) =>
      (await server.storage.read((s) => s.events.list(orgId as never, 0, 100_000))).filter(
        (e) => e.resourceId === taskId,
      )

    it('creates a task with labels and records them', async () => {
      const ws = await newWorkspace(server)
      const { base, label } = await setup(ws)
      const bug = await label({ name: 'Bug' })
      const ui = await label({ name: 'UI', teamId: ws.teamId })
      // Labels added by one change share a timestamp and follow in id order.
      const both = [ui, bug].sort()
      const res = await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'T', labelIds: [ui, bug] })
      expect(res).toMatchObject({ status: 201, body: { labelIds: both } })
      expect((await ws.api.get(`${base}/tasks/${res.body.id}`)).body.labelIds).toEqual(both)
      const events = await labelEvents(ws.orgId, res.body.id)
      expect(events.map((e) => [e.kind, (e.data as any).task.labelIds])).toEqual([['task.created', both]])
      const history = (await ws.api.get(`${base}/tasks/${res.body.id}/history`)).body.data
      expect(history.find((h: any) => h.field === 'labelIds')).toMatchObject({ before: [], after: both })
    })

    it('replaces the whole set on update, with one history entry and one event', async () => {
      const ws = await newWorkspace(server)
      const { label, task, path } = await setup(ws)
      const [a, b, c] = [await label({ name: 'A' }), await label({ name: 'B' }), await label({ name: 'C' })]
      await ws.api.put(`${path}/labels/${a}`)
      await ws.api.put(`${path}/labels/${b}`)
      const res = await ws.api.patch(path, { labelIds: [c, b], priority: 'high' })
      expect(res).toMatchObject({ status: 200, body: { labelIds: [b, c], priority: 'high' } })
      const updates = (await labelEvents(ws.orgId, task.id)).filter((e) => e.kind === 'task.updated')
      expect((updates.at(-1)!.data as any).changes).toEqual({
        priority: { before: 'none', after: 'high' },
        labelIds: { before: [a, b], after: [b, c] },
      })
      const history = (await ws.api.get(`${path}/history`)).body.data
      expect(history.filter((h: any) => h.field === 'labelIds')[0]).toMatchObject({
        before: [a, b],
        after: [b, c],
      })
      // The same set in another order changes nothing; an empty list takes every label off.
      const count = (await labelEvents(ws.orgId, task.id)).length
      expect((await ws.api.patch(path, { labelIds: [c, b] })).body.labelIds).toEqual([b, c])
      expect((await labelEvents(ws.orgId, task.id)).length).toBe(count)
      expect((await ws.api.patch(path, { labelIds: [] })).body.labelIds).toEqual([])
      const dup = await ws.api.patch(path, { labelIds: [a, a] })
      expect(dup.status).toBe(400)
    })

    it('refuses two labels of one group in one list, changing nothing', async () => {
      const ws = await newWorkspace(server)
      const { base, label, task, path } = await setup(ws)
      const size = await label({ name: 'Size', isGroup: true })
      const small = await label({ name: 'Small', parentId: size })
      const large = await label({ name: 'Large', parentId: size })
      const bug = await label({ name: 'Bug' })
      await ws.api.put(`${path}/labels/${bug}`)
      const count = (await labelEvents(ws.orgId, task.id)).length
      const update = await ws.api.patch(path, { title: 'Renamed', labelIds: [small, bug, large] })
      expect(update).toMatchObject({
        status: 409,
        body: { code: 'label_group_conflict', errors: [{ pointer: '/body/labelIds/2' }] },
      })
      expect((await ws.api.get(path)).body).toMatchObject({ title: 'Labelled', labelIds: [bug] })
      expect((await labelEvents(ws.orgId, task.id)).length).toBe(count)
      const create = await ws.api.post(`${base}/tasks`, {
        teamId: ws.teamId,
        title: 'X',
        labelIds: [large, small],
      })
      expect(create).toMatchObject({ status: 409, body: { errors: [{ pointer: '/body/labelIds/1' }] } })
      const list = await ws.api.get(`${base}/tasks?limit=100`)
      expect(list.body.data.map((t: any) => t.title)).toEqual(['Labelled'])
      // A group itself is refused as in a single add.
      expect((await ws.api.patch(path, { labelIds: [size] })).status).toBe(422)
    })

    it("refuses another team's label, an archived one and another org's, at the list index", async () => {
      const ws = await newWorkspace(server)
      const other = await newWorkspace(server)
      const { base, label, task, path } = await setup(ws)
      const design = await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })
      const theirs = await label({ name: 'Design only', teamId: design.body.id })
      const old = await label({ name: 'Old' })
      await ws.api.post(`${base}/labels/${old}/archive`)
      const foreign = (await other.api.post(`/v1/orgs/${other.orgId}/labels`, { name: 'Foreign' })).body.id
      const ok = await label({ name: 'Fine' })
      for (const bad of [theirs, old, foreign]) {
        const res = await ws.api.patch(path, { labelIds: [ok, bad] })
        expect(res.status, bad).toBe(422)
        expect(res.body).toMatchObject({
          code: 'reference_not_found',
          errors: [{ pointer: '/body/labelIds/1' }],
        })
        const created = await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'X', labelIds: [bad] })
        expect(created.body).toMatchObject({ errors: [{ pointer: '/body/labelIds/0' }] })
      }
      expect((await ws.api.get(path)).body.labelIds).toEqual(task.labelIds)
      // A label archived while on the task may stay in the list.
      await ws.api.put(`${path}/labels/${ok}`)
      await ws.api.post(`${base}/labels/${ok}/archive`)
      const fresh = await label({ name: 'Fresh' })
      expect((await ws.api.patch(path, { labelIds: [ok, fresh] })).body.labelIds).toEqual([ok, fresh])
      // Moving to another team checks the list against the new team.
      const mine = await label({ name: 'Mine', teamId: ws.teamId })
      const move = await ws.api.patch(path, { teamId: design.body.id, labelIds: [mine] })
      expect(move.status).toBe(422)
      const moved = await ws.api.patch(path, { teamId: design.body.id, labelIds: [theirs, fresh] })
      expect(moved.body).toMatchObject({ teamId: design.body.id, labelIds: [fresh, theirs] })
    })

    it('needs contribute: a guest with only comment cannot set labels (403)', async () => {
      const ws = await newWorkspace(server)
      const { label, path } = await setup(ws)
      const bug = await label({ name: 'Bug' })
      const commenter = await ws.addMember('guest')
      await grant(ws, commenter.memberId, 'comment')
      const denied = await commenter.api.patch(path, { labelIds: [bug] })
      expect(denied).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'contribute' },
      })
      expect((await ws.api.get(path)).body.labelIds).toEqual([])
    })
  })
})
