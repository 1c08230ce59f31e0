/**
 * SSE fan-out bench: one reference server process (spawned, SQLite file by default, `--postgres`
 * for a fresh Postgres database), N concurrent SSE connections (default 1,000, 5,000 and 10,000)
 * opened by several client processes with raw HTTP, tasks created at a steady rate through the API.
 * Reports delivery latency (write sent → event parsed by a client) p50/p99 and the server's RSS per
 * connection, the writer's latency (each tasks.create round trip while fan-out runs) and the server's
 * CPU time per delivery (less sensitive than latency to what else runs on the machine). Usage: `ulimit -n 20000; pnpm bench:sse [--postgres] [--sizes=1000,5000] [--users=100]`.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
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

// Client mode: open connections, report every task.created latency to the parent.
if (process.argv.includes('--client')) {
  const { url, tokens, count } = JSON.parse(process.argv.at(-1)!) as {
    url: string
    tokens: string[]
    count: number
  }
  // Connect in waves, so the server's accept backlog never overflows.
  const connect = (i: number) =>
    new Promise<void>((settle) => {
      const req = request(`${url}/v1/stream/sse?from=now&kinds=task.created`, {
        agent: false,
        headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, accept: 'text/event-stream' },
      })
      req.on('response', (res) => {
        if (res.statusCode !== 200) process.send!({ error: `status ${res.statusCode}` })
        res.setEncoding('utf8')
        let buffer = ''
        res.on('data', (chunk: string) => {
          buffer += chunk
          const frames = buffer.split('\n\n')
          buffer = frames.pop()!
          const now = Date.now()
          for (const frame of frames) {
            const sent = /"title":"t(\d+)"/.exec(frame)
            if (sent) process.send!({ latency: now - Number(sent[1]) })
          }
        })
        settle()
      })
      req.on('error', (error) => {
        process.send!({ error: error.message })
        settle()
      })
      req.end()
    })
  for (let i = 0; i < count; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => connect(i + k)))
  }
  process.send!({ open: count })
} else {
  await main()
}

async function main(): Promise<void> {
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
    `SSE bench on ${postgres ? 'Postgres' : 'SQLite'}: ${USERS} members, ${CLIENTS} client processes, ${RATE} events/s for ${SECONDS} s`,
  )
  console.log(
    '| connections | events | deliveries | p50 ms | p99 ms | max ms | writer p50 / p99 / max ms | server CPU µs per delivery | server RSS idle → connected | RSS per connection |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  for (const size of SIZES) {
    const server = await spawnServer(databaseUrl)
    await sleep(1000)
    const idle = rss(server.process.pid!)
    const latencies: number[] = []
    const clients: ChildProcess[] = []
    let opened = 0
    const errors: string[] = []
    await new Promise<void>((resolve) => {
      for (let c = 0; c < CLIENTS; c++) {
        const count = Math.floor(size / CLIENTS) + (c < size % CLIENTS ? 1 : 0)
        const child = fork(
          process.argv[1]!,
          ['--client', JSON.stringify({ url: server.url, tokens, count })],
          {
            execArgv: ['--conditions=dev-source', '--import', 'tsx'],
          },
        )
        child.on('message', (m: { latency?: number; open?: number; error?: string }) => {
          if (m.latency !== undefined) latencies.push(m.latency)
          if (m.error) errors.push(m.error)
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
    for (const child of clients) child.kill()
    server.process.kill('SIGTERM')
    await new Promise((r) => server.process.once('exit', r))
    latencies.sort((a, b) => a - b)
    writes.sort((a, b) => a - b)
    const quantile = (values: number[], p: number) =>
      values[Math.min(values.length - 1, Math.floor(p * values.length))] ?? Number.NaN
    const q = (p: number) => quantile(latencies, p)
    const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`
    console.log(
      `| ${size.toLocaleString('en')} | ${events} | ${latencies.length.toLocaleString('en')} of ${(events * size).toLocaleString('en')} | ${q(0.5)} | ${q(0.99)} | ${latencies.at(-1)} | ${quantile(writes, 0.5)} / ${quantile(writes, 0.99)} / ${writes.at(-1)} | ${((cpuSpent * 1000) / Math.max(1, latencies.length)).toFixed(1)} | ${mb(idle)} → ${mb(connected)} | ${((connected - idle) / size / 1024).toFixed(1)} KB |`,
    )
    if (errors.length > 0) console.log(`  ${errors.length} client errors, first: ${errors[0]}`)
  }
  await drop()
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
  const child = spawn(
    'node_modules/.bin/tsx',
    ['--conditions=dev-source', 'packages/server/src/bin/server.ts'],
    {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        BASE_URL,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
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
