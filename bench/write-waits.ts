/**
 * Where an 8-client Postgres create's time goes: `tasks.create` over HTTP with `--clients=8` in flight
 * (`--count=2000` after a warm-up), while a second process samples `pg_stat_activity` every
 * `--every=10` ms for the server's backends (named by `application_name`), and `/proc` gives the CPU
 * of this process (server and load worker), of the server's backends, of the WAL writer and of the
 * machine. A backend "idle in transaction" is waiting for Node inside a create's transaction; "idle"
 * is outside one; "active" with no wait event is running or runnable. Postgres only:
 * `npx tsx --conditions=dev-source bench/write-waits.ts [--checkout=/work/main]` (another checkout's server).
 */
import { execFileSync, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const clients = Number(arg('clients') ?? 8)
const count = Number(arg('count') ?? 2000)
const every = Number(arg('every') ?? 10)
const APP = `write_waits_${process.pid}`
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
process.env.DATABASE_URL = `${base}${base.includes('?') ? '&' : '?'}application_name=${APP}`
if (!process.argv.includes('--postgres')) process.argv.push('--postgres')
// `--checkout=/work/main` measures another checkout's server (its bench support and core) with this bench.
const checkout = arg('checkout')
const support: typeof import('./support.ts') = await import(
  checkout ? `${checkout}/bench/support.ts` : './support.ts'
)
const { failures, load, percentile, runBench } = support
const core: typeof import('@workgraph/core') = await import(
  checkout ? `${checkout}/packages/core/src/index.ts` : '@workgraph/core'
)
const { createUser } = core

/** CPU time (ns) of one thread or single-threaded process, from schedstat. */
const cpuNs = (path: string) => {
  try {
    return Number(readFileSync(`${path}/schedstat`, 'utf8').split(' ')[0])
  } catch {
    return 0
  }
}
const processNs = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + cpuNs(`/proc/${pid}/task/${tid}`), 0)
/** Every postgres process by its title (`postgres: walwriter`, `postgres: postgres postgres … idle`). */
const postgresProcesses = () =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        return {
          pid: Number(d),
          title: readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(),
        }
      } catch {
        return { pid: Number(d), title: '' }
      }
    })
    .filter((p) => p.title.startsWith('postgres'))
/** Busy and total jiffies of the machine. */
const machine = () => {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
  const n = f.map(Number)
  const idle = n[3]! + n[4]!
  const total = n.reduce((a, b) => a + b, 0)
  return { busy: total - idle, total }
}

await runBench('write-waits', async ({ engine, storage, url }) => {
  const owner = await createUser(storage, { email: 'owner@example.com', name: 'Owner' })
  const token = await engine.tokens.issueAccessToken({
    userId: owner.id,
    scopes: ['work:read', 'work:write'],
  })
  const principal = await engine.tokens.verifyAccessToken(token)
  const org = (await engine.execute('orgs.create', { body: { name: 'Waits' } }, principal)).body as {
    id: string
  }
  const team = (
    await engine.execute(
      'teams.create',
      { params: { orgId: org.id }, body: { name: 'Team', key: 'WW' } },
      principal,
    )
  ).body as { id: string }
  const job = (n: number, concurrency: number) => ({
    url: `${url}/v1/orgs/${org.id}/tasks`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      teamId: team.id,
      title: 'Wait {{n}}',
      description: 'Measured by bench/write-waits.ts',
    }),
    count: n,
    concurrency,
    expect: 201,
  })
  await load(job(200, clients)) // warm-up: every pool connection open
  const backends = execFileSync('psql', [
    base,
    '-Atc',
    `select pid from pg_stat_activity where application_name = '${APP}'`,
  ])
    .toString()
    .trim()
    .split('\n')
    .map(Number)
  const walwriter = postgresProcesses().filter((p) => p.title.includes('walwriter'))
  const others = postgresProcesses().filter(
    (p) => !backends.includes(p.pid) && !p.title.includes('walwriter'),
  )
  // The sampler: psql in a loop of its own, so its work is neither this process's nor the backends'.
  const sample = `select now()::time, pid, state, coalesce(wait_event_type, '-'), coalesce(wait_event, '-'),
    split_part(regexp_replace(query, '^(/\\*[^*]*\\*/ )*', ''), ' ', 1) || ' ' || split_part(regexp_replace(query, '^(/\\*[^*]*\\*/ )*', ''), ' ', 2)
    from pg_stat_activity where application_name = '${APP}' \\watch ${every / 1000}`
  const sampler = spawn('psql', [base, '-qAtF', '|'], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  sampler.stdout.on('data', (c) => {
    out += c
  })
  // CPU of each process of interest, read the same way before and after the run.
  const cpuNow = () => ({
    self: processNs(process.pid),
    main: cpuNs(`/proc/${process.pid}/task/${process.pid}`),
    backends: backends.map((p) => cpuNs(`/proc/${p}`)),
    walwriter: walwriter.reduce((s, p) => s + cpuNs(`/proc/${p.pid}`), 0),
    others: others.reduce((s, p) => s + cpuNs(`/proc/${p.pid}`), 0),
    machine: machine(),
  })
  const before = { ...cpuNow(), load: loadavg()[0]!, at: new Date().toISOString() }
  sampler.stdin.end(`${sample}\n`)
  const result = await load(job(count, clients))
  sampler.kill('SIGINT') // ends `\watch`; stdin is closed, so psql then exits
  if (sampler.exitCode === null) await new Promise((r) => sampler.once('exit', r))
  const after = cpuNow()
  failures.push(...result.failures.slice(0, 5))
  const n = result.latencies.length
  const per = (ns: number) => `${(ns / 1e6 / n).toFixed(3)} ms`
  const wall = result.elapsedMs
  console.log(
    `${before.at}, load ${before.load.toFixed(2)}: ${n} creates, ${clients} clients, ${((n / wall) * 1000).toFixed(0)} creates/s, p50 ${percentile(result.latencies, 0.5).toFixed(2)} ms`,
  )
  console.log(
    `CPU per create: this process ${per(after.self - before.self)} (main thread ${per(after.main - before.main)}, load worker and others ${per(after.self - before.self - after.main + before.main)})`,
  )
  console.log(
    `  the server's ${backends.length} backends ${per(after.backends.reduce((sum, ns, i) => sum + (ns > 0 ? ns - before.backends[i]! : 0), 0))}, walwriter ${per(after.walwriter - before.walwriter)}, other postgres processes ${per(after.others - before.others)}`,
  )
  const busy = after.machine.busy - before.machine.busy
  const total = after.machine.total - before.machine.total
  console.log(
    `  machine busy ${((busy / total) * 100).toFixed(0)}% of ${cpus().length} cores; main thread busy ${(((after.main - before.main) / 1e6 / wall) * 100).toFixed(0)}% of the run`,
  )
  // Each sample: a backend's state, wait, statement.
  const tally = new Map<string, number>()
  let samples = 0
  for (const line of out.split('\n')) {
    const [, , state, type, event, statement] = line.split('|')
    if (!state) continue
    samples++
    // An idle backend's statement is the last it ran: "idle in transaction" after it waits for Node.
    const what =
      state === 'active'
        ? `active ${type}/${event} in ${statement?.trim()}`
        : `${state}${type === 'Client' ? '' : ` ${type}/${event}`} after ${statement?.trim()}`
    tally.set(what, (tally.get(what) ?? 0) + 1)
  }
  console.log(`pg_stat_activity, ${samples} backend samples (${backends.length} backends):`)
  for (const [what, k] of [...tally].sort((a, b) => b[1] - a[1]))
    console.log(`  ${((k / samples) * 100).toFixed(1).padStart(5)}%  ${what}`)
})
