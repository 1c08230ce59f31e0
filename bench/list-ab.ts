/**
 * The task list of two checkouts side by side on one seeded database: this checkout's server and
 * another's (`--base=/work/main`, its source imported by path), in one process, answering
 * `GET /v1/orgs/{orgId}/tasks?limit=50` in interleaved rounds (bench/ab-rounds.ts); prints each
 * side's main-thread CPU per request (mean of the rounds) and throughput, and fails when the two
 * sides' pages differ or a request failed. The permissions world is seeded once into SCRATCH_DB
 * (default /tmp/list-ab.sqlite, ids kept in a .json beside it); with `--postgres` into the schema
 * `list_ab` on DATABASE_URL.
 *   npx tsx --conditions=dev-source bench/list-ab.ts --base=/work/main [--rounds=6] [--count=400] [--postgres]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { isDeepStrictEqual } from 'node:util'
import type { UserId } from '@workgraph/core'
import { type RunningServer, startServer } from '@workgraph/server'
import { abRounds } from './ab-rounds.ts'
import { profileServer } from './list-vs-limit-profile.ts'
import { seedWorld } from './seed-world.ts'
import { analyzePostgres, failures, load, pgUrl } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const base = arg('base')
if (!base) throw new Error('--base=/path/to/another/checkout is required')
const ROUNDS = Number(arg('rounds') ?? 6)
const COUNT = Number(arg('count') ?? 400)
const only = arg('readers')?.split(',')
const pg = process.argv.includes('--postgres')
const file = process.env.SCRATCH_DB ?? '/tmp/list-ab.sqlite'
const meta = pg ? '/tmp/list-ab-pg.json' : `${file}.json`
const schema = 'list_ab'
const options = {
  databaseUrl: pg ? pgUrl : file,
  ...(pg ? { databaseSchema: schema } : {}),
  config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
}

const mine = await startServer(options)
let ids: { orgId: string; readers: Record<string, string> }
if (!existsSync(meta)) {
  const world = await seedWorld(mine, 'List AB')
  if (pg) await analyzePostgres(schema)
  const guest = world.people.find((p) => p.kind === 'guest-1')!
  const member = world.people.find(
    (p) =>
      p.kind === 'member' &&
      (world.access.teamsOf.get(p.memberId)?.size ?? 0) >= 2 &&
      world.access.grants.some((g) => g.subjectId === p.memberId && g.containerType === 'team'),
  )!
  const projects = world.people.find(
    (p) =>
      p.kind === 'guest-projects' &&
      world.access.grants.filter((g) => g.subjectId === p.memberId && g.containerType === 'project').length >=
        2,
  )!
  ids = {
    orgId: world.orgId,
    readers: {
      owner: world.owner.id,
      member: member.user.id,
      guest: guest.user.id,
      projects: projects.user.id,
    },
  }
  writeFileSync(meta, JSON.stringify(ids))
} else ids = JSON.parse(readFileSync(meta, 'utf8'))

const other = (await import(`${base}/packages/server/src/index.ts`)) as {
  startServer: typeof startServer
}
const theirs = await other.startServer(options)
const sides: [string, RunningServer][] = [
  ['main', theirs],
  ['branch', mine],
]
const path = `/v1/orgs/${ids.orgId}/tasks?limit=50`
console.log(`load average ${loadavg().map((l) => l.toFixed(2))}`)
const rows: string[] = []
for (const [reader, userId] of Object.entries(ids.readers)) {
  if (only && !only.includes(reader)) continue
  const tokens = await Promise.all(
    sides.map(([, s]) =>
      s.engine.tokens.issueAccessToken({ userId: userId as UserId, scopes: ['work:read'] }),
    ),
  )
  const bodies = await Promise.all(
    sides.map(async ([, s], i) => {
      const res = await fetch(s.url + path, { headers: { authorization: `Bearer ${tokens[i]}` } })
      return res.json()
    }),
  )
  if (!isDeepStrictEqual(bodies[0], bodies[1])) failures.push(`${reader}: the two sides' pages differ`)
  for (const concurrency of [1, 32]) {
    const count = concurrency === 1 ? COUNT / 4 : COUNT
    const job = (i: number, n: number) => ({
      url: sides[i]![1].url + path,
      method: 'GET',
      headers: { authorization: `Bearer ${tokens[i]}` },
      count: n,
      concurrency,
      expect: 200,
    })
    const side = (i: number) => ({ name: sides[i]![0], job: (n: number) => job(i, n), pid: process.pid })
    const { a, b } = await abRounds(
      { a: side(0), b: side(1) },
      { rounds: ROUNDS, count, label: `${reader} c=${concurrency}` },
    )
    if (process.argv.includes('--profile') && concurrency === 32) {
      console.log(`profile of the branch, ${reader}, c=32`)
      await profileServer(() => load(job(1, COUNT * 3)))
    }
    const row = `| ${reader} | ${concurrency} | ${a.cpuPerRequest.toFixed(3)} | ${b.cpuPerRequest.toFixed(3)} | ${(b.cpuPerRequest / a.cpuPerRequest).toFixed(2)} | ${a.rate.toFixed(0)} | ${b.rate.toFixed(0)} |`
    console.log(row)
    rows.push(row)
  }
}
console.log(
  `\n${pg ? 'postgres' : 'sqlite'}, ${ROUNDS} rounds, load average ${loadavg().map((l) => l.toFixed(2))}\n| reader | c | main CPU ms/req | branch CPU ms/req | branch/main | main req/s | branch req/s |\n| --- | --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}`,
)
await theirs.close()
await mine.close()
if (failures.length > 0) {
  console.error(`failed requests:\n${failures.join('\n')}`)
  process.exitCode = 1
}
