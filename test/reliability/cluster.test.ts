/**
 * The deployment of docs/scale-out.md on loopback, with the real components: three server instances
 * (the reference bin) behind HAProxy (round robin, readiness probe on /readyz), PgBouncer in
 * transaction mode in front of Postgres, Redis for the shared rate limits (test/support/cluster/).
 * Through the balancer: a person signs in with OAuth (authorization code and PKCE), each step on
 * whichever instance; an MCP session starts on the instance about to be killed; four clients write
 * while three SSE clients follow the workspace; one instance is killed with SIGKILL mid-run and
 * another drained with SIGTERM (its readiness probe takes it out). Afterwards: every acknowledged
 * write is in the database and was streamed, each SSE client resumed with `Last-Event-ID` and saw
 * every event once, rate limits held across the instances, each assignment notified its assignee
 * exactly once though three notifiers ran, the MCP session and the hub go on on the instance left.
 * Last, three instances start at once on due scheduled work (cycle rollover, auto-close, recurring
 * work, reminders, due dates): each runs every pass, and each thing is done once.
 *
 * CLUSTER_WRITES sets the acknowledged writes (240 in `pnpm test`; `pnpm test:cluster` runs 2000).
 * Skipped only when WORKGRAPH_REQUIRE_CLUSTER is unset and haproxy or pgbouncer is not installed
 * (`.ci/run` installs them: apt-get install haproxy pgbouncer).
 */
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { missingClusterBinaries, stopComponent } from '../support/cluster/components.ts'
import { type Deployment, startDeployment } from '../support/cluster/deployment.ts'
import { follow } from '../support/cluster/follow.ts'
import { call, until } from '../support/cluster/instances.ts'
import { mcpPost, messages, PROTOCOL } from '../support/cluster/mcp.ts'
import { authorizationCodeFlow, signUpThrough } from '../support/cluster/oauth.ts'
import { PASSES, passesIn, planScheduledWork, type ScheduledWork } from '../support/cluster/scheduled.ts'
import { DATABASES, skipReason } from '../support/databases.ts'
import type { TestPerson } from '../support/fixtures.ts'
import { freePort, programArgs } from '../support/processes.ts'
import { sized } from '../support/tier.ts'

const WRITES = sized('CLUSTER_WRITES', { test: 240, deep: 2000 })
const WRITERS = 4
const missing = missingClusterBinaries()
const required = Boolean(process.env.WORKGRAPH_REQUIRE_CLUSTER)
const reason =
  skipReason(DATABASES.find((d) => d.name === 'postgres')!) ||
  (missing.length > 0 && !required ? `${missing.join(' and ')} not installed` : false)

describe.skipIf(Boolean(reason))(
  `three instances behind HAProxy, PgBouncer before Postgres${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    let d: Deployment
    /** The MCP session started before the kill, and the instance that started it. */
    let mcp: { token: string; session: string; servedBy: string }

    beforeAll(async () => {
      if (missing.length > 0)
        throw new Error(`WORKGRAPH_REQUIRE_CLUSTER is set but ${missing.join(', ')} is missing`)
      d = await startDeployment(WRITERS)
    }, 120_000)

    afterAll(async () => {
      await d?.stop()
    }, 60_000)

    it('started three instances at once on an empty database, migrated through the pooler once', async () => {
      const applied = await d.db.query('select name from kysely_migration')
      const names = applied.rows.map((r) => r.name)
      expect(new Set(names).size).toBe(names.length)
      expect(names).toContain('0064_keys_carry_org')
      // Nothing is left holding a lock on a pooled connection.
      const held = await d.db.query(`select count(*)::int as n from pg_locks
       where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`)
      expect(held.rows[0].n).toBe(0)
    })

    it('says at start that LISTEN does not hold when DATABASE_URL is the pooler and no direct URL is set', async () => {
      const port = await freePort()
      const { DATABASE_DIRECT_URL: _direct, ...pooled } = d.settings(port)
      const { BASE_URL: _vite, DATABASE_URL: _db, ...inherited } = process.env
      const child = spawn(process.execPath, programArgs('server'), {
        cwd: d.dir,
        env: { ...inherited, HOST: '127.0.0.1', ...pooled },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      d.children.push(child)
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
      const person = d.writers[1]!
      const remaining: number[] = []
      const served = new Set<string>()
      // Round robin, until each instance has answered (a busy machine can miss a readiness check).
      for (let i = 0; served.size < 3 && i < 30; i++) {
        const res = await call(d.balancer.url, person.token, 'GET', '/v1/orgs')
        expect(res.status).toBe(200)
        served.add(res.headers.get('x-served-by')!)
        remaining.push(Number(/r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]))
      }
      expect([...served].sort()).toEqual(['s1', 's2', 's3'])
      // One count across the instances: alone, each would have started again from the limit.
      expect(remaining.map((r) => remaining[0]! - r)).toEqual(remaining.map((_, i) => i))
    })

    it('signs a person in with OAuth (authorization code, PKCE) through the balancer, every step on whichever instance', async () => {
      const base = d.balancer.url
      const before = await d.balancer.sessions()
      const { cookie } = await signUpThrough(base, d.logs)
      const { client, state, tokens } = await authorizationCodeFlow(base, cookie)
      expect(state).toBe('cluster')
      expect(tokens.status, JSON.stringify(tokens.body)).toBe(200)
      // Sign-up, its confirmation, registration, the consent page, the consent and the redemption:
      // six requests, round robin, so more than one instance took part in the flow.
      const after = await d.balancer.sessions()
      expect(Object.keys(after).filter((s) => after[s]! > before[s]!).length).toBeGreaterThan(1)
      // The token is good on every instance.
      const served = new Set<string>()
      for (let i = 0; served.size < 3 && i < 30; i++) {
        const me = await call(base, tokens.body.access_token, 'GET', '/v1/me')
        expect(me.status).toBe(200)
        served.add(me.headers.get('x-served-by')!)
      }
      expect([...served].sort()).toEqual(['s1', 's2', 's3'])
      // Refreshed on one instance, the new token writes through another.
      const refreshed = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.body.refresh_token,
          client_id: client.client_id,
          resource: `${base}/v1`,
        }),
      })
      expect(refreshed.status).toBe(200)
      const access = ((await refreshed.json()) as any).access_token
      const org = await call(base, access, 'POST', '/v1/orgs', { name: 'Signed in through OAuth' })
      expect(org.status).toBe(201)
      expect(refreshed.headers.get('x-served-by')).not.toBe(org.headers.get('x-served-by'))
    }, 60_000)

    it('starts an MCP session on the instance that will be killed', async () => {
      const engineToken = await mcpToken(d, d.writers[0]!)
      // Round robin: within a few tries one lands on s1, the instance the next test kills.
      for (let i = 0; i < 10 && !mcp; i++) {
        const init = await mcpPost(d.balancer.url, engineToken, {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: PROTOCOL,
            capabilities: {},
            clientInfo: { name: 'c', version: '1' },
          },
        })
        expect(init.status).toBe(200)
        const servedBy = init.headers.get('x-served-by')!
        const session = init.headers.get('mcp-session-id')!
        expect((await messages(init))[0].result.serverInfo.name).toBe('workgraph')
        if (servedBy === 's1') mcp = { token: engineToken, session, servedBy }
      }
      expect(mcp?.servedBy).toBe('s1')
      const initialized = await mcpPost(
        d.balancer.url,
        mcp.token,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        mcp.session,
      )
      expect(initialized.status).toBe(202)
    })

    it('loses no acknowledged write, streams each event once across a kill and a drain, and notifies once', async () => {
      const { db, balancer, orgId, teamId, writers, database } = d
      const owner = writers[0]!
      const assignee = d.assignee.id
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
        { at: Math.floor(WRITES / 3), act: () => d.instances[0]!.child.kill('SIGKILL') },
        { at: Math.floor((2 * WRITES) / 3), act: () => void stopComponent(d.instances[1]!.child) },
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
              ? await call(balancer.url, person.token, 'POST', `/v1/orgs/${orgId}/tasks`, {
                  teamId,
                  title,
                  ...(n % 4 === 0 ? { assigneeId: assignee } : {}),
                })
              : await call(balancer.url, person.token, 'PATCH', `/v1/orgs/${orgId}/tasks/${taskId}`, {
                  title,
                })
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

    it('continues the MCP session and reads the hub on the instance left', async () => {
      const first = await d.db.query('select min(number) as n from tasks where team_id = $1', [d.teamId])
      const task = `CORE-${first.rows[0].n}`
      const called = await mcpPost(
        d.balancer.url,
        mcp.token,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_task', arguments: { task } } },
        mcp.session,
      )
      expect(called.status).toBe(200)
      // s1, which started it, was killed: s3 rebuilt the session from its row.
      expect(called.headers.get('x-served-by')).toBe('s3')
      const [answer] = await messages(called)
      expect(answer.id).toBe(2)
      expect(JSON.parse(answer.result.content[0].text)).toMatchObject({ key: task })

      // The hub: the assignee's open tasks across workspaces, page by page, are the ones assigned.
      const assigned = (
        await d.db.query(
          `select id from tasks where assignee_id = $1
           and archived_at is null and deleted_at is null and completed_at is null and canceled_at is null`,
          [d.assignee.id],
        )
      ).rows.map((r) => r.id as string)
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page = await call(
          d.balancer.url,
          d.assignee.person.token,
          'GET',
          `/v1/hub/tasks?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
        expect(page.status, JSON.stringify(page.body)).toBe(200)
        expect(page.headers.get('x-served-by')).toBe('s3')
        seen.push(...page.body.data.map((t: any) => t.id))
        cursor = page.body.nextCursor
      } while (cursor)
      expect(seen.sort()).toEqual(assigned.sort())
    })

    it('does each piece of scheduled work once when three instances start at once and all run every pass', async () => {
      // Every instance stopped, then the work made due, then all three started together.
      await stopComponent(d.instances[2]!.child)
      const work: ScheduledWork = await planScheduledWork({
        databaseUrl: d.directUrl,
        baseUrl: d.balancer.url,
        token: d.writers[0]!.token,
        orgId: d.orgId,
        assigneeId: d.assignee.id,
        db: d.db,
      })
      const started = await Promise.all([0, 1, 2].map((i) => d.restart(i, { LOG_LEVEL: 'debug' })))
      // Each instance logs each pass once it has finished it (LOG_LEVEL=debug).
      await until(
        async () => started.every((s) => PASSES.every((p) => passesIn(s.output()).some((x) => x.name === p))),
        'every pass of every instance',
        60,
      )
      const total = (name: string, count: string) =>
        started
          .flatMap((s) => passesIn(s.output()))
          .filter((p) => p.name === name)
          .reduce((sum, p) => sum + p.counts[count]!, 0)
      // Three instances ran each pass; together they did each piece of work once, and nothing failed.
      expect(total('cycle maintenance pass', 'completed')).toBe(1)
      expect(total('task automation pass', 'closed')).toBe(1)
      expect(total('scheduler pass', 'tasks')).toBe(1)
      expect(total('scheduler pass', 'reminders')).toBe(1)
      expect(total('due-date reminders pass', 'notifications')).toBe(1)
      for (const name of PASSES) expect(total(name, 'failed'), name).toBe(0)

      // And the database agrees: each effect is there, once.
      const count = async (sql: string, params: unknown[]) =>
        (await d.db.query(sql, params)).rows[0].n as number
      const events = (kind: string, id: string) =>
        count(
          `select count(*)::int as n from events where org_id = $1 and kind = $2 and resource_id = $3 and actor_id is null`,
          [d.orgId, kind, id],
        )
      expect(await events('cycle.completed', work.cycles.ended)).toBe(1)
      const carried = (await d.db.query('select cycle_id from tasks where id = $1', [work.carried])).rows[0]
      expect(carried.cycle_id).toBe(work.cycles.next)
      expect(await events('task.updated', work.carried)).toBe(1)
      expect(await events('task.updated', work.stale)).toBe(1)
      const stale = await d.db.query(
        `select s.category from tasks t join workflow_states s on s.id = t.state_id where t.id = $1`,
        [work.stale],
      )
      expect(stale.rows[0].category).toBe('canceled')
      expect(
        await count('select count(*)::int as n from recurrence_occurrences where recurrence_id = $1', [
          work.recurrence,
        ]),
      ).toBe(1)
      expect(
        await count(`select count(*)::int as n from tasks where org_id = $1 and title = 'Daily check'`, [
          d.orgId,
        ]),
      ).toBe(1)
      const notified = (kind: string, task: string) =>
        count(`select count(*)::int as n from notifications where kind = $1 and record_id = $2`, [kind, task])
      expect(await notified('reminder', work.reminded)).toBe(1)
      expect(await notified('dueSoon', work.due)).toBe(1)
      await until(async () => (await notified('assigned', work.due)) === 1, 'the assignment notified')
      expect(await notified('assigned', work.due)).toBe(1)
    }, 120_000)
  },
)

/** An access token for the MCP endpoint behind the balancer, from the keys the instances share. */
async function mcpToken(d: Deployment, person: TestPerson): Promise<string> {
  const { createEngine } = await import('@workgraph/core')
  const { openStorage } = await import('@workgraph/kysely')
  const storage = await openStorage({ url: d.directUrl })
  try {
    const engine = await createEngine({ storage, config: { baseUrl: d.balancer.url } })
    return await engine.tokens.issueAccessToken({
      userId: person.user.id,
      scopes: ['work:read', 'work:write'],
      audience: `${d.balancer.url}/mcp`,
    })
  } finally {
    await storage.close()
  }
}
