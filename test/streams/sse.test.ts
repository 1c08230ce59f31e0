import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { openSse, type SseClient } from '../support/sse.ts'
import { newWorkspace } from '../support/workspace.ts'

const sse = '/v1/stream/sse'
const titles = (c: SseClient) =>
  c
    .events()
    .filter((e) => e.kind === 'task.created')
    .map((e) => e.data.task.title)

describeEachDatabase('server-sent events', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, {
      config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 }, streams: { pingSeconds: 0.2 } },
    })
  })
  afterAll(() => server.drop())

  it('streams stream-event frames with resumable ids, and resumes from Last-Event-ID or cursor without loss or repeats', async () => {
    const ws = await newWorkspace(server)
    const client = await openSse(`${server.url}${sse}?from=now`, { token: ws.owner.token })
    expect(client.status).toBe(200)
    for (const title of ['one', 'two', 'three', 'four'])
      await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title })
    await client.until(() => titles(client).length === 4)
    client.close()
    const frames = client.frames.filter((f) => f.event === 'stream-event')
    expect(frames.every((f) => f.id)).toBe(true)
    const seqs = client.events().map((e) => e.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))

    const second = frames.find((f) => JSON.parse(f.data).data.task?.title === 'two')!
    const resumed = await openSse(`${server.url}${sse}`, {
      token: ws.owner.token,
      headers: { 'last-event-id': second.id! },
    })
    await resumed.until(() => titles(resumed).length === 2)
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'five' })
    await resumed.until(() => titles(resumed).length === 3)
    resumed.close()
    expect(titles(resumed)).toEqual(['three', 'four', 'five'])

    const byQuery = await openSse(
      `${server.url}${sse}?orgId=${ws.orgId}&cursor=${encodeURIComponent(second.id!)}`,
      {
        token: ws.owner.token,
      },
    )
    await byQuery.until(() => titles(byQuery).length === 3)
    byQuery.close()
    expect(titles(byQuery)).toEqual(['three', 'four', 'five'])
  })

  it('pings with the current cursor, narrows by kinds, and answers bad requests with problems', async () => {
    const ws = await newWorkspace(server)
    const client = await openSse(`${server.url}${sse}?from=now&kinds=task.updated`, { token: ws.owner.token })
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'x' })
    await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}`, { title: 'y' })
    await client.until((f) => f.some((x) => x.event === 'stream-event'))
    await client.until((f) => f.some((x) => x.event === 'ping'))
    client.close()
    expect(client.events().map((e) => e.kind)).toEqual(['task.updated'])
    expect(client.frames.find((f) => f.event === 'ping')!.id).toMatch(/\./)

    const noToken = await fetch(`${server.url}${sse}`)
    expect(noToken.status).toBe(401)
    expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer/)
    const stranger = await newWorkspace(server)
    const notMine = await fetch(`${server.url}${sse}?orgId=${stranger.orgId}`, {
      headers: { authorization: `Bearer ${ws.owner.token}` },
    })
    expect(notMine.status).toBe(404)
    const badKinds = await fetch(`${server.url}${sse}?kinds=Task`, {
      headers: { authorization: `Bearer ${ws.owner.token}` },
    })
    expect(((await badKinds.json()) as any).code).toBe('validation_failed')
  })
})
