/**
 * The real components of a scaled-out deployment, started on loopback for one test with generated
 * configuration in a temporary directory: Debian's PgBouncer (transaction pooling) in front of
 * Postgres and HAProxy (round robin, readiness probe) in front of the server instances. Each is a
 * child process the test stops; nothing runs as a service.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { freePort } from '../ports.ts'

const BINARIES = { pgbouncer: '/usr/sbin/pgbouncer', haproxy: '/usr/sbin/haproxy' }

/** The binaries that are missing, by name (empty when both are installed). */
export function missingClusterBinaries(): string[] {
  return Object.entries(BINARIES)
    .filter(([name]) => spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0)
    .map(([name]) => name)
}

export interface Component {
  child: ChildProcess
  port: number
  /** Everything it printed, for a failure message. */
  output(): string
}

function run(command: string, args: string[], cwd: string): Omit<Component, 'port'> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (c) => (out += c))
  child.stderr!.on('data', (c) => (out += c))
  return { child, output: () => out }
}

async function waitFor(what: string, component: Component, ready: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (component.child.exitCode !== null)
      throw new Error(`${what} exited with ${component.child.exitCode}:\n${component.output()}`)
    if (await ready().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what} was not ready after 10 s:\n${component.output()}`)
}

/**
 * PgBouncer in `pool_mode = transaction` before database `database` of the Postgres at `upstream`
 * (trusted user `user`): `default_pool_size` server connections shared by every client. With
 * `anyDatabase`, every database of that Postgres is served under its own name (the test suite makes
 * one per suite), and an idle server connection is closed after a second, so that Postgres can drop
 * or copy the database soon after its suite.
 */
export async function startPgBouncer(
  dir: string,
  upstream: URL,
  options: { poolSize?: number; anyDatabase?: boolean } = {},
): Promise<Component & { url: string }> {
  const port = await freePort()
  const database = upstream.pathname.slice(1)
  const user = decodeURIComponent(upstream.username) || 'postgres'
  const server = `host=${upstream.hostname} port=${upstream.port || 5432}`
  const ini = join(dir, 'pgbouncer.ini')
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`)
  writeFileSync(
    ini,
    [
      '[databases]',
      options.anyDatabase ? `* = ${server}` : `${database} = ${server} dbname=${database} user=${user}`,
      '[pgbouncer]',
      ...(options.anyDatabase ? ['server_idle_timeout = 1'] : []),
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 20}`,
      'max_client_conn = 500',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  )
  // PgBouncer refuses to run as root: as root, it drops to the postgres account, which must read its files.
  const asRoot = process.getuid?.() === 0
  if (asRoot) chmodSync(dir, 0o755)
  const bouncer = { ...run(BINARIES.pgbouncer, [...(asRoot ? ['-u', 'postgres'] : []), ini], dir), port }
  const url = `postgres://${user}@127.0.0.1:${port}/${database}`
  await waitFor('PgBouncer', bouncer, async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('select 1')
    await client.end()
    return true
  })
  return { ...bouncer, url }
}

export interface Balancer extends Component {
  url: string
  /** Each backend server's state as HAProxy sees it (`UP`, `DOWN`, …), by name (`s1`, …). */
  states(): Promise<Record<string, string>>
  /** How many requests each backend server was sent so far, by name. */
  sessions(): Promise<Record<string, number>>
}

/**
 * HAProxy on loopback before `backends` (ports): round robin, each probed on `GET /readyz` every
 * 200 ms, out after two failures in a row and back after two successes. A request whose connection to a
 * server fails is sent to another (never a request already sent: a POST is not idempotent).
 */
export async function startHaproxy(dir: string, backends: number[]): Promise<Balancer> {
  const [port, statsPort] = [await freePort(), await freePort()]
  const cfg = join(dir, 'haproxy.cfg')
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      // Streams (SSE) stay open longer than a request; the server pings them every 25 s.
      '  timeout tunnel 1h',
      '  retries 2',
      '  option redispatch',
      '  retry-on conn-failure',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  default_backend app',
      'backend app',
      '  balance roundrobin',
      // Which instance answered, for the tests that follow one session across instances.
      '  http-response set-header x-served-by %s',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      '  default-server inter 200ms fall 2 rise 2',
      ...backends.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check`),
      'listen stats',
      `  bind 127.0.0.1:${statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      '',
    ].join('\n'),
  )
  const proxy = { ...run(BINARIES.haproxy, ['-db', '-f', cfg], dir), port }
  const url = `http://127.0.0.1:${port}`
  // HAProxy's statistics as CSV: a header (`# pxname,svname,…`), then a row per proxy and server.
  const column = async (name: string) => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text()
    const rows = csv.split('\n').map((line) => line.split(','))
    const at = rows[0]!.indexOf(name)
    return Object.fromEntries(
      rows.filter((r) => r[0] === 'app' && /^s\d+$/.test(r[1] ?? '')).map((r) => [r[1]!, r[at]!]),
    )
  }
  const states = () => column('status')
  const sessions = async () =>
    Object.fromEntries(Object.entries(await column('stot')).map(([k, v]) => [k, Number(v)]))
  await waitFor('HAProxy', proxy, async () => (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).ok)
  return { ...proxy, url, states, sessions }
}

/** SIGTERM, and SIGKILL if it has not exited within `graceMs`. */
export async function stopComponent(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}
