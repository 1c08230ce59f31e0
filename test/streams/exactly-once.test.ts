import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { openSse } from '../support/sse.ts'
import { newWorkspace } from '../support/workspace.ts'

const WRITERS = 8
const WRITES_EACH = 15

describeEachDatabase('every event exactly once, in order, under concurrent writers', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it(`${WRITERS} writers; a polling and an SSE reader each see every event once; any cursor resumes exactly`, async () => {
    const a = await newWorkspace(server)
    const bOrg = (await a.api.post('/v1/orgs', { name: 'Second' })).body.id
    const bTeam = (await a.api.post(`/v1/orgs/${bOrg}/teams`, { name: 'B', key: 'BBB' })).body.id
    const targets = [
      [a.orgId, a.teamId],
      [bOrg, bTeam],
    ] as const

    const live = await openSse(`${server.url}/v1/stream/sse`, { token: a.owner.token })
    let writing = true
    const polled: any[] = []
    const pollCursors: string[] = []
    const poller = (async () => {
      let cursor: string | undefined
      for (;;) {
        const done = !writing
        const page = await a.api.get(
          `/v1/hub/stream?limit=37${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
        expect(page.status).toBe(200)
        polled.push(...page.body.data)
        cursor = page.body.nextCursor
        pollCursors.push(cursor!)
        if (done && page.body.data.length === 0) return
      }
    })()

    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < WRITES_EACH; i++) {
          const [orgId, teamId] = targets[(w + i) % 2]!
          const res = await a.api.post(`/v1/orgs/${orgId}/tasks`, { teamId, title: `w${w}-${i}` })
          expect(res.status).toBe(201)
        }
      }),
    )
    writing = false
    await poller

    const log = (
      await Promise.all(
        targets.map(([orgId]) => server.storage.read((s) => s.events.list(orgId, 0, 100_000))),
      )
    ).flat()
    const total = log.length
    await live.until(() => live.events().length >= total)
    live.close()

    const check = (events: any[]) => {
      expect(events.map((e) => e.id).sort()).toEqual(log.map((e) => e.id).sort())
      for (const [orgId] of targets) {
        const seqs = events.filter((e) => e.orgId === orgId).map((e) => e.seq)
        expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1))
      }
    }
    check(polled)
    check(live.events())

    const sseIds = live.frames.filter((f) => f.event === 'stream-event').map((f) => f.id!)
    const resumeFrom = async (cursor: string) => {
      const out: any[] = []
      for (;;) {
        const page = await a.api.get(`/v1/hub/stream?limit=200&cursor=${encodeURIComponent(cursor)}`)
        if (page.body.data.length === 0) return out
        out.push(...page.body.data)
        cursor = page.body.nextCursor
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...sseIds, ...pollCursors), async (cursor) => {
        const rest = await resumeFrom(cursor)
        // The cursor is opaque to clients; the test reads its positions to know what must follow.
        const body = JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString()).v
        const expected = log.filter((e) => e.seq > (body[e.orgId] ?? 0))
        expect(rest.map((e) => e.id).sort()).toEqual(expected.map((e) => e.id).sort())
        expect(new Set(rest.map((e) => e.id)).size).toBe(rest.length)
      }),
      { numRuns: 15 },
    )
  })
})
