/**
 * Cold start: milliseconds from spawning the server's start command to the first 200 from
 * `GET /v1/config`, on a fresh SQLite file (the first start builds the schema) and on a copy of one
 * already built (every later start); `--database=fresh` or `--database=migrated` for one of them.
 * Runs each command `--runs` times (default 7), interleaved, and prints the median and the range.
 * Commands: what `pnpm start` runs (`node scripts/start.cjs`: the bundle built by `build:server`,
 * dist/server/server.cjs, with its code cache) and the source under tsx (`pnpm start:source`);
 * `--only=built` or `--only=source`. `--against=/path/to/checkout` adds that checkout's
 * `pnpm start` (its bundle built) to the rotation, for a before/after on the same machine.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const runs = Number(arg('runs') ?? 7)
const only = arg('only')
type Database = 'fresh' | 'migrated'
const databases: Database[] = arg('database') ? [arg('database') as Database] : ['fresh', 'migrated']
const root = join(import.meta.dirname, '..')
const bundle = join(root, 'dist/server/server.cjs')
const against = arg('against')
/** A checkout's `pnpm start` script: `start.cjs`, or `start.mjs` in checkouts before it. */
const startOf = (checkout: string) =>
  ['start.cjs', 'start.mjs'].map((f) => join(checkout, 'scripts', f)).find((f) => existsSync(f))!
const commands: Record<string, string[]> = {
  built: ['node', startOf(root)],
  // Another checkout's `pnpm start` (its bundle built), e.g. main's, run in turn with this one's.
  ...(against ? { against: ['node', startOf(against)] } : {}),
  source: [
    join(root, 'node_modules/.bin/tsx'),
    '--conditions=dev-source',
    'packages/server/src/bin/server.ts',
  ],
}
const migrated = join(mkdtempSync(join(tmpdir(), 'workgraph-cold-migrated-')), 'db.sqlite')
if (!only || only === 'built') {
  if (!existsSync(bundle))
    throw new Error(`${bundle} is missing: run \`npx pnpm@10.34.8 build:server\` first`)
}

/** The median and the like, without loading the server (support.ts imports it). */
function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const pos = (sorted.length - 1) * q
  const lo = sorted[Math.floor(pos)]!
  return lo + (sorted[Math.ceil(pos)]! - lo) * (pos - Math.floor(pos))
}

/** A port nobody holds right now (others share this machine). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
/**
 * CPU time of a live process so far, in ms: each thread's time on a CPU from the scheduler
 * (/proc/<pid>/task/<tid>/schedstat, nanoseconds; /proc/<pid>/stat counts 10 ms ticks, too coarse
 * to tell two starts apart). Threads that already ended are not in it.
 */
function cpuMs(pid: number): number {
  let ns = 0
  for (const tid of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
  return ns / 1e6
}

/**
 * One start with a database of `kind`: `fresh` is a new file (the first start builds the schema),
 * `migrated` a copy of a file a start has already built (every later start). `keep` keeps the file.
 */
async function once(
  command: string[],
  kind: Database,
  keep?: string,
): Promise<{ wall: number; cpu: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-cold-'))
  if (kind === 'migrated') copyFileSync(migrated, join(dir, 'db.sqlite'))
  const p = await freePort()
  const started = performance.now()
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(p),
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'db.sqlite'),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${child.exitCode}`)
      try {
        const response = await fetch(`http://127.0.0.1:${p}/v1/config`)
        if (response.status === 200) {
          const wall = performance.now() - started
          await response.arrayBuffer()
          return { wall, cpu: cpuMs(child.pid!) }
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
    // The server folds its write-ahead log into the file when it stops.
    if (keep) copyFileSync(join(dir, 'db.sqlite'), keep)
    rmSync(dir, { recursive: true, force: true })
  }
}

const names = Object.keys(commands)
  .filter((n) => !only || n === only || n === 'against')
  .flatMap((n) => databases.map((d) => `${n}/${d}`))
const times: Record<string, { wall: number; cpu: number }[]> = Object.fromEntries(names.map((n) => [n, []]))
const commandOf = (name: string) => commands[name.split('/')[0]!]!
// Warms the OS file cache and leaves the migrated file the `migrated` starts copy; not counted.
await once(commandOf(names[0]!), 'fresh', migrated)
for (let i = 0; i < runs; i++)
  for (const name of names) times[name]!.push(await once(commandOf(name), name.split('/')[1] as Database))
console.log(
  `cold start to the first /v1/config (ms; CPU = the server process's threads' time on a CPU until then), ${runs} runs each, interleaved; load average ${loadavg()[0]!.toFixed(1)}`,
)
// Node reads and parses these certificates before any JavaScript runs, at every start: on the
// development machine `node -e 0` took 125 ms of CPU with the variable set and 30 ms without (load 9).
if (process.env.NODE_EXTRA_CA_CERTS)
  console.log(
    `NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}): every start below includes Node loading those certificates`,
  )
for (const name of names) {
  const wall = times[name]!.map((t) => t.wall)
  const cpu = times[name]!.map((t) => t.cpu)
  console.log(
    `${name.padEnd(16)} wall median ${percentile(wall, 0.5).toFixed(0)} (min ${Math.min(...wall).toFixed(0)}, max ${Math.max(...wall).toFixed(0)}), ` +
      `CPU median ${percentile(cpu, 0.5).toFixed(0)} (min ${Math.min(...cpu).toFixed(0)}, max ${Math.max(...cpu).toFixed(0)})   ${commandOf(name).join(' ')}`,
  )
}
