/**
 * The permissioned task list against the floor: the reference server serves
 * `GET /v1/orgs/{orgId}/tasks?limit=50` side by side with a minimal node:http handler written here
 * that does only what that page needs, on the permissions bench's org (100,000 tasks, 1,000 members,
 * mixed grants). The handler verifies the same ES256 bearer token with jose (same key set, issuer,
 * audiences, type and required claims), runs exactly the SQL the server ran for that reader's page
 * (recorded from the server's Kysely executor, token check and grants look-up included) with the same
 * driver (its own better-sqlite3 connection with statements prepared once, or a pg pool of the same
 * size), maps the rows to the same JSON (checked equal to the server's, cursor included) and writes it.
 *
 * Readers, one of each class the issue names: the org's owner, a member with team memberships and a
 * direct team grant, a guest with one team grant, a guest with two or three project grants, a guest
 * with one program grant and one with one initiative grant (bench/list-vs-limit-readers.ts). Each cell (reader × concurrency 1 and 32) runs interleaved A/B rounds from the worker-thread
 * load generator (bench/load-worker.mjs, keep-alive); it reports the throughput ratio
 * workgraph / hand-written (median of the rounds' ratios) and p50/p99 of each side. `--postgres`,
 * `--rounds=5`, `--count=400` (requests per round and side at concurrency 32; a quarter of that at 1).
 * Profile the server with `--profile`: the inspector's CPU profiler runs during the workgraph rounds
 * only and its self time is summed by area (the hand-written handler runs in this process too, so a
 * whole-process `node --cpu-prof` would mix both).
 */
import { availableParallelism, loadavg } from 'node:os'
import { isDeepStrictEqual } from 'node:util'
import type { UserId } from '@workgraph/core'
import { abRounds } from './ab-rounds.ts'
import { type Plan, type Recorded, startHandwritten } from './list-vs-limit-handler.ts'
import { profileServer } from './list-vs-limit-profile.ts'
import { containerReaders } from './list-vs-limit-readers.ts'
import { seedWorld } from './seed-world.ts'
import { analyzePostgres, failures, fmt, load, postgres, runBench } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const ROUNDS = Number(arg('rounds') ?? 5)
const COUNT = Number(arg('count') ?? 400)
const LIMIT = 50
// `--profile` profiles the last reader; `--profile=owner` the reader whose label starts so, both sides.
const profile = process.argv.includes('--profile') || arg('profile') !== undefined
const profiled = arg('profile')

/** The list's path with its org, set once the org exists. */
let currentPath = ''

await runBench('lvl', async (server, schema) => {
  const { engine, storage, url } = server
  console.log(
    `${storage.dialect}, node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const world = await seedWorld(server, 'List vs limit')
  const { owner, people, access } = world
  const org = { id: world.orgId }
  if (postgres) await analyzePostgres(schema)

  // A member with a few teams (memberships) and a direct team grant; a guest with one team grant.
  const member = people.find(
    (p) =>
      p.kind === 'member' &&
      (access.teamsOf.get(p.memberId)?.size ?? 0) >= 2 &&
      access.grants.some((g) => g.subjectId === p.memberId && g.containerType === 'team'),
  )!
  const guest = people.find((p) => p.kind === 'guest-1')!
  // Two or three project grants and no team: the page merges one keyset side per project.
  const projectGuest = people.find(
    (p) =>
      p.kind === 'guest-projects' &&
      access.grants.filter((g) => g.subjectId === p.memberId && g.containerType === 'project').length >= 2,
  )!
  const projectGrants = access.grants.filter(
    (g) => g.subjectId === projectGuest.memberId && g.containerType === 'project',
  ).length
  const containers = await containerReaders(server, world)
  // Issued after seeding, as the others: on a busy machine seeding outlasts an access token's lifetime.
  const ownerToken = await engine.tokens.issueAccessToken({ userId: owner.id, scopes: ['work:read'] })
  const reader = async (label: string, userId: string) => ({
    label,
    userId,
    token: await engine.tokens.issueAccessToken({ userId: userId as UserId, scopes: ['work:read'] }),
  })
  const readers = [
    { label: 'owner', userId: owner.id as string, token: ownerToken },
    {
      label: `member, ${access.teamsOf.get(member.memberId)?.size ?? 0} teams + 1 team grant`,
      userId: member.user.id as string,
      token: await engine.tokens.issueAccessToken({ userId: member.user.id, scopes: ['work:read'] }),
    },
    {
      label: 'guest, 1 team grant',
      userId: guest.user.id as string,
      token: await engine.tokens.issueAccessToken({ userId: guest.user.id, scopes: ['work:read'] }),
    },
    await reader(`guest, ${projectGrants} project grants`, projectGuest.user.id),
    await reader('guest, 1 program grant (15 projects)', containers.program),
    await reader('guest, 1 initiative grant (17 projects)', containers.initiative),
  ]
  const path = `/v1/orgs/${org.id}/tasks?limit=${LIMIT}`
  currentPath = path
  const get = async (base: string, token: string) => {
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } })
    return { status: res.status, body: (await res.json()) as { data: unknown[]; nextCursor: string | null } }
  }

  // Record what the server runs for each reader's page (after two warm-up requests: caches filled).
  const recorded: Recorded[] = []
  let recording = false
  const executor = Object.getPrototypeOf(Object.getPrototypeOf(storage.db.getExecutor())) as {
    executeQuery: (compiled: Recorded, ...rest: unknown[]) => Promise<unknown>
  }
  const original = executor.executeQuery
  executor.executeQuery = function (this: unknown, compiled, ...rest) {
    if (recording) recorded.push({ sql: compiled.sql, parameters: [...compiled.parameters] })
    return original.call(this, compiled, ...rest)
  }
  /** By user id: what the handler runs for the token's subject. */
  const plans = new Map<string, Plan>()
  const expected = new Map<string, unknown>()
  for (const reader of readers) {
    await get(url, reader.token)
    await get(url, reader.token)
    recorded.length = 0
    recording = true
    const { status, body } = await get(url, reader.token)
    recording = false
    if (status !== 200) throw new Error(`${reader.label}: HTTP ${status}`)
    // The page: one keyset query, or the merged sides' keys with the rows read by id.
    const page = recorded.findIndex((s) =>
      /join "teams" on "teams"\."org_id" = "tasks"\."org_id"/.test(s.sql),
    )
    if (page < 0 || !body.nextCursor) throw new Error(`${reader.label}: no page query or no next page`)
    const cursorScope = JSON.parse(Buffer.from(body.nextCursor.split('.')[0]!, 'base64url').toString()).s
    plans.set(reader.userId, { statements: recorded.splice(0), page, cursorScope })
    expected.set(reader.token, body)
  }
  executor.executeQuery = original
  console.log(`\nStatements the server runs per page (and the handler replays):`)
  for (const [i, reader] of readers.entries()) {
    const plan = plans.get(reader.userId)!
    console.log(`\n${i + 1}. ${reader.label}`)
    for (const s of plan.statements)
      console.log(`   - ${s.sql.slice(0, 400)}${s.sql.length > 400 ? ' …' : ''}`)
  }

  const handwritten = await startHandwritten(server, schema, plans)
  try {
    for (const reader of readers) {
      const mine = await get(handwritten.url, reader.token)
      const difference =
        mine.status !== 200 ? `HTTP ${mine.status}` : firstDifference(expected.get(reader.token), mine.body)
      if (difference)
        failures.push(`${reader.label}: the hand-written page differs from the server's: ${difference}`)
    }
    const results: Cell[] = []
    for (const reader of readers) {
      for (const concurrency of [1, 32]) results.push(await cell(url, handwritten.url, reader, concurrency))
    }
    console.log(
      `\n${storage.dialect}: ${ROUNDS} interleaved rounds, ${COUNT} requests per round and side at concurrency 32 (${COUNT / 4} at 1), load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    )
    console.log(
      '| reader | concurrency | workgraph req/s | hand-written req/s | ratio | workgraph p50 / p99 ms | hand-written p50 / p99 ms | CPU ms per request, workgraph / hand-written | CPU ratio (hand-written / workgraph) |',
    )
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for (const r of results) console.log(r.row)
    if (profile) {
      const reader =
        (profiled && readers.find((r) => r.label.startsWith(profiled))) || readers[readers.length - 1]!
      console.log(`\nCPU profile of the server, ${reader.label}, concurrency 32:`)
      await profileServer(() => load(loadJob(url, reader.token, 32, COUNT * 2)))
      if (profiled) {
        console.log(`\nCPU profile of the hand-written handler, ${reader.label}, concurrency 32:`)
        await profileServer(() => load(loadJob(handwritten.url, reader.token, 32, COUNT * 2)))
      }
    }
  } finally {
    await handwritten.close()
  }

  async function cell(
    serverUrl: string,
    handwrittenUrl: string,
    reader: { label: string; token: string },
    concurrency: number,
  ): Promise<Cell> {
    const count = concurrency === 1 ? COUNT / 4 : COUNT
    // CPU of this process's main thread (the server or the handler; the load runs on its own thread)
    // per request, over the rounds: what the other engineers' load on the machine does not inflate.
    const ab = {
      a: {
        name: 'workgraph',
        job: (n: number) => loadJob(serverUrl, reader.token, concurrency, n),
        pid: process.pid,
      },
      b: {
        name: 'handwritten',
        job: (n: number) => loadJob(handwrittenUrl, reader.token, concurrency, n),
        pid: process.pid,
      },
    }
    const { a: wg, b: hw, ratio } = await abRounds(ab, { rounds: ROUNDS, count, label: reader.label })
    const row = `| ${reader.label} | ${concurrency} | ${wg.rate.toFixed(0)} | ${hw.rate.toFixed(0)} | ${ratio.toFixed(2)} | ${fmt(wg.latencies)} | ${fmt(hw.latencies)} | ${wg.cpuPerRequest.toFixed(2)} / ${hw.cpuPerRequest.toFixed(2)} | ${(hw.cpuPerRequest / wg.cpuPerRequest).toFixed(2)} |`
    console.log(row)
    return { row }
  }
})

interface Cell {
  row: string
}

function loadJob(base: string, token: string, concurrency: number, count: number) {
  return {
    url: base + currentPath,
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
    count,
    concurrency,
    expect: 200,
  }
}

/** Where two JSON values first differ (a path and both values), or null when they are equal. */
function firstDifference(server: unknown, mine: unknown, at = ''): string | null {
  if (isDeepStrictEqual(server, mine)) return null
  if (server && mine && typeof server === 'object' && typeof mine === 'object') {
    const keys = new Set([...Object.keys(server), ...Object.keys(mine)])
    for (const key of keys) {
      const found = firstDifference(
        (server as Record<string, unknown>)[key],
        (mine as Record<string, unknown>)[key],
        `${at}/${key}`,
      )
      if (found) return found
    }
  }
  return `at ${at || '/'} the server has ${JSON.stringify(server)?.slice(0, 200)}, the handler ${JSON.stringify(mine)?.slice(0, 200)}`
}
