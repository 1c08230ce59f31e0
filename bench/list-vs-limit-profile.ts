/**
 * A CPU profile of this process's main thread (the reference server; the load runs on a worker
 * thread) while `work` runs, taken with the inspector's profiler, summed by area of the code and by
 * function (self time), and written to a `.cpuprofile` for a flame graph (`BENCH_PROFILE_DIR`).
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Areas in the order they are tried: the first pattern that matches the frame's URL wins. */
const AREAS: [string, RegExp][] = [
  ['SQLite driver (better-sqlite3, SQLite itself)', /better-sqlite3/],
  ['pg driver', /node_modules\/(\.pnpm\/)?(pg|pg-protocol|pg-types|pg-pool|postgres-)/],
  ['Kysely (query building, compiling, plugins)', /kysely\/dist/],
  ['workgraph storage adapter', /adapters\/kysely\/src/],
  ['jose (token verification)', /jose/],
  [
    'workgraph HTTP layer (h3 adapter, server)',
    /adapters\/h3\/src|packages\/server\/src|node_modules\/(\.pnpm\/)?(h3|rou3|crossws|srvx)/,
  ],
  ['workgraph engine and core', /packages\/core\/src/],
  ['node internals (http, streams, crypto, timers)', /^node:|^internal\//],
]

export async function profileServer(work: () => Promise<unknown>): Promise<void> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 200 })
  await session.post('Profiler.start')
  await work()
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile }
  session.disconnect()
  const file = join(process.env.BENCH_PROFILE_DIR ?? tmpdir(), `list-vs-limit-${Date.now()}.cpuprofile`)
  writeFileSync(file, JSON.stringify(profile))

  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
  })
  const areas = new Map<string, number>()
  const functions = new Map<string, number>()
  let busy = 0
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame
    // The inspector's own `dispatch` (stopping the profiler serialises it on this thread): not the server.
    if (functionName === 'dispatch' && url === '') continue
    const area =
      functionName === '(idle)'
        ? 'idle'
        : functionName === '(garbage collector)'
          ? 'garbage collection'
          : functionName === '(program)'
            ? 'V8 and native (program)'
            : (AREAS.find(([, re]) => re.test(url))?.[0] ??
              (url === '' ? 'native built-ins (JSON, RegExp, …)' : 'other JavaScript'))
    areas.set(area, (areas.get(area) ?? 0) + us)
    if (area === 'idle') continue
    busy += us
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|packages|adapters)\//, '$1/')}:${lineNumber + 1}`
    functions.set(name, (functions.get(name) ?? 0) + us)
  }
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1)}%`
  console.log(
    `\nself time by area (share of non-idle time, ${(busy / 1000).toFixed(0)} ms; profile in ${file}):`,
  )
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]))
    if (area !== 'idle') console.log(`  ${pct(us).padStart(6)}  ${area}`)
  console.log(`idle: ${((areas.get('idle') ?? 0) / 1000).toFixed(0)} ms\n\ntop functions by self time:`)
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`  ${pct(us).padStart(6)}  ${name}`)
}
