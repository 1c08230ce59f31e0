import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('reactions', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  async function targets(ws: TestWorkspace) {
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'React' })).body
    const comment = (await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: 'Nice' })).body
    return {
      base,
      byId: (reactionId: string) => `${base}/reactions/${reactionId}`,
      onTask: `${base}/tasks/${task.id}/reactions`,
      onComment: `${base}/comments/${comment.id}/reactions`,
      comment: `${base}/comments/${comment.id}`,
    }
  }

  it('groups reactions by emoji with counts, who, and your own reaction id', async () => {
    const ws = await newWorkspace(server)
    const { onTask, onComment } = await targets(ws)
    const member = await ws.addMember('member')
    const mine = await ws.api.post(onTask, { emoji: '👍' })
    expect(mine.status).toBe(201)
    expect(mine.body).toMatchObject({ targetType: 'task', emoji: '👍' })
    const theirs = await member.api.post(onTask, { emoji: '👍' })
    await member.api.post(onTask, { emoji: ':party_parrot:' })
    await member.api.post(onTask, { emoji: '👩‍💻' })
    const owner = (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data[0].id
    const listed = await ws.api.get(onTask)
    expect(listed.body).toEqual({
      data: [
        { emoji: '👍', count: 2, actorIds: [owner, member.memberId], myReactionId: mine.body.id },
        { emoji: ':party_parrot:', count: 1, actorIds: [member.memberId], myReactionId: null },
        { emoji: '👩‍💻', count: 1, actorIds: [member.memberId], myReactionId: null },
      ],
      nextCursor: null,
    })
    expect((await member.api.get(onTask)).body.data[0].myReactionId).toBe(theirs.body.id)
    // Reactions to the comment are their own list.
    await member.api.post(onComment, { emoji: '🎉' })
    expect((await ws.api.get(onComment)).body.data.map((g: any) => g.emoji)).toEqual(['🎉'])
    const evts = await server.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))
    const created = evts.filter((e) => e.kind === 'reaction.created')
    expect(created).toHaveLength(5)
    expect(created.every((e) => e.teamId === ws.teamId)).toBe(true)
  })

  it('allows one reaction per person per emoji per target, and validates the emoji', async () => {
    const ws = await newWorkspace(server)
    const { onTask, onComment } = await targets(ws)
    expect((await ws.api.post(onTask, { emoji: '👍🏽' })).status).toBe(201)
    const twice = await ws.api.post(onTask, { emoji: '👍🏽' })
    expect(twice).toMatchObject({ status: 409, body: { code: 'already_exists' } })
    expect((await ws.api.post(onComment, { emoji: '👍🏽' })).status).toBe(201)
    for (const emoji of ['thumbsup', '👍👍', 'a', ':Upper:', '::', '🇫🇷🇫']) {
      const bad = await ws.api.post(onTask, { emoji })
      expect(bad.status, emoji).toBe(422)
      expect(bad.body.errors, emoji).toEqual([expect.objectContaining({ pointer: '/body/emoji' })])
    }
    expect((await ws.api.post(onTask, { emoji: '🇫🇷' })).status).toBe(201)
    expect((await ws.api.get(onTask)).body.data.map((g: any) => g.count)).toEqual([1, 1])
  })

  it('deletes your own reaction by id; someone else’s needs manage; a stranger gets 404', async () => {
    const ws = await newWorkspace(server)
    const { onTask, onComment, byId } = await targets(ws)
    const member = await ws.addMember('member')
    const ownerReaction = (await ws.api.post(onTask, { emoji: '🚀' })).body
    const memberReaction = (await member.api.post(onTask, { emoji: '🚀' })).body
    const denied = await member.api.delete(byId(ownerReaction.id))
    expect(denied).toMatchObject({ status: 403, body: { capability: 'manage' } })
    expect((await member.api.delete(byId(memberReaction.id))).status).toBe(204)
    expect((await member.api.delete(byId(memberReaction.id))).status).toBe(404)
    expect((await ws.api.get(onTask)).body.data).toEqual([
      expect.objectContaining({ emoji: '🚀', count: 1, myReactionId: ownerReaction.id }),
    ])
    const other = (await member.api.post(onTask, { emoji: '👀' })).body
    expect((await ws.api.delete(byId(other.id))).status).toBe(204)
    // A comment's reaction, by the same operation; a viewer may not take it back, a stranger sees nothing.
    const onCommentReaction = (await member.api.post(onComment, { emoji: '🎉' })).body
    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    const viewerDenied = await viewer.api.delete(byId(onCommentReaction.id))
    expect(viewerDenied).toMatchObject({ status: 403, body: { capability: 'comment' } })
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.delete(byId(onCommentReaction.id))).status).toBe(404)
    expect((await member.api.delete(byId(onCommentReaction.id))).status).toBe(204)
    expect((await ws.api.get(onComment)).body.data).toEqual([])
    // Another workspace's reaction id is not found.
    const elsewhere = await newWorkspace(server)
    expect(
      (await elsewhere.api.delete(`/v1/orgs/${elsewhere.orgId}/reactions/${ownerReaction.id}`)).status,
    ).toBe(404)
    const kinds = (await server.storage.read((s) => s.events.list(ws.orgId, 0, 10_000))).map((e) => e.kind)
    expect(kinds.filter((k) => k === 'reaction.deleted')).toHaveLength(3)
  })

  it('pages through emoji groups in the order of their first reaction', async () => {
    const ws = await newWorkspace(server)
    const { onTask } = await targets(ws)
    const member = await ws.addMember('member')
    const emoji = ['🍎', '🍌', '🍒', '🍇', '🍉']
    for (const e of emoji) await ws.api.post(onTask, { emoji: e })
    await member.api.post(onTask, { emoji: '🍎' })
    const groups: any[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${onTask}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      groups.push(...page.body.data)
      cursor = page.body.nextCursor
    } while (cursor)
    expect(groups.map((g) => g.emoji)).toEqual(emoji)
    expect(groups[0].count).toBe(2)
  })

  it('needs comment: a commenting guest reacts, a viewer cannot; deleted comments take none', async () => {
    const ws = await newWorkspace(server)
    const { onTask, onComment, comment } = await targets(ws)
    const commenter = await ws.addMember('guest')
    await grant(ws, commenter.memberId, 'comment')
    expect((await commenter.api.post(onComment, { emoji: '❤️' })).status).toBe(201)
    const viewer = await ws.addMember('guest')
    await grant(ws, viewer.memberId, 'view')
    const refused = await viewer.api.post(onTask, { emoji: '❤️' })
    expect(refused).toMatchObject({ status: 403, body: { capability: 'comment' } })
    expect((await viewer.api.get(onComment)).body.data).toHaveLength(1)
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.get(onTask)).status).toBe(404)
    await ws.api.delete(comment)
    const late = await ws.api.post(onComment, { emoji: '👍' })
    expect(late).toMatchObject({ status: 409, body: { code: 'comment_deleted' } })
  })
})
