import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('comments', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  async function onTask(ws: TestWorkspace) {
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Discuss' })).body
    const comments = `${base}/tasks/${task.id}/comments`
    return { base, task, comments, item: (id: string) => `${base}/comments/${id}` }
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

  it('threads replies under their root, a reply to a reply included, and lists threads in order', async () => {
    const ws = await newWorkspace(server)
    const { comments, item } = await onTask(ws)
    const post = async (body: string, parentId?: string) =>
      (await ws.api.post(comments, { body, ...(parentId ? { parentId } : {}) })).body
    const root1 = await post('**First** thread')
    const root2 = await post('Second thread')
    const reply1 = await post('Reply to first', root1.id)
    const replyToReply = await post('Reply to the reply', reply1.id)
    const reply2 = await post('Reply to second', root2.id)
    expect(root1).toMatchObject({ parentId: null, body: '**First** thread', editedAt: null, deletedAt: null })
    expect(reply1.parentId).toBe(root1.id)
    expect(replyToReply.parentId).toBe(root1.id)
    const got = await ws.api.get(item(root1.id))
    expect(got.body).toEqual(root1)

    const listed = await readAll(ws.api, comments, 2)
    expect(listed.map((c) => c.body)).toEqual([
      '**First** thread',
      'Reply to first',
      'Reply to the reply',
      'Second thread',
      'Reply to second',
    ])
    const replies = await readAll(ws.api, `${item(root1.id)}/replies`, 1)
    expect(replies.map((c) => c.id)).toEqual([reply1.id, replyToReply.id])
    expect((await ws.api.get(`${item(root2.id)}/replies`)).body.data.map((c: any) => c.id)).toEqual([
      reply2.id,
    ])
    const ofReply = await ws.api.get(`${item(reply1.id)}/replies`)
    expect(ofReply).toMatchObject({ status: 422, body: { code: 'comment_not_root', rootId: root1.id } })

    const evts = await server.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))
    const created = evts.filter((e) => e.kind === 'comment.created')
    expect(created).toHaveLength(5)
    expect(created.every((e) => e.teamId === ws.teamId && e.resourceType === 'comment')).toBe(true)
  })

  it('refuses a parent on another task, and a missing task', async () => {
    const ws = await newWorkspace(server)
    const a = await onTask(ws)
    const b = await onTask(ws)
    const elsewhere = (await ws.api.post(b.comments, { body: 'On B' })).body
    const res = await ws.api.post(a.comments, { body: 'Reply', parentId: elsewhere.id })
    expect(res).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    expect((await ws.api.get(a.comments)).body.data).toEqual([])
    const gone = await ws.api.delete(`${a.base}/tasks/${a.task.id}`)
    expect(gone.status).toBe(204)
    expect((await ws.api.post(a.comments, { body: 'Late' })).status).toBe(404)
  })

  it('edits keep the previous bodies in the history; editing your own needs comment, others need manage', async () => {
    const ws = await newWorkspace(server)
    const { comments, item } = await onTask(ws)
    const member = await ws.addMember('member')
    const c = (await member.api.post(comments, { body: 'v1' })).body
    const v2 = await member.api.patch(item(c.id), { body: 'v2' })
    expect(v2.status).toBe(200)
    expect(v2.body).toMatchObject({ body: 'v2', editedAt: expect.any(String) })
    await member.api.patch(item(c.id), { body: 'v3' })
    const history = await readAll(ws.api, `${item(c.id)}/history`, 1)
    // Newest first: the body the last edit replaced leads.
    expect(history.map((h) => h.body)).toEqual(['v2', 'v1'])
    expect(history[1]).toMatchObject({ commentId: c.id, createdAt: c.createdAt, editorId: member.memberId })
    expect(history[0].createdAt).toBe(v2.body.editedAt)

    const ownersComment = (await ws.api.post(comments, { body: 'Owner says' })).body
    const denied = await member.api.patch(item(ownersComment.id), { body: 'Hijacked' })
    expect(denied).toMatchObject({ status: 403, body: { code: 'capability_required', capability: 'manage' } })
    expect((await member.api.delete(item(ownersComment.id))).status).toBe(403)
    expect((await ws.api.get(item(ownersComment.id))).body.body).toBe('Owner says')
    // The owner (manage) may edit someone else's comment.
    expect((await ws.api.patch(item(c.id), { body: 'Moderated' })).body.body).toBe('Moderated')
  })

  it('deletes softly: the body and its history go, the thread stays readable', async () => {
    const ws = await newWorkspace(server)
    const { comments, item } = await onTask(ws)
    const root = (await ws.api.post(comments, { body: 'Root' })).body
    const reply = (await ws.api.post(comments, { body: 'Reply', parentId: root.id })).body
    await ws.api.patch(item(root.id), { body: 'Root, edited' })
    expect((await ws.api.delete(item(root.id))).status).toBe(204)
    const gone = await ws.api.get(item(root.id))
    expect(gone.body).toMatchObject({ body: null, deletedAt: expect.any(String) })
    expect((await ws.api.get(`${item(root.id)}/history`)).body.data).toEqual([])
    expect((await ws.api.get(comments)).body.data.map((c: any) => c.id)).toEqual([root.id, reply.id])
    expect((await ws.api.post(comments, { body: 'Still', parentId: root.id })).status).toBe(201)
    const edit = await ws.api.patch(item(root.id), { body: 'Back' })
    expect(edit).toMatchObject({ status: 409, body: { code: 'comment_deleted' } })
    expect((await ws.api.delete(item(root.id))).status).toBe(204)
    const evts = await server.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))
    const deleted = evts.filter((e) => e.kind === 'comment.deleted')
    expect(deleted).toHaveLength(1)
    expect((deleted[0]!.data as any).comment.body).toBeNull()
  })

  it('resolves and reopens a thread at its root only', async () => {
    const ws = await newWorkspace(server)
    const { comments, item } = await onTask(ws)
    const member = await ws.addMember('member')
    const root = (await ws.api.post(comments, { body: 'Question?' })).body
    const reply = (await member.api.post(comments, { body: 'Answer.', parentId: root.id })).body
    const resolved = await member.api.post(`${item(root.id)}/resolve`)
    expect(resolved.body).toMatchObject({ resolvedAt: expect.any(String), resolvedById: member.memberId })
    expect((await member.api.post(`${item(root.id)}/resolve`)).body).toEqual(resolved.body)
    const onReply = await ws.api.post(`${item(reply.id)}/resolve`)
    expect(onReply).toMatchObject({ status: 422, body: { code: 'comment_not_root', rootId: root.id } })
    const reopened = await ws.api.post(`${item(root.id)}/unresolve`)
    expect(reopened.body).toMatchObject({ resolvedAt: null, resolvedById: null })
    const evts = await server.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))
    expect(evts.filter((e) => e.resourceType === 'comment').map((e) => e.kind)).toEqual([
      'comment.created',
      'comment.created',
      'comment.resolved',
      'comment.unresolved',
    ])
  })

  it('lets a guest with a comment grant comment but not label; a viewer cannot comment', async () => {
    const ws = await newWorkspace(server)
    const { base, task, comments, item } = await onTask(ws)
    const commenter = await ws.addMember('guest')
    await grant(ws, commenter.memberId, 'comment')
    const posted = await commenter.api.post(comments, { body: 'From a guest' })
    expect(posted.status).toBe(201)
    expect(posted.body.authorId).toBe(commenter.memberId)
    expect((await commenter.api.patch(item(posted.body.id), { body: 'Edited' })).status).toBe(200)
    const label = (await ws.api.post(`${base}/labels`, { name: 'Bug' })).body
    const labelling = await commenter.api.put(`${base}/tasks/${task.id}/labels/${label.id}`)
    expect(labelling).toMatchObject({ status: 403, body: { capability: 'contribute' } })

    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    expect((await viewer.api.get(comments)).body.data).toHaveLength(1)
    const refused = await viewer.api.post(comments, { body: 'Nope' })
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'comment' },
    })
    expect((await viewer.api.post(`${item(posted.body.id)}/resolve`)).status).toBe(403)

    const stranger = await ws.addMember('guest')
    expect((await stranger.api.get(comments)).status).toBe(404)
    expect((await stranger.api.get(item(posted.body.id))).status).toBe(404)
    expect((await stranger.api.post(comments, { body: 'Hi' })).status).toBe(404)
  })
})
