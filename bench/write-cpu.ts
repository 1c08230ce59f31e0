/**
 * CPU per write: the main thread's CPU time (user + system, /proc) per `tasks.create`, one request
 * at a time, through `engine.execute` (`--via=engine`, the default: the pipeline, services and
 * storage) or over HTTP (`--via=http`: the reference server's main thread, the load on a worker
 * thread). Unlike throughput, CPU time per request hardly moves with the machine's load, so it
 * compares code on a shared machine. `--rounds=5` of `--count=300` after `--warmup=300`; `--full`
 * sends what `bench:statements` sends (a project, two labels, a field value, an Idempotency-Key);
 * `--profile` takes a CPU profile of the timed rounds and prints where the time went
 * (bench/profile-summary.ts; the file goes to BENCH_PROFILE_DIR or the temp folder); `--postgres`.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser } from '@workgraph/core'
import { type CpuProfile, printSummary, summariseProfile } from './profile-summary.ts'
import { failures, load, mainThreadCpuMs, percentile, runBench } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const via = arg('via') ?? 'engine'
const rounds = Number(arg('rounds') ?? 5)
const count = Number(arg('count') ?? 300)
const warmup = Number(arg('warmup') ?? 300)
const full = process.argv.includes('--full')
const profiling = process.argv.includes('--profile')

await runBench('write-cpu', async ({ engine, storage, url }) => {
  const owner = await createUser(storage, { email: 'owner@example.com', name: 'Owner' })
  const token = await engine.tokens.issueAccessToken({
    userId: owner.id,
    scopes: ['work:read', 'work:write'],
  })
  const principal = await engine.tokens.verifyAccessToken(token)
  const make = async (path: string, body: unknown, params: Record<string, string> = {}) => {
    const result = await engine.execute(path, { params, body }, principal)
    return result.body as { id: string }
  }
  const org = await make('orgs.create', { name: 'Writes' })
  const orgId = org.id
  const team = await make('teams.create', { name: 'Team', key: 'WR' }, { orgId })
  const extra: Record<string, unknown> = {}
  if (full) {
    const project = await make('projects.create', { name: 'Project', teamIds: [team.id] }, { orgId })
    const labels = [
      await make('labels.create', { name: 'bug' }, { orgId }),
      await make('labels.create', { name: 'ui' }, { orgId }),
    ]
    const field = await make('customFields.create', { name: 'Customer', type: 'text' }, { orgId })
    Object.assign(extra, {
      projectId: project.id,
      labelIds: labels.map((l) => l.id),
      fields: { [field.id]: 'Acme' },
    })
  }
  const body = (n: number) => ({
    teamId: team.id,
    title: `Write ${n}`,
    description: 'Measured by bench/write-cpu.ts',
    ...extra,
  })

  let sent = 0
  const viaEngine = async (n: number) => {
    for (let i = 0; i < n; i++) {
      sent++
      const options = full ? { idempotencyKey: `write-cpu-${sent}` } : {}
      const result = await engine.execute(
        'tasks.create',
        { params: { orgId }, body: body(sent) },
        principal,
        options,
      )
      if (result.status !== 201) failures.push(`create answered ${result.status}`)
    }
  }
  const viaHttp = async (n: number) => {
    const result = await load({
      url: `${url}/v1/orgs/${orgId}/tasks`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body(0)).replace('Write 0', 'Write {{n}}'),
      count: n,
      concurrency: 1,
      expect: 201,
    })
    failures.push(...result.failures.slice(0, 5))
  }
  if (via === 'http' && full) throw new Error('--full is for --via=engine (the load sends one body)')
  const run = via === 'http' ? viaHttp : viaEngine

  await run(warmup)
  const session = profiling ? new Session() : null
  if (session) {
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 100 })
    await session.post('Profiler.start')
  }
  const perCreate: number[] = []
  for (let r = 0; r < rounds; r++) {
    const before = mainThreadCpuMs(process.pid)
    await run(count)
    perCreate.push((mainThreadCpuMs(process.pid) - before) / count)
  }
  if (session) {
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile }
    session.disconnect()
    const file = join(process.env.BENCH_PROFILE_DIR ?? tmpdir(), `write-cpu-${Date.now()}.cpuprofile`)
    writeFileSync(file, JSON.stringify(profile))
    console.log(`profile: ${file}`)
    printSummary(summariseProfile(profile), { per: rounds * count })
  }
  console.log(
    `${storage.dialect} via ${via}${full ? ' (full)' : ''}: CPU per create, ms: median ${percentile(perCreate, 0.5).toFixed(2)}; rounds ${perCreate.map((x) => x.toFixed(2)).join(', ')}; load ${loadavg()[0]!.toFixed(2)}`,
  )
})
