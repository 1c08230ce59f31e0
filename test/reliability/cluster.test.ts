/**
 * The deployment of docs/scale-out.md on loopback, with the real components: three server instances
 * (the reference bin) behind HAProxy (round robin, readiness probe on /readyz), PgBouncer in
 * transaction mode in front of Postgres, Redis for the shared rate limits. Through the balancer,
 * four clients write while three SSE clients follow the workspace; one instance is killed with
 * SIGKILL mid-run and another drained with SIGTERM (its readiness probe takes it out). Afterwards:
 * every acknowledged write is in the database and was streamed, each SSE client resumed with
 * `Last-Event-ID` and saw every event once, rate limits held across the instances, and each
 * assignment notified its assignee exactly once though three notifiers ran.
 *
 * CLUSTER_WRITES sets the acknowledged writes (240 in `pnpm test`; `pnpm test:cluster` runs 2000).
 * Skipped only when WORKGRAPH_REQUIRE_CLUSTER is unset and haproxy or pgbouncer is not installed
 * (`.ci/run` installs them: apt-get install haproxy pgbouncer).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, type Engine, type MemberId, newId } from '@workgraph/core'
import { type KyselyStorage, openStorage } from '@workgraph/kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Balancer,
  type Component,
  missingClusterBinaries,
  startHaproxy,
  startPgBouncer,
  stopComponent,
} from '../support/cluster.ts'
import { DATABASES, POSTGRES_URL, postgresDatabaseUrl, skipReason } from '../support/databases.ts'
import { newPerson, type TestPerson } from '../support/fixtures.ts'
import { freePort, programArgs, startServerBin } from '../support/processes.ts'
import { openSse, type SseClient } from '../support/sse.ts'
import { sized } from '../support/tier.ts'

const WRITES = sized('CLUSTER_WRITES', { test: 240, deep: 2000 })
const WRITERS = 4
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const missing = missingClusterBinaries()
const required = Boolean(process.env.WORKGRAPH_REQUIRE_CLUSTER)
const reason =
  skipReason(DATABASES.find((d) => d.name === 'postgres')!) ||
  (missing.length > 0 && !required ? `${missing.join(' and ')} not installed` : false)

/** Runs one statement on the Postgres server's maintenance connection. */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** An SSE client that follows the stream through the balancer, resuming with Last-Event-ID whenever it is cut. */
function follow(url: string, token: string) {
  const seqs: number[] = []
  const events: any[] = []
  /** When each event arrived (ms since the epoch), by position in `events`. */
  const heardAt: number[] = []
  let lastId: string | undefined
  let resumes = 0
  let stopped = false
  let current: SseClient | undefined
  let heard = () => {}
  let connected = () => {}
  const ready = new Promise<void>((resolve) => (connected = resolve))
  const loop = (async () => {
    while (!stopped) {
      try {
        current = await openSse(`${url}/v1/stream/sse${lastId ? '' : '?from=now'}`, {
          token,
          ...(lastId ? { headers: { 'last-event-id': lastId } } : {}),
        })
        connected()
        let read = 0
        const take = () => {
          for (const frame of current!.frames.slice(read)) {
            read++
            if (frame.event !== 'stream-event') continue
            const event = JSON.parse(frame.data)
            seqs.push(event.seq)
            events.push(event)
            heardAt.push(Date.now())
            lastId = frame.id
          }
          heard()
        }
        // Until the response ends (the instance died or drained) or the follower stops.
        await Promise.race([current.until(() => (take(), stopped), 3_600_000), current.ended]).catch(() => {})
        take()
      } catch {
        // The instance died or drained, or the balancer had no server for a moment: resume.
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      if (!stopped) resumes++
    }
  })()
  return {
    ready,
    seqs,
    events,
    heardAt,
    get resumes() {
      return resumes
    },
    /** Resolves once `predicate` holds over what was heard (checked on every frame). */
    until(predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`SSE: not heard within ${timeoutMs} ms`)), timeoutMs)
        heard = () => {
          if (predicate()) {
            clearTimeout(timer)
            resolve()
          }
        }
        heard()
      })
    },
    async stop() {
      stopped = true
      current?.close()
      await loop
    },
  }
}

describe.skipIf(Boolean(reason))(
  `three instances behind HAProxy, PgBouncer before Postgres${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'workgraph-cluster-'))
    const database = `wg_cluster_${randomBytes(5).toString('hex')}`
    const directUrl = postgresDatabaseUrl(database)
    const children: ChildProcess[] = []
    let bouncer: Component & { url: string }
    let balancer: Balancer
    let instances: { child: ChildProcess; port: number }[] = []
    let db: pg.Client
    let owner: TestPerson
    let writers: TestPerson[] = []
    let assignee: MemberId
    let orgId: string
    let teamId: string

    const call = async (token: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${balancer.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await res.text()
      // HAProxy's own answers (502, 503) are HTML.
      const json = res.headers.get('content-type')?.includes('json')
      return {
        status: res.status,
        headers: res.headers,
        body: text && json ? JSON.parse(text) : text || null,
      }
    }

    /** The environment of an instance on `port`, as an operator sets it. */
    const settings = (port: number): Record<string, string> => ({
      PORT: String(port),
      BASE_URL: balancer?.url ?? '',
      DATABASE_URL: bouncer.url,
      DATABASE_DIRECT_URL: directUrl,
      REDIS_URL,
      BLOB_DIR: join(dir, 'blobs'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
    })

    beforeAll(async () => {
      if (missing.length > 0)
        throw new Error(`WORKGRAPH_REQUIRE_CLUSTER is set but ${missing.join(', ')} is missing`)
      await admin(`create database ${database}`)
      bouncer = await startPgBouncer(dir, new URL(directUrl))
      children.push(bouncer.child)
      // The balancer's public origin is every instance's BASE_URL, so its port comes first.
      const ports = [await freePort(), await freePort(), await freePort()]
      balancer = await startHaproxy(dir, ports)
      children.push(balancer.child)
      // All three at once on the empty database: one migrates through the pooler, the others wait.
      instances = await Promise.all(
        ports.map(async (port) => {
          const { child } = await startServerBin(dir, settings(port))
          children.push(child)
          return { child, port }
        }),
      )
      await until(async () => Object.values(await balancer.states()).every((s) => s === 'UP'), 'all three UP')

      db = new pg.Client({ connectionString: directUrl })
      await db.connect()
      // The people and the workspace, made beside the cluster on the same database and issuer.
      let storage: KyselyStorage | undefined
      let engine: Engine | undefined
      try {
        storage = await openStorage({ url: directUrl })
        engine = await createEngine({ storage, config: { baseUrl: balancer.url } })
        owner = await newPerson(engine)
        const org = (
          await engine.execute('orgs.create', { params: {}, body: { name: 'Cluster' } }, owner.principal)
        ).body as any
        orgId = org.id
        const team = (
          await engine.execute(
            'teams.create',
            { params: { orgId }, body: { name: 'Core', key: 'CORE' } },
            owner.principal,
          )
        ).body as any
        teamId = team.id
        const member = async () => {
          const person = await newPerson(engine!)
          const id = newId('MemberId')
          const now = new Date().toISOString()
          await storage!.transaction((s) =>
            s.members.insert({
              id,
              orgId: orgId as never,
              userId: person.user.id,
              kind: 'person',
              role: 'member',
              status: 'active',
              createdAt: now,
              updatedAt: now,
            }),
          )
          return { person, id }
        }
        writers = [owner]
        for (let i = 1; i < WRITERS; i++) writers.push((await member()).person)
        assignee = (await member()).id
      } finally {
        await engine?.close()
        await storage?.close()
      }
    }, 90_000)

    afterAll(async () => {
      await db?.end().catch(() => {})
      // The balancer first, then the instances, then the pooler: every process this test started.
      for (const child of children.reverse()) await stopComponent(child)
      await admin(`drop database if exists ${database} with (force)`).catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    it('started three instances at once on an empty database, migrated through the pooler once', async () => {
      const applied = await db.query('select name from kysely_migration')
      const names = applied.rows.map((r) => r.name)
      expect(new Set(names).size).toBe(names.length)
      expect(names).toContain('0064_keys_carry_org')
      // Nothing is left holding a lock on a pooled connection.
      const held = await db.query(`select count(*)::int as n from pg_locks
       where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`)
      expect(held.rows[0].n).toBe(0)
    })

    it('says at start that LISTEN does not hold when DATABASE_URL is the pooler and no direct URL is set', async () => {
      const port = await freePort()
      const { DATABASE_DIRECT_URL: _direct, ...pooled } = settings(port)
      const { BASE_URL: _vite, DATABASE_URL: _db, ...inherited } = process.env
      const child = spawn(process.execPath, programArgs('server'), {
        cwd: dir,
        env: { ...inherited, HOST: '127.0.0.1', ...pooled },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      children.push(child)
      let out = ''
      child.stdout!.on('data', (c) => (out += c))
      child.stderr!.on('data', (c) => (out += c))
      await until(async () => out.includes('workgraph login') || child.exitCode !== null, 'the banner')
      await stopComponent(child)
      expect(out).toContain(
        "warning: the event hub's LISTEN on DATABASE_URL did not hear its own test notification",
      )
      expect(out).toContain('Set DATABASE_DIRECT_URL')
    }, 30_000)

    it('holds one rate limit across the three instances', async () => {
      const before = await balancer.sessions()
      const person = writers[1]!
      const remaining: number[] = []
      for (let i = 0; i < 6; i++) {
        const res = await call(person.token, 'GET', '/v1/orgs')
        expect(res.status).toBe(200)
        remaining.push(Number(/r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]))
      }
      // One count across the instances: alone, each would have started again from the limit.
      expect(remaining.map((r) => remaining[0]! - r)).toEqual([0, 1, 2, 3, 4, 5])
      const after = await balancer.sessions()
      expect(Object.keys(after).filter((s) => after[s]! >= before[s]! + 2)).toEqual(['s1', 's2', 's3'])
    })

    it('loses no acknowledged write, streams each event once across a kill and a drain, and notifies once', async () => {
      const start = Number(
        (await db.query('select coalesce(max(seq), 0) as s from events where org_id = $1', [orgId])).rows[0]
          .s,
      )
      // Opened one after another, round robin puts one on each instance.
      const followers = []
      for (let i = 0; i < 3; i++) {
        const follower = follow(balancer.url, owner.token)
        followers.push(follower)
        await follower.ready
      }
      const acked: { kind: 'create' | 'title'; taskId: string; title: string; at: number }[] = []
      const began = Date.now()
      // How many connections Postgres holds for the cluster while it writes (the test's own one aside).
      let connections = 0
      const sampler = setInterval(() => {
        db.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [database],
        )
          .then((r) => (connections = Math.max(connections, r.rows[0].n)))
          .catch(() => {})
      }, 250)
      const refused: string[] = []
      let done = false
      const phases = [
        { at: Math.floor(WRITES / 3), act: () => instances[0]!.child.kill('SIGKILL') },
        { at: Math.floor((2 * WRITES) / 3), act: () => void stopComponent(instances[1]!.child) },
      ]
      const writer = async (person: TestPerson, w: number) => {
        const mine: string[] = []
        for (let n = 0; !done; n++) {
          const title = `w${w}n${n}`
          const taskId = mine[n % Math.max(mine.length, 1)]
          const create = !taskId || n % 2 === 0
          let res: Awaited<ReturnType<typeof call>>
          try {
            res = create
              ? await call(person.token, 'POST', `/v1/orgs/${orgId}/tasks`, {
                  teamId,
                  title,
                  ...(n % 4 === 0 ? { assigneeId: assignee } : {}),
                })
              : await call(person.token, 'PATCH', `/v1/orgs/${orgId}/tasks/${taskId}`, { title })
          } catch (error) {
            refused.push('connection')
            // As a client would: a short pause before the next request.
            await new Promise((resolve) => setTimeout(resolve, 100))
            continue
          }
          if (res.status >= 300) {
            // A request cut by the kill or the drain: HAProxy answers 502 or 503; nothing else is expected.
            expect([502, 503], `${title}: ${JSON.stringify(res.body)}`).toContain(res.status)
            refused.push(String(res.status))
            await new Promise((resolve) => setTimeout(resolve, 100))
            continue
          }
          acked.push({
            kind: create ? 'create' : 'title',
            taskId: create ? res.body.id : taskId!,
            title,
            at: Date.now(),
          })
          if (create) mine.push(res.body.id)
          while (phases[0] && acked.length >= phases[0].at) phases.shift()!.act()
          if (acked.length >= WRITES) done = true
        }
      }
      await Promise.all(writers.map((p, w) => writer(p, w)))
      const seconds = (Date.now() - began) / 1000
      clearInterval(sampler)
      // The drained instance is out by its readiness probe, the killed one too.
      await until(async () => {
        const s = await balancer.states()
        return s.s1 !== 'UP' && s.s2 !== 'UP' && s.s3 === 'UP'
      }, 'the balancer to take s1 and s2 out')

      // Every acknowledged write is in the database.
      const rows = await db.query('select id, title, assignee_id from tasks where org_id = $1', [orgId])
      const tasks = new Map(rows.rows.map((r) => [r.id as string, r]))
      for (const write of acked.filter((a) => a.kind === 'create'))
        expect(tasks.has(write.taskId), `task ${write.title} acknowledged but missing`).toBe(true)

      // Each SSE client heard every event of the log once, in order, resuming across the kill and the drain.
      const log = await db.query(
        'select seq from events where org_id = $1 and seq > $2 and recipient_id is null order by seq',
        [orgId, start],
      )
      const expected = log.rows.map((r) => Number(r.seq))
      const last = expected.at(-1)!
      for (const follower of followers)
        await follower
          .until(() => follower.seqs.includes(last))
          .catch((error) => {
            const heard = new Set(follower.seqs)
            throw new Error(
              `${error.message}: heard ${follower.seqs.length} of ${expected.length}, resumed ${follower.resumes} times, missing ${expected.filter((s) => !heard.has(s)).slice(0, 10)}`,
            )
          })
      for (const follower of followers) await follower.stop()
      for (const follower of followers) {
        expect(follower.seqs).toEqual(expected)
        for (const write of acked) {
          const heard = follower.events.some(
            (e) => e.data?.task?.id === write.taskId && e.data.task.title === write.title,
          )
          expect(heard, `${write.kind} ${write.title} acknowledged but never streamed`).toBe(true)
        }
      }
      expect(followers.reduce((sum, f) => sum + f.resumes, 0)).toBeGreaterThanOrEqual(2)

      // Three notifiers ran over one log: each assignment notified its assignee exactly once.
      const assigned = rows.rows.filter((r) => r.assignee_id === assignee).map((r) => r.id as string)
      expect(assigned.length).toBeGreaterThan(0)
      const counts = async () =>
        new Map(
          (
            await db.query(
              `select record_id, count(*)::int as n from notifications
             where org_id = $1 and recipient_id = $2 and kind = 'assigned' group by record_id`,
              [orgId, assignee],
            )
          ).rows.map((r) => [r.record_id as string, r.n as number]),
        )
      await until(async () => (await counts()).size === assigned.length, 'every assignment notified')
      const notified = await counts()
      expect([...notified.values()].every((n) => n === 1)).toBe(true)
      expect([...notified.keys()].sort()).toEqual([...assigned].sort())
      // What this run measured (docs/scale-out.md): no assertion rests on a time.
      const delays = followers
        .flatMap((f) =>
          acked.map((write) => {
            const at = f.events.findIndex(
              (e) => e.data?.task?.id === write.taskId && e.data.task.title === write.title,
            )
            return f.heardAt[at]! - write.at
          }),
        )
        .sort((a, b) => a - b)
      const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))]
      console.log(
        `cluster: ${acked.length} acknowledged writes from ${WRITERS} clients in ${seconds.toFixed(1)} s ` +
          `(${(acked.length / seconds).toFixed(0)}/s), ${refused.length} refused or cut around the kill and the drain ` +
          `(${[...new Set(refused)].map((r) => `${r}: ${refused.filter((x) => x === r).length}`).join(', ') || 'none'}); ` +
          `SSE resumes ${followers.map((f) => f.resumes).join('/')}; from acknowledgement to SSE frame ` +
          `median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${delays.at(-1)} ms; ` +
          `Postgres connections at most ${connections} (PgBouncer's pool of 20 and one LISTEN per instance)`,
      )
    }, 180_000)
  },
)

/** Polls `check` every 100 ms until it holds, for at most 30 s. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`waited 30 s for ${what}`)
}
