import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/** Threads and reactions on projects, milestones and status updates, through the shared item operations. */
describeEachDatabase('comments on projects, milestones and updates', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A project on a second team (so a guest of the first team cannot see it), a milestone and an update. */
  async function subjects(ws: TestWorkspace) {
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: 'Launch', teamIds: [ws.teamId] })).body
    const milestone = (await ws.api.post(`${base}/projects/${project.id}/milestones`, { name: 'Beta' })).body
    const update = (
      await ws.api.post(`${base}/projects/${project.id}/updates`, { body: 'Kickoff', health: 'onTrack' })
    ).body
    return {
      base,
      project,
      milestone,
      update,
      paths: {
        project: `${base}/projects/${project.id}`,
        milestone: `${base}/milestones/${milestone.id}`,
        update: `${base}/updates/${update.id}`,
      } as Record<'project' | 'milestone' | 'update', string>,
    }
  }

  async function readAll(api: TestWorkspace['api'], path: string, limit: number): Promise<any[]> {
    const all: any[] = []
    let cursor: string | null = null
    do {
      const page: any = await api.get(`${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(limit)
      all.push(...page.body.data)
      cursor = page.body.nextCursor
    } while (cursor)
    return all
  }

  it('threads on each subject page in thread order; the item operations work on them', async () => {
    const ws = await newWorkspace(server)
    const s = await subjects(ws)
    const ids = { project: s.project.id, milestone: s.milestone.id, update: s.update.id }
    for (const type of ['project', 'milestone', 'update'] as const) {
      const comments = `${s.paths[type]}/comments`
      const post = async (body: string, parentId?: string) => {
        const res = await ws.api.post(comments, { body, ...(parentId ? { parentId } : {}) })
        expect(res.status, type).toBe(201)
        expect(res.headers.get('location')).toBe(`${s.base}/comments/${res.body.id}`)
        return res.body
      }
      const root = await post(`On the ${type}`)
      expect(root).toMatchObject({ subjectType: type, subjectId: ids[type], taskId: null, parentId: null })
      const second = await post('Another thread')
      const reply = await post('A reply', root.id)
      await post('A reply to the reply', reply.id)
      const listed = await readAll(ws.api, comments, 1)
      expect(
        listed.map((c) => c.body),
        type,
      ).toEqual([`On the ${type}`, 'A reply', 'A reply to the reply', 'Another thread'])
      expect(listed.every((c) => c.subjectId === ids[type])).toBe(true)

      const item = `${s.base}/comments/${root.id}`
      expect((await ws.api.get(item)).body).toEqual(root)
      expect((await ws.api.patch(item, { body: 'Edited' })).body).toMatchObject({ body: 'Edited' })
      expect((await ws.api.get(`${item}/history`)).body.data.map((r: any) => r.body)).toEqual([
        `On the ${type}`,
      ])
      expect((await ws.api.get(`${item}/replies`)).body.data).toHaveLength(2)
      expect((await ws.api.post(`${item}/resolve`)).body.resolvedAt).not.toBeNull()
      expect((await ws.api.post(`${item}/reactions`, { emoji: '👍' })).status).toBe(201)
      expect((await ws.api.get(`${item}/reactions`)).body.data).toEqual([
        expect.objectContaining({ emoji: '👍', count: 1 }),
      ])
      expect((await ws.api.delete(`${s.base}/comments/${second.id}`)).status).toBe(204)
      expect((await ws.api.get(`${s.base}/comments/${second.id}`)).body).toMatchObject({ body: null })
    }
  })

  it('refuses a parent on another subject, and a missing subject', async () => {
    const ws = await newWorkspace(server)
    const s = await subjects(ws)
    const onProject = (await ws.api.post(`${s.paths.project}/comments`, { body: 'P' })).body
    const wrong = await ws.api.post(`${s.paths.milestone}/comments`, { body: 'M', parentId: onProject.id })
    expect(wrong).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    const task = (await ws.api.post(`${s.base}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const onTask = (await ws.api.post(`${s.base}/tasks/${task.id}/comments`, { body: 'T' })).body
    expect(onTask).toMatchObject({ subjectType: 'task', subjectId: task.id, taskId: task.id })
    const crossed = await ws.api.post(`${s.paths.project}/comments`, { body: 'x', parentId: onTask.id })
    expect(crossed.body.code).toBe('reference_not_found')
    const missing = `${s.base}/projects/proj_01JD3Q2R4S5T6V7W8X9YZABCDE/comments`
    expect((await ws.api.get(missing)).status).toBe(404)
    expect((await ws.api.post(missing, { body: 'x' })).status).toBe(404)
  })

  it('reading needs view on the subject, commenting needs comment; hidden subjects are 404', async () => {
    const ws = await newWorkspace(server)
    const s = await subjects(ws)
    const root = (await ws.api.post(`${s.paths.update}/comments`, { body: 'Why at risk?' })).body
    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    for (const type of ['project', 'milestone', 'update'] as const) {
      expect((await viewer.api.get(`${s.paths[type]}/comments`)).status, type).toBe(200)
      const refused = await viewer.api.post(`${s.paths[type]}/comments`, { body: 'x' })
      expect(refused, type).toMatchObject({ status: 403, body: { capability: 'comment' } })
    }
    const commenter = await ws.addMember('guest')
    await grant(ws, commenter.memberId, 'comment')
    const theirs = await commenter.api.post(`${s.paths.milestone}/comments`, { body: 'Mine' })
    expect(theirs.status).toBe(201)
    // Someone else's comment needs manage on the subject.
    const edit = await commenter.api.patch(`${s.base}/comments/${root.id}`, { body: 'x' })
    expect(edit).toMatchObject({ status: 403, body: { capability: 'manage' } })
    expect((await ws.api.patch(`${s.base}/comments/${theirs.body.id}`, { body: 'Owner edit' })).status).toBe(
      200,
    )

    const stranger = await ws.addMember('guest')
    for (const type of ['project', 'milestone', 'update'] as const) {
      expect((await stranger.api.get(`${s.paths[type]}/comments`)).status, type).toBe(404)
      expect((await stranger.api.post(`${s.paths[type]}/comments`, { body: 'x' })).status, type).toBe(404)
      expect((await stranger.api.get(`${s.paths[type]}/comments`)).status, type).toBe(404)
    }
    expect((await stranger.api.get(`${s.base}/comments/${root.id}`)).status).toBe(404)
    expect((await stranger.api.get(`${s.base}/comments/${root.id}/replies`)).status).toBe(404)
    expect((await stranger.api.post(`${s.base}/comments/${root.id}/reactions`, { emoji: '👍' })).status).toBe(
      404,
    )
  })

  it('emits comment events under the project’s first team, with the subject', async () => {
    const ws = await newWorkspace(server)
    const s = await subjects(ws)
    const before = (await server.storage.read((st) => st.events.list(ws.orgId, 0, 10_000))).length
    const root = (await ws.api.post(`${s.paths.update}/comments`, { body: 'Q' })).body
    await ws.api.patch(`${s.base}/comments/${root.id}`, { body: 'Q2' })
    await ws.api.post(`${s.base}/comments/${root.id}/resolve`)
    await ws.api.delete(`${s.base}/comments/${root.id}`)
    const events = (await server.storage.read((st) => st.events.list(ws.orgId, 0, 10_000))).slice(before)
    expect(events.map((e) => e.kind)).toEqual([
      'comment.created',
      'comment.updated',
      'comment.resolved',
      'comment.deleted',
    ])
    for (const e of events) {
      expect(e.teamId).toBe(ws.teamId)
      expect(e.data).toMatchObject({ subjectType: 'update', subjectId: s.update.id })
      expect(e.data).not.toHaveProperty('taskId')
    }
  })

  it('reacts to projects and status updates: list, add, delete, with pages and capabilities', async () => {
    const ws = await newWorkspace(server)
    const s = await subjects(ws)
    const member = await ws.addMember('member')
    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    const stranger = await ws.addMember('guest')
    for (const type of ['project', 'update'] as const) {
      const reactions = `${s.paths[type]}/reactions`
      const mine = await ws.api.post(reactions, { emoji: '🚀' })
      expect(mine.status, type).toBe(201)
      expect(mine.body).toMatchObject({ targetType: type, taskId: null, emoji: '🚀' })
      expect((await ws.api.post(reactions, { emoji: '🚀' })).body.code).toBe('already_exists')
      const theirs = (await member.api.post(reactions, { emoji: '🚀' })).body
      for (const e of ['🍎', '🍌', '🍒']) await ws.api.post(reactions, { emoji: e })
      const groups = await readAll(ws.api, reactions, 2)
      expect(groups.map((g) => [g.emoji, g.count])).toEqual([
        ['🚀', 2],
        ['🍎', 1],
        ['🍌', 1],
        ['🍒', 1],
      ])
      expect(groups[0].myReactionId).toBe(mine.body.id)
      expect((await viewer.api.get(reactions)).status).toBe(200)
      expect(await viewer.api.post(reactions, { emoji: '👀' })).toMatchObject({
        status: 403,
        body: { capability: 'comment' },
      })
      expect((await stranger.api.get(reactions)).status).toBe(404)
      // One `reactions.delete` for every target: your own needs comment, someone else's manage.
      const byId = (id: string) => `${s.base}/reactions/${id}`
      expect((await stranger.api.delete(byId(mine.body.id))).status).toBe(404)
      expect(await viewer.api.delete(byId(mine.body.id))).toMatchObject({
        status: 403,
        body: { capability: 'comment' },
      })
      const denied = await member.api.delete(byId(mine.body.id))
      expect(denied).toMatchObject({ status: 403, body: { capability: 'manage' } })
      expect((await member.api.delete(byId(theirs.id))).status).toBe(204)
      expect((await ws.api.delete(byId(mine.body.id))).status).toBe(204)
      expect((await ws.api.delete(byId(mine.body.id))).status).toBe(404)
    }
    const kinds = (await server.storage.read((st) => st.events.list(ws.orgId, 0, 10_000))).map((e) => e.kind)
    expect(kinds.filter((k) => k === 'reaction.deleted')).toHaveLength(4)
  })

  it('deleting a milestone, an update or a project takes their threads and reactions with it', async () => {
    const ws = await newWorkspace(server)
    const s = await subjects(ws)
    const onMilestone = (await ws.api.post(`${s.paths.milestone}/comments`, { body: 'M' })).body
    const onUpdate = (await ws.api.post(`${s.paths.update}/comments`, { body: 'U' })).body
    const onProject = (await ws.api.post(`${s.paths.project}/comments`, { body: 'P' })).body
    await ws.api.post(`${s.base}/comments/${onProject.id}/reactions`, { emoji: '👍' })
    await ws.api.post(`${s.paths.project}/reactions`, { emoji: '👍' })
    await ws.api.patch(`${s.base}/comments/${onProject.id}`, { body: 'P2' })
    expect((await ws.api.delete(s.paths.milestone)).status).toBe(204)
    expect((await ws.api.get(`${s.base}/comments/${onMilestone.id}`)).status).toBe(404)
    expect((await ws.api.delete(s.paths.update)).status).toBe(204)
    expect((await ws.api.get(`${s.base}/comments/${onUpdate.id}`)).status).toBe(404)
    expect((await ws.api.delete(s.paths.project)).status).toBe(204)
    expect((await ws.api.get(`${s.base}/comments/${onProject.id}`)).status).toBe(404)
    const left = await server.storage.read(async (st) => ({
      comments: await st.comments.get(ws.orgId as never, onProject.id),
      reactions: await st.reactions.listGroups(ws.orgId as never, { type: 'project', id: s.project.id }, {
        limit: 10,
      } as never),
    }))
    expect(left).toEqual({ comments: null, reactions: [] })
  })
})
