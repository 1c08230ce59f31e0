import { EventSource } from 'eventsource'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { openSse } from '../support/sse.ts'
import { newWorkspace } from '../support/workspace.ts'

const sse = '/v1/stream/sse'
const MINUTE = 60_000

describeEachDatabase('how live streams end', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let offset = 0
  beforeAll(async () => {
    server = await startTestServer(db, {
      clock: () => new Date(Date.now() + offset),
      config: {
        rateLimit: { limit: 1_000_000, windowSeconds: 60 },
        streams: { pingSeconds: 0.2, maxBufferedBytes: 64 * 1024 },
      },
    })
  })
  afterAll(() => server.drop())

  const ownerApi = async (userId: string) =>
    server.as(
      await server.engine.tokens.issueAccessToken({
        userId: userId as never,
        scopes: ['work:read', 'work:write'],
      }),
    )

  it('ends the stream with token_expired once the token expires, and the eventsource client resumes with a new token and loses nothing', async () => {
    const ws = await newWorkspace(server)
    let token = ws.owner.token
    const source = new EventSource(`${server.url}${sse}?from=now`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
    })
    const titles: string[] = []
    const ends: string[] = []
    source.addEventListener('stream-event', (e) => {
      const event = JSON.parse(e.data)
      if (event.kind === 'task.created') titles.push(event.data.task.title)
    })
    source.addEventListener('stream-end', (e) => ends.push(JSON.parse(e.data).reason))
    await new Promise<void>((resolve, reject) => {
      source.onopen = () => resolve()
      source.onerror = (e) => reject(e)
    })
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((r) => setTimeout(r, 20))
    }
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'before' })
    await until(() => titles.length === 1)

    offset += 16 * MINUTE
    await until(() => ends.length === 1)
    expect(ends).toEqual(['token_expired'])
    // While the client is away, work goes on; the client comes back with a fresh token.
    const api = await ownerApi(ws.owner.user.id)
    await api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'while away' })
    token = await server.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: ['work:read'] })
    await until(() => titles.length === 2)
    await api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'after' })
    await until(() => titles.length === 3)
    source.close()
    expect(titles).toEqual(['before', 'while away', 'after'])
  })

  it('ends a reader that leaves too much unread with slow_reader instead of buffering without bound', async () => {
    const ws = await newWorkspace(server)
    const api = await ownerApi(ws.owner.user.id)
    const task = await api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'big' })
    const client = await openSse(`${server.url}${sse}?from=now`, {
      token: await server.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: ['work:read'] }),
    })
    client.pause()
    // Each update carries the old and new 90 kB description: far more than socket buffers and the bound.
    for (let i = 0; i < 120; i++) {
      await api.patch(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}`, {
        description: `${i}`.padEnd(90_000, String.fromCharCode(97 + (i % 26))),
      })
      if (server.engine.streams.size === 0) break
    }
    expect(server.engine.streams.size).toBe(0)
    client.resume()
    await client.ended
    const last = client.frames.at(-1)!
    expect(last.event).toBe('stream-end')
    expect(JSON.parse(last.data).reason).toBe('slow_reader')
    // What came before the end is still in order and whole: the client can resume from its last id.
    const seqs = client.events().map((e) => e.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
  })

  it('ends an org stream with membership_ended when the member is removed, and a stale cursor gets 410', async () => {
    const ws = await newWorkspace(server)
    const api = await ownerApi(ws.owner.user.id)
    const member = await ws.addMember('member')
    const client = await openSse(`${server.url}${sse}?orgId=${ws.orgId}`, {
      token: await server.engine.tokens.issueAccessToken({ userId: member.user.id, scopes: ['work:read'] }),
    })
    await client.until((f) => f.some((x) => x.event === 'stream-event'))
    const firstId = client.frames.find((f) => f.event === 'stream-event')!.id!
    const removed = await api.delete(`/v1/orgs/${ws.orgId}/members/${member.memberId}`)
    expect(removed.status).toBeLessThan(300)
    await client.ended
    expect(JSON.parse(client.frames.at(-1)!.data).reason).toBe('membership_ended')

    await server.storage.transaction((s) =>
      s.events.prune(new Date(Date.now() + offset + MINUTE).toISOString()),
    )
    const stale = await fetch(`${server.url}${sse}`, {
      headers: {
        authorization: `Bearer ${await server.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: ['work:read'] })}`,
        'last-event-id': firstId,
      },
    })
    expect(stale.status).toBe(410)
    expect(((await stale.json()) as any).code).toBe('cursor_expired')
  })
})
