/**
 * CPU per `tasks.create` of two checkouts side by side: this checkout's server and another's
 * (`--base=/work/main`, its source imported by path), in one process, each on its own throwaway
 * SQLite file (or Postgres schema with `--postgres`), creating tasks one at a time over HTTP
 * (`--via=http`, the default; the load on a worker thread) or through `engine.execute`
 * (`--via=engine`) in interleaved rounds, the side going first swapped each round. Prints each
 * side's main-thread CPU per create (mean of the rounds, and every round) and fails when a create
 * fails. A change in the machine's load hits both sides alike, so this compares code on a shared
 * machine where two runs one after the other do not.
 *   npx tsx --conditions=dev-source bench/write-ab.ts --base=/work/main [--via=engine] [--rounds=6] [--count=300] [--postgres]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser, type Engine, type Principal } from '@workgraph/core'
import { type RunningServer, startServer } from '@workgraph/server'
import { failures, load, mainThreadCpuMs, onPostgres, percentile, pgUrl, postgres } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const base = arg('base')
if (!base) throw new Error('--base=/path/to/another/checkout is required')
const via = arg('via') ?? 'http'
const rounds = Number(arg('rounds') ?? 6)
const count = Number(arg('count') ?? 300)

interface Side {
  name: string
  server: RunningServer
  run: (n: number) => Promise<void>
  perCreate: number[]
}

const tempDir = mkdtempSync(join(tmpdir(), 'workgraph-write-ab-'))
const schemas: string[] = []
const optionsFor = (name: string) => {
  const schema = `bench_write_ab_${name}_${Date.now()}`
  if (postgres) schemas.push(schema)
  return {
    databaseUrl: postgres ? pgUrl : join(tempDir, `${name}.sqlite`),
    ...(postgres ? { databaseSchema: schema } : {}),
    config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
  }
}
const other = (await import(`${base}/packages/server/src/index.ts`)) as { startServer: typeof startServer }

async function side(name: string, start: typeof startServer): Promise<Side> {
  const server = await start(optionsFor(name))
  const engine = server.engine as Engine
  const owner = await createUser(server.storage, { email: 'owner@example.com', name: 'Owner' })
  const token = await engine.tokens.issueAccessToken({
    userId: owner.id,
    scopes: ['work:read', 'work:write'],
  })
  const principal: Principal = await engine.tokens.verifyAccessToken(token)
  const make = async (id: string, body: unknown, params: Record<string, string> = {}) =>
    (await engine.execute(id, { params, body }, principal)).body as { id: string }
  const orgId = (await make('orgs.create', { name: 'Writes' })).id
  const teamId = (await make('teams.create', { name: 'Team', key: 'WR' }, { orgId })).id
  const body = (n: number | string) => ({
    teamId,
    title: `Write ${n}`,
    description: 'Measured by bench/write-ab.ts',
  })
  let sent = 0
  const viaEngine = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const result = await engine.execute(
        'tasks.create',
        { params: { orgId }, body: body(sent++) },
        principal,
      )
      if (result.status !== 201) failures.push(`${name}: create answered ${result.status}`)
    }
  }
  const viaHttp = async (n: number) => {
    const result = await load({
      url: `${server.url}/v1/orgs/${orgId}/tasks`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body('{{n}}')),
      count: n,
      concurrency: 1,
      expect: 201,
    })
    failures.push(...result.failures.slice(0, 3).map((f) => `${name}: ${f}`))
  }
  return { name, server, run: via === 'engine' ? viaEngine : viaHttp, perCreate: [] }
}

const sides = [await side('main', other.startServer), await side('branch', startServer)]
for (const s of sides) await s.run(300) // warm-up
console.log(`via ${via}, load average ${loadavg().map((l) => l.toFixed(2))}`)
for (let r = 0; r < rounds; r++) {
  for (const s of r % 2 === 0 ? sides : [...sides].reverse()) {
    const before = mainThreadCpuMs(process.pid)
    await s.run(count)
    s.perCreate.push((mainThreadCpuMs(process.pid) - before) / count)
  }
}
const [a, b] = sides as [Side, Side]
const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length
const fmt = (s: Side) =>
  `${mean(s.perCreate).toFixed(3)} ms (median ${percentile(s.perCreate, 0.5).toFixed(3)}; ${s.perCreate.map((x) => x.toFixed(2)).join(', ')})`
console.log(`${postgres ? 'postgres' : 'sqlite'} via ${via}, CPU per create, ${rounds} rounds of ${count}:`)
console.log(`  main   ${fmt(a)}`)
console.log(`  branch ${fmt(b)}`)
console.log(
  `  branch / main ${(mean(b.perCreate) / mean(a.perCreate)).toFixed(3)}; load average ${loadavg().map((l) => l.toFixed(2))}`,
)
for (const s of sides) await s.server.close()
rmSync(tempDir, { recursive: true, force: true })
for (const schema of schemas) await onPostgres(`drop schema ${schema} cascade`)
if (failures.length > 0) {
  console.error(`FAILED, ${failures.length} problems:\n- ${failures.slice(0, 20).join('\n- ')}`)
  process.exitCode = 1
}
