import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('pollable streams', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it("replays a workspace's log from the start, then continues from nextCursor with only what is new", async () => {
    const ws = await newWorkspace(server)
    const stream = `/v1/orgs/${ws.orgId}/stream`
    const first = await ws.api.get(stream)
    expect(first.status).toBe(200)
    const kinds = first.body.data.map((e: any) => e.kind)
    expect(kinds.slice(0, 3)).toEqual(['org.created', 'member.created', 'team.created'])
    expect(first.body.data.map((e: any) => e.seq)).toEqual(first.body.data.map((_: any, i: number) => i + 1))

    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'New' })
    await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}`, { title: 'Renamed' })
    const next = await ws.api.get(`${stream}?cursor=${encodeURIComponent(first.body.nextCursor)}`)
    expect(next.body.data.map((e: any) => e.kind)).toEqual(['task.created', 'task.updated'])
    const [created, updated] = next.body.data
    expect(created).toMatchObject({ resourceType: 'task', resourceId: task.body.id, teamId: ws.teamId })
    expect(created.data.task.title).toBe('New')
    expect(updated.data.changes.title).toEqual({ before: 'New', after: 'Renamed' })
    expect(updated.actorId).toBe(created.actorId)

    const idle = await ws.api.get(`${stream}?cursor=${encodeURIComponent(next.body.nextCursor)}`)
    expect(idle.body.data).toEqual([])
  })

  it('pages with limit, filters by kinds and starts at the head with from=now', async () => {
    const ws = await newWorkspace(server)
    const stream = `/v1/orgs/${ws.orgId}/stream`
    const now = await ws.api.get(`${stream}?from=now`)
    expect(now.body.data).toEqual([])
    for (const title of ['a', 'b', 'c'])
      await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title })
    const seen: string[] = []
    let cursor = now.body.nextCursor
    for (let i = 0; i < 3; i++) {
      const page = await ws.api.get(
        `${stream}?limit=1&kinds=task.created&cursor=${encodeURIComponent(cursor)}`,
      )
      seen.push(...page.body.data.map((e: any) => e.data.task.title))
      cursor = page.body.nextCursor
    }
    expect(seen).toEqual(['a', 'b', 'c'])
  })

  it('merges every membership on the hub stream, each workspace in log order, with one cursor', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const both = await a.addMember('member')
    await server.storage.transaction((s) =>
      s.members.insert({
        id: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE' as never,
        orgId: b.orgId,
        userId: both.user.id,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      }),
    )
    const first = await both.api.get('/v1/hub/stream?limit=500')
    const orgsSeen = new Set(first.body.data.map((e: any) => e.orgId))
    expect(orgsSeen).toEqual(new Set([a.orgId, b.orgId]))
    for (const orgId of [a.orgId, b.orgId]) {
      const seqs = first.body.data.filter((e: any) => e.orgId === orgId).map((e: any) => e.seq)
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y))
    }
    await a.api.post(`/v1/orgs/${a.orgId}/tasks`, { teamId: a.teamId, title: 'in a' })
    await b.api.post(`/v1/orgs/${b.orgId}/tasks`, { teamId: b.teamId, title: 'in b' })
    const next = await both.api.get(`/v1/hub/stream?cursor=${encodeURIComponent(first.body.nextCursor)}`)
    expect(next.body.data.map((e: any) => [e.orgId, e.data.task.title])).toEqual([
      [a.orgId, 'in a'],
      [b.orgId, 'in b'],
    ])
  })

  it('holds a long-poll until an event arrives', async () => {
    const ws = await newWorkspace(server)
    const stream = `/v1/orgs/${ws.orgId}/stream`
    const head = await ws.api.get(`${stream}?from=now`)
    const waiting = ws.api.get(`${stream}?wait=20&cursor=${encodeURIComponent(head.body.nextCursor)}`)
    await new Promise((r) => setTimeout(r, 200))
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'wake up' })
    const answer = await waiting
    expect(answer.body.data.map((e: any) => e.kind)).toEqual(['task.created'])
  })

  it('refuses altered cursors and cursors older than retention', async () => {
    const ws = await newWorkspace(server)
    const stream = `/v1/orgs/${ws.orgId}/stream`
    const page = await ws.api.get(stream)
    const [body, mac] = page.body.nextCursor.split('.')
    const forged = Buffer.from(JSON.stringify({ s: 'stream', v: { [ws.orgId]: 0 } })).toString('base64url')
    expect((await ws.api.get(`${stream}?cursor=${forged}.${mac}`)).body.code).toBe('invalid_cursor')
    expect((await ws.api.get(`${stream}?cursor=${body}.x${mac}`)).status).toBe(400)

    const start = await ws.api.get(`${stream}?limit=1`)
    // Everything so far is older than the retention window once the log is pruned at a later time.
    await server.storage.transaction((s) => s.events.prune(new Date(Date.now() + 60_000).toISOString()))
    const expired = await ws.api.get(`${stream}?cursor=${encodeURIComponent(start.body.nextCursor)}`)
    expect(expired.status).toBe(410)
    expect(expired.body.code).toBe('cursor_expired')
    // The latest cursor stays valid: nothing after it was pruned.
    const latest = await ws.api.get(`${stream}?cursor=${encodeURIComponent(page.body.nextCursor)}`)
    expect(latest.status).toBe(200)
    // Starting over works, from what is retained.
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'after pruning' })
    const over = await ws.api.get(stream)
    expect(over.body.data.map((e: any) => e.kind)).toEqual(['task.created'])
  })
})
