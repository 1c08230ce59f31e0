/**
 * Crash test: eight HTTP writers create and update tasks, comment and create labels against a
 * real server process, which is killed with SIGKILL at a random moment and restarted on the same
 * database. After every restart: each acknowledged write is there, an unacknowledged one is
 * either wholly applied (record and event) or absent, and the workspace's log is gap-free with
 * exactly one event per change. CRASH_KILLS sets the kills per database (2 in the suite; `pnpm test:crash`
 * runs 10).
 */
import type { ChildProcess } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshCode, redeem } from '../oauth/support.ts'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { followMailFile } from '../support/outbox.ts'
import { freePort, startCrashServer } from '../support/processes.ts'
import { sized } from '../support/tier.ts'

const KILLS = sized('CRASH_KILLS', { test: 2, deep: 10 })
const WRITERS = 8

type Kind = 'task' | 'title' | 'comment' | 'label'
interface Attempt {
  kind: Kind
  /** Unique per attempt: the new task's title, the new title, the comment body, the label name. */
  value: string
  taskId?: string
  acked: boolean
  id?: string
}

describeEachDatabase('a server killed mid-write', (db: TestDatabase) => {
  let fresh: DatabaseTarget
  let env: Record<string, string>
  let base: string
  let child: ChildProcess | undefined
  let token: string
  let orgId: string
  let teamId: string
  const attempts: Attempt[] = []
  const unexpected: string[] = []
  let verifiedSeq = 0

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) }
  }

  beforeAll(async () => {
    fresh = await db.fresh()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    env = {
      DATABASE_URL: fresh.url,
      ...(fresh.directUrl ? { DATABASE_DIRECT_URL: fresh.directUrl } : {}),
      PORT: String(port),
      // Always set: the test runner's own environment carries a BASE_URL (Vite's, `/`).
      BASE_URL: base,
      ...(fresh.schema ? { DATABASE_SCHEMA: fresh.schema } : {}),
      // Signing the test's person up takes the link the server mails.
      MAIL_LOG: join(tmpdir(), `workgraph-crash-mail-${port}.jsonl`),
    }
    followMailFile(env.MAIL_LOG!)
    child = await startCrashServer(env)
    token = (await redeem(base, await freshCode(base))).body.access_token
    orgId = (await call('POST', '/v1/orgs', { name: 'Crash' })).body.id
    teamId = (await call('POST', `/v1/orgs/${orgId}/teams`, { name: 'Core', key: 'CORE' })).body.id
    // The set-up's own events (workspace, team, states) are not the writers'.
    verifiedSeq = (await eventsAfter(0)).at(-1).seq
  }, 120_000)
  afterAll(async () => {
    child?.kill('SIGKILL')
    await fresh.drop()
  })

  /** One writer: random writes in a loop until the server is gone; every answer recorded. */
  async function writer(round: number, w: number): Promise<void> {
    const mine: string[] = []
    for (let n = 0; ; n++) {
      const value = `r${round}w${w}n${n}`
      const roll = Math.random()
      const taskId = mine[Math.floor(Math.random() * mine.length)]
      const kind: Kind =
        !taskId || roll < 0.3 ? 'task' : roll < 0.7 ? 'title' : roll < 0.9 ? 'comment' : 'label'
      const attempt: Attempt = { kind, value, acked: false, ...(kind !== 'task' && taskId ? { taskId } : {}) }
      attempts.push(attempt)
      let res: Awaited<ReturnType<typeof call>>
      try {
        res =
          kind === 'task'
            ? await call('POST', `/v1/orgs/${orgId}/tasks`, { teamId, title: value })
            : kind === 'title'
              ? await call('PATCH', `/v1/orgs/${orgId}/tasks/${taskId}`, { title: value })
              : kind === 'comment'
                ? await call('POST', `/v1/orgs/${orgId}/tasks/${taskId}/comments`, { body: value })
                : await call('POST', `/v1/orgs/${orgId}/labels`, { name: value })
      } catch {
        return // the connection died with the server: this attempt stays unacknowledged
      }
      if (res.status >= 300) {
        unexpected.push(`${kind} ${value}: ${res.status} ${JSON.stringify(res.body)}`)
        continue
      }
      attempt.acked = true
      attempt.id = res.body.id
      if (kind === 'task') mine.push(res.body.id)
    }
  }

  async function eventsAfter(seq: number): Promise<any[]> {
    const all: any[] = []
    let cursor: string | undefined
    for (;;) {
      const q = new URLSearchParams({ limit: '500', ...(cursor ? { cursor } : {}) })
      const page = await call('GET', `/v1/orgs/${orgId}/stream?${q}`)
      expect(page.status).toBe(200)
      all.push(...page.body.data)
      if (page.body.data.length === 0) break
      cursor = page.body.nextCursor
    }
    // The whole log, every time: positions 1..n with no gap and no repeat.
    for (const [i, e] of all.entries()) expect(e.seq, 'the log has a gap').toBe(i + 1)
    return all.filter((e) => e.seq > seq)
  }

  /** Checks this round's writes against this round's events, and that every record the log names exists. */
  async function verify(round: number): Promise<{ acked: number; inFlight: number; applied: number }> {
    const events = await eventsAfter(verifiedSeq)
    const ofRound = attempts.filter((a) => a.value.startsWith(`r${round}w`))
    const traceOf = (e: any): [Kind, string] | null =>
      e.kind === 'task.created'
        ? ['task', e.data.task.title]
        : e.kind === 'task.updated' && e.data.changes?.title
          ? ['title', e.data.changes.title.after]
          : e.kind === 'comment.created'
            ? ['comment', e.data.comment.body]
            : e.kind === 'label.created'
              ? ['label', e.data.label.name]
              : null
    const seen = new Map<string, any[]>()
    for (const e of events) {
      const kv = traceOf(e)
      expect(kv, `an event no writer caused: ${e.kind}`).not.toBeNull()
      const key = kv!.join(':')
      seen.set(key, [...(seen.get(key) ?? []), e])
    }
    let applied = 0
    for (const a of ofRound) {
      const found = seen.get(`${a.kind}:${a.value}`) ?? []
      seen.delete(`${a.kind}:${a.value}`)
      if (a.acked) expect(found, `acknowledged ${a.kind} ${a.value}`).toHaveLength(1)
      else expect(found.length, `unacknowledged ${a.kind} ${a.value} applied twice`).toBeLessThanOrEqual(1)
      if (!a.acked && found.length === 1) applied++
      const event = found[0]
      if (!event) continue
      if (a.acked && a.id && a.kind !== 'title') expect(event.resourceId).toBe(a.id)
      // The record behind every event is there, whole.
      const path =
        a.kind === 'comment'
          ? `/v1/orgs/${orgId}/comments/${event.resourceId}`
          : a.kind === 'label'
            ? `/v1/orgs/${orgId}/labels/${event.resourceId}`
            : `/v1/orgs/${orgId}/tasks/${event.resourceId}`
      const record = await call('GET', path)
      expect(record.status, `${a.kind} ${a.value} has an event but no record`).toBe(200)
      if (a.kind === 'comment') expect(record.body.body).toBe(a.value)
      if (a.kind === 'label') expect(record.body.name).toBe(a.value)
    }
    expect([...seen.keys()], 'events for writes nobody attempted').toEqual([])
    // A task's title is the one its last title event set (or its first title): nothing half-applied.
    const lastTitle = new Map<string, string>()
    for (const e of events) {
      const kv = traceOf(e)
      if (kv && (kv[0] === 'task' || kv[0] === 'title')) lastTitle.set(e.resourceId, kv[1])
    }
    for (const [taskId, title] of lastTitle)
      expect((await call('GET', `/v1/orgs/${orgId}/tasks/${taskId}`)).body.title).toBe(title)
    // A record with no event would be a write the log lost: count every task against its events.
    verifiedSeq = events.at(-1)?.seq ?? verifiedSeq
    return {
      acked: ofRound.filter((a) => a.acked).length,
      inFlight: ofRound.filter((a) => !a.acked).length,
      applied,
    }
  }

  it(`keeps every acknowledged write and a gap-free log across ${KILLS} kills`, async () => {
    const totals = { acked: 0, inFlight: 0, applied: 0 }
    for (let round = 1; round <= KILLS; round++) {
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(round, w))
      // Kill once the writers are well under way (at least 20 answers), at a random moment after.
      while (attempts.filter((a) => a.acked && a.value.startsWith(`r${round}w`)).length < 20)
        await new Promise((r) => setTimeout(r, 20))
      await new Promise((r) => setTimeout(r, Math.random() * 1500))
      child!.kill('SIGKILL')
      await Promise.all(writers)
      child = await startCrashServer(env)
      const r = await verify(round)
      totals.acked += r.acked
      totals.inFlight += r.inFlight
      totals.applied += r.applied
    }
    expect(unexpected).toEqual([])
    // Every task in the workspace was created by exactly one logged event.
    const created = (await eventsAfter(0)).filter((e) => e.kind === 'task.created')
    let listed = 0
    let cursor: string | undefined
    do {
      const q = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) })
      const page = await call('GET', `/v1/orgs/${orgId}/tasks?${q}`)
      listed += page.body.data.length
      cursor = page.body.nextCursor ?? undefined
    } while (cursor)
    expect(listed).toBe(created.length)
    expect(totals.acked).toBeGreaterThanOrEqual(KILLS * 20)
    console.log(
      `[${db.name}] ${KILLS} kills: ${totals.acked} acknowledged writes all present; ` +
        `${totals.inFlight} in flight at a kill, ${totals.applied} of them applied whole, none half; log gap-free`,
    )
  }, 600_000)
})
