/**
 * SSE fan-out bench: one reference server process (spawned, SQLite file by default, `--postgres`
 * for a fresh Postgres database), N concurrent SSE connections (default 1,000, 5,000 and 10,000)
 * opened by several client processes over raw sockets (`bench/sse-client.ts`), tasks created at a steady rate through the
 * API. Reports delivery latency p50/p99 from the write sent (the title carries the time) and from the
 * event's `createdAt` (the server's clock in the write) to the frame read by a client; the writer's
 * latency (each tasks.create round trip while fan-out runs); the CPU time per delivery of the
 * server and of the bench's own clients over the write phase (the clients share the machine, and
 * their parsing competes with the server); and the server's RSS per connection. Fails (exit 1) unless
 * every connection got every event once, in order. `--pin` puts the server alone on CPU 0 and the
 * clients and writer on CPU 1 (Linux `taskset`; Postgres is not pinned). Usage: `ulimit -n 20000;
 * pnpm bench:sse [--postgres] [--sizes=1000,5000] [--users=100] [--seconds=20] [--pin] [--profile=<dir>]`.
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, createUser, newId, type OrgId } from '@workgraph/core'
import { connect, openStorage } from '@workgraph/kysely'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const SIZES = (arg('sizes') ?? '1000,5000,10000').split(',').map(Number)
const USERS = Number(arg('users') ?? 100)
const CLIENTS = Number(arg('clients') ?? 4)
const RATE = Number(arg('rate') ?? 5)
const SECONDS = Number(arg('seconds') ?? 20)
const BASE_URL = 'http://workgraph.bench'
const postgres = process.argv.includes('--postgres')
// The server alone on CPU 0, this process and the clients on CPU 1 (Postgres, shared, is not pinned).
const PIN = process.argv.includes('--pin')
// `--profile=<dir>`: the server writes a V8 CPU profile there when it exits (bench/profile-summary.ts reads it).
const PROFILE = arg('profile')

await main()

async function main(): Promise<void> {
  if (PIN) pin(process.pid, '1')
  const { databaseUrl, drop } = await freshDatabase()
  // Seed: one org, USERS members (role member: org-wide view), tokens for each.
  const storage = await openStorage({ url: databaseUrl })
  const engine = await createEngine({ storage, config: { baseUrl: BASE_URL } })
  const owner = await createUser(storage, { email: 'owner@bench.test', name: 'Owner' })
  const ownerToken = await engine.tokens.issueAccessToken({
    userId: owner.id,
    scopes: ['work:read', 'work:write'],
    ttlSeconds: 3600,
  })
  const principal = await engine.tokens.verifyAccessToken(ownerToken)
  const org = (await engine.execute('orgs.create', { body: { name: 'Bench' } }, principal)).body as {
    id: OrgId
  }
  const team = (
    await engine.execute(
      'teams.create',
      { params: { orgId: org.id }, body: { name: 'T', key: 'T' } },
      principal,
    )
  ).body as { id: string }
  const tokens: string[] = []
  for (let i = 0; i < USERS; i++) {
    const user = await createUser(storage, { email: `u${i}@bench.test`, name: `U${i}` })
    const now = new Date().toISOString()
    await storage.transaction((s) =>
      s.members.insert({
        id: newId('MemberId'),
        orgId: org.id,
        userId: user.id,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    tokens.push(
      await engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read'], ttlSeconds: 3600 }),
    )
  }
  await storage.close()

  console.log(
    `SSE bench on ${postgres ? 'Postgres' : 'SQLite'}: ${USERS} members, ${CLIENTS} client processes, ${RATE} events/s for ${SECONDS} s${PIN ? ', server pinned to CPU 0, the rest to CPU 1' : ''}`,
  )
  console.log(
    '| connections | events | deliveries | p50 / p99 / max ms | from createdAt p50 / p99 ms | writer p50 / p99 / max ms | CPU µs per delivery: server / clients | server RSS idle → connected | RSS per connection |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
  let failed = false
  for (const size of SIZES) {
    const server = await spawnServer(databaseUrl)
    await sleep(1000)
    const idle = rss(server.process.pid!)
    const clients: ChildProcess[] = []
    let opened = 0
    await new Promise<void>((resolve) => {
      for (let c = 0; c < CLIENTS; c++) {
        const count = Math.floor(size / CLIENTS) + (c < size % CLIENTS ? 1 : 0)
        const child = fork(
          join(import.meta.dirname, 'sse-client.ts'),
          [JSON.stringify({ url: server.url, tokens, count })],
          {
            execArgv: ['--conditions=dev-source', '--import', 'tsx'],
          },
        )
        child.on('message', (m: { open?: number }) => {
          if (m.open === undefined) return
          opened += m.open
          if (opened === size) resolve()
        })
        clients.push(child)
      }
    })
    await sleep(2000)
    const connected = rss(server.process.pid!)
    let events = 0
    const writes: number[] = []
    for (const child of clients) child.send('start')
    const cpuBefore = cpuMs(server.process.pid!)
    const started = Date.now()
    while (Date.now() - started < SECONDS * 1000) {
      const tick = Date.now()
      const res = await fetch(`${server.url}/v1/orgs/${org.id}/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ teamId: team.id, title: `t${Date.now()}` }),
      })
      if (res.status !== 201) throw new Error(`write failed: ${res.status} ${await res.text()}`)
      await res.arrayBuffer()
      writes.push(Date.now() - tick)
      events++
      await sleep(Math.max(0, 1000 / RATE - (Date.now() - tick)))
    }
    await sleep(5000)
    const cpuSpent = cpuMs(server.process.pid!) - cpuBefore
    const reports = await Promise.all(clients.map(report))
    server.process.kill('SIGTERM')
    await new Promise((r) => server.process.once('exit', r))
    const sinceSent = reports.flatMap((r) => r.sinceSent).sort((a, b) => a - b)
    const sinceCreated = reports.flatMap((r) => r.sinceCreated).sort((a, b) => a - b)
    const errors = reports.flatMap((r) => r.errors)
    const clientCpu = reports.reduce((sum, r) => sum + r.cpuMs, 0)
    writes.sort((a, b) => a - b)
    const quantile = (values: number[], p: number) =>
      values[Math.min(values.length - 1, Math.floor(p * values.length))] ?? Number.NaN
    const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`
    const perDelivery = (ms: number) => ((ms * 1000) / Math.max(1, sinceSent.length)).toFixed(1)
    console.log(
      `| ${size.toLocaleString('en')} | ${events} | ${sinceSent.length.toLocaleString('en')} of ${(events * size).toLocaleString('en')} | ${quantile(sinceSent, 0.5)} / ${quantile(sinceSent, 0.99)} / ${sinceSent.at(-1)} | ${quantile(sinceCreated, 0.5)} / ${quantile(sinceCreated, 0.99)} | ${quantile(writes, 0.5)} / ${quantile(writes, 0.99)} / ${writes.at(-1)} | ${perDelivery(cpuSpent)} / ${perDelivery(clientCpu)} | ${mb(idle)} → ${mb(connected)} | ${((connected - idle) / size / 1024).toFixed(1)} KB |`,
    )
    // Every connection must have every event once, in order.
    const fewest = Math.min(...reports.map((r) => r.fewest))
    const most = Math.max(...reports.map((r) => r.most))
    if (fewest !== events || most !== events) {
      failed = true
      console.log(`  FAILED: a connection got ${fewest} to ${most} events of ${events}`)
    }
    if (errors.length > 0) {
      failed = true
      console.log(`  FAILED: ${errors.length} client errors, first: ${errors[0]}`)
    }
  }
  await drop()
  if (failed) process.exitCode = 1
  await drop()
}

interface ClientReport {
  sinceSent: number[]
  sinceCreated: number[]
  errors: string[]
  fewest: number
  most: number
  cpuMs: number
}

/** Asks a client process for what it measured; it answers and exits. */
function report(child: ChildProcess): Promise<ClientReport> {
  return new Promise((resolve) => {
    child.on('message', (m: Partial<ClientReport>) => {
      if (m.sinceSent) resolve(m as ClientReport)
    })
    child.send('report')
  })
}

/** Binds a process (its threads, and the children it starts afterwards) to the given CPUs, Linux only. */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' })
}

async function freshDatabase(): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  if (!postgres)
    return { databaseUrl: join(mkdtempSync(join(tmpdir(), 'wg-sse-')), 'bench.db'), drop: async () => {} }
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const name = `wg_sse_${randomBytes(4).toString('hex')}`
  const run = async (sql: string) => {
    const { db, pool } = await connect({ url: admin })
    await pool!.query(sql)
    await db.destroy()
  }
  await run(`create database ${name}`)
  return {
    databaseUrl: admin.replace(/\/[^/]*$/, `/${name}`),
    drop: () => run(`drop database if exists ${name} with (force)`),
  }
}

async function spawnServer(databaseUrl: string): Promise<{ url: string; process: ChildProcess }> {
  const command = PROFILE
    ? // Node refuses --cpu-prof in NODE_OPTIONS: run node itself with tsx as a loader.
      [
        process.execPath,
        '--cpu-prof',
        `--cpu-prof-dir=${PROFILE}`,
        '--conditions=dev-source',
        '--import',
        'tsx',
        'packages/server/src/bin/server.ts',
      ]
    : ['node_modules/.bin/tsx', '--conditions=dev-source', 'packages/server/src/bin/server.ts']
  const child = spawn(PIN ? 'taskset' : command[0]!, PIN ? ['-c', '0', ...command] : command.slice(1), {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      BASE_URL,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  // Never leave the server behind, whatever happens to the bench.
  process.on('exit', () => child.kill('SIGKILL'))
  // PORT=0: the server prints the address it really listens on beside the public BASE_URL.
  const url = await new Promise<string>((resolve) => {
    let out = ''
    child.stdout!.on('data', (c) => {
      out += c
      const api = /Listens\s+(\S+)/.exec(out)
      if (api) resolve(api[1]!)
    })
  })
  return { url, process: child }
}

/** The server's RSS: tsx runs it in a child node process, so sum the process tree. */
function rss(pid: number): number {
  return sumTree(
    pid,
    (p) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))![1]) * 1024,
  )
}

/** CPU time (user + system) the server's process tree has used, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  return sumTree(pid, (p) => {
    const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  })
}

function sumTree(pid: number, measure: (pid: number) => number): number {
  let total = 0
  const visit = (p: number) => {
    try {
      total += measure(p)
      const children = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
      for (const c of children) visit(Number(c))
    } catch {}
  }
  visit(pid)
  return total
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms))
}
