import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('document locks and comments', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('refuses edits while locked, for the locker too, until the locker or a manager unlocks', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const doc = (
      await ws.api.post(`${base}/documents`, {
        holderType: 'team',
        holderId: ws.teamId,
        title: 'D',
        content: 'a',
      })
    ).body
    expect(doc).toMatchObject({ lockedAt: null, lockedById: null })
    await ws.api.patch(`${base}/documents/${doc.id}`, { content: 'b' })
    const first = (await ws.api.get(`${base}/documents/${doc.id}/versions`)).body.data.at(-1)

    const member = await ws.addMember('member')
    const locked = await member.api.post(`${base}/documents/${doc.id}/lock`)
    expect(locked.status, JSON.stringify(locked.body)).toBe(200)
    expect(locked.body).toMatchObject({ lockedById: member.memberId, lockedAt: expect.any(String) })
    // Locking again keeps the first lock.
    const again = await ws.api.post(`${base}/documents/${doc.id}/lock`)
    expect(again.body.lockedById).toBe(member.memberId)

    for (const api of [member.api, ws.api]) {
      const edit = await api.patch(`${base}/documents/${doc.id}`, { title: 'X' })
      expect(edit.status).toBe(409)
      expect(edit.body).toMatchObject({ code: 'document_locked', lockedById: member.memberId })
      const restore = await api.post(`${base}/documents/${doc.id}/versions/${first.id}/restore`)
      expect(restore.body.code).toBe('document_locked')
    }
    expect((await ws.api.get(`${base}/documents/${doc.id}`)).body).toMatchObject({ title: 'D', content: 'b' })

    // Another contributor cannot unlock someone else's lock; a manager (the owner) can.
    const other = await ws.addMember('member')
    expect((await other.api.post(`${base}/documents/${doc.id}/unlock`)).status).toBe(403)
    const unlocked = await ws.api.post(`${base}/documents/${doc.id}/unlock`)
    expect(unlocked.status).toBe(200)
    expect(unlocked.body).toMatchObject({ lockedAt: null, lockedById: null })
    expect((await ws.api.patch(`${base}/documents/${doc.id}`, { title: 'X' })).status).toBe(200)

    // The locker unlocks their own lock.
    await member.api.post(`${base}/documents/${doc.id}/lock`)
    expect((await member.api.post(`${base}/documents/${doc.id}/unlock`)).body.lockedAt).toBeNull()
    // Unlocking an unlocked document changes nothing.
    expect((await other.api.post(`${base}/documents/${doc.id}/unlock`)).status).toBe(200)

    // A viewer may neither lock nor unlock.
    const viewer = await teamGuest(ws, 'view')
    expect((await viewer.api.post(`${base}/documents/${doc.id}/lock`)).status).toBe(403)

    const kinds = (await ws.api.get(`${base}/stream?limit=200`)).body.data
      .filter((e: any) => e.kind.startsWith('document.') && e.kind.endsWith('locked'))
      .map((e: any) => e.kind)
    expect(kinds).toEqual(['document.locked', 'document.unlocked', 'document.locked', 'document.unlocked'])
  })

  it('threads comments on a document; a reader without access gets 404; deleting the document drops them', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const hiddenTeam = (await ws.api.post(`${base}/teams`, { name: 'Hidden', key: 'HID' })).body
    const doc = (
      await ws.api.post(`${base}/documents`, { holderType: 'team', holderId: ws.teamId, title: 'D' })
    ).body
    const hidden = (
      await ws.api.post(`${base}/documents`, { holderType: 'team', holderId: hiddenTeam.id, title: 'H' })
    ).body

    const bodies: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await ws.api.post(`${base}/documents/${doc.id}/comments`, { body: `c${i}` })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body).toMatchObject({ subjectType: 'document', subjectId: doc.id, taskId: null })
      bodies.push(res.body.body)
    }
    const reply = await ws.api.post(`${base}/documents/${doc.id}/comments`, {
      body: 'reply',
      parentId: (await ws.api.get(`${base}/documents/${doc.id}/comments?limit=1`)).body.data[0].id,
    })
    expect(reply.status).toBe(201)

    // Keyset pages of two walk every comment once, each thread root followed by its replies.
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(
        `${base}/documents/${doc.id}/comments?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.status).toBe(200)
      seen.push(...page.body.data.map((c: any) => c.body))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(['c0', 'reply', 'c1', 'c2', 'c3', 'c4'])

    // A guest of the first team only: the hidden team's document and its thread are missing.
    const guest = await teamGuest(ws, 'comment')
    expect((await guest.api.post(`${base}/documents/${doc.id}/comments`, { body: 'ok' })).status).toBe(201)
    expect((await guest.api.get(`${base}/documents/${hidden.id}/comments`)).status).toBe(404)
    expect((await guest.api.post(`${base}/documents/${hidden.id}/comments`, { body: 'no' })).status).toBe(404)
    const viewer = await teamGuest(ws, 'view')
    expect((await viewer.api.post(`${base}/documents/${doc.id}/comments`, { body: 'no' })).status).toBe(403)

    // The item operations serve document comments as any other.
    const comment = (await ws.api.get(`${base}/documents/${doc.id}/comments?limit=1`)).body.data[0]
    expect((await ws.api.get(`${base}/comments/${comment.id}`)).status).toBe(200)
    expect((await ws.api.delete(`${base}/documents/${doc.id}`)).status).toBe(204)
    expect((await ws.api.get(`${base}/comments/${comment.id}`)).status).toBe(404)
    expect(
      (
        await server.storage.read((s) =>
          s.comments.list(
            ws.orgId as never,
            { subjectType: 'document', subjectId: doc.id },
            { sort: 'thread', direction: 'asc', after: null, limit: 10 },
          ),
        )
      ).length,
    ).toBe(0)
  })
})
