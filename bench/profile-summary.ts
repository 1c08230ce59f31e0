/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof` or the inspector's profiler): the share of
 * non-idle time by area of the code (self time), the top functions by self time, and the top
 * functions and modules by total time (self plus callees, each counted once per sample however
 * often it recurs on the stack). `npx tsx bench/profile-summary.ts <file.cpuprofile> [--top=30]`.
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

export interface CpuProfile {
  nodes: {
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number }
    children?: number[]
  }[]
  samples: number[]
  timeDeltas: number[]
}

/** Areas in the order they are tried: the first pattern that matches the frame's URL wins. */
const AREAS: [string, RegExp][] = [
  ['SQLite driver (better-sqlite3, SQLite itself)', /better-sqlite3/],
  ['pg driver', /node_modules\/(\.pnpm\/)?(pg|pg-protocol|pg-types|pg-pool|postgres-)/],
  ['Kysely (query building, compiling, plugins)', /kysely\/dist/],
  ['TypeBox (validation)', /@sinclair\/typebox/],
  ['workgraph storage adapter', /adapters\/kysely\/src/],
  ['jose (token verification)', /jose/],
  [
    'workgraph HTTP layer (h3 adapter, server)',
    /adapters\/h3\/src|packages\/server\/src|node_modules\/(\.pnpm\/)?(h3|rou3|crossws|srvx)/,
  ],
  ['workgraph engine and core', /packages\/core\/src/],
  ['bench itself', /\/bench\//],
  ['node internals (http, streams, crypto, timers)', /^node:|^internal\//],
]

const SPECIAL: Record<string, string> = {
  '(idle)': 'idle',
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and native (program)',
}

/** A short, stable name for a frame: function, package-relative file and line. */
function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const file = frame.url.replace(/^.*\/(node_modules|packages|adapters|bench)\//, '$1/')
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`
}

function moduleName(url: string): string {
  if (url === '') return '(native)'
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1]!
  return url.replace(/^.*\/(packages|adapters|bench)\//, '$1/')
}

function areaOf(frame: CpuProfile['nodes'][number]['callFrame']): string {
  return (
    SPECIAL[frame.functionName] ??
    AREAS.find(([, re]) => re.test(frame.url))?.[0] ??
    (frame.url === '' ? 'native built-ins (JSON, RegExp, …)' : 'other JavaScript')
  )
}

export interface ProfileSummary {
  /** Non-idle sampled time, µs. */
  busyUs: number
  areas: [string, number][]
  selfByFunction: [string, number][]
  totalByFunction: [string, number][]
  totalByModule: [string, number][]
}

/** Sums a profile's samples by area, by function (self and total) and by module (total). */
export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const selfUs = new Map<number, number>()
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i] ?? 0))
  })
  const add = (m: Map<string, number>, k: string, us: number) => m.set(k, (m.get(k) ?? 0) + us)
  const areas = new Map<string, number>()
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  const modules = new Map<string, number>()
  let busyUs = 0
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame
    // The inspector's own `dispatch` (stopping the profiler serialises it on this thread).
    if (frame.functionName === 'dispatch' && frame.url === '') continue
    const area = areaOf(frame)
    add(areas, area, us)
    if (area === 'idle') continue
    busyUs += us
    add(self, frameName(frame), us)
    const names = new Set<string>()
    const mods = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame
      if (f.functionName === '(root)') continue
      names.add(frameName(f))
      if (!SPECIAL[f.functionName]) mods.add(moduleName(f.url))
    }
    for (const n of names) add(total, n, us)
    for (const m of mods) add(modules, m, us)
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1])
  return {
    busyUs,
    areas: sorted(areas).filter(([a]) => a !== 'idle'),
    selfByFunction: sorted(self),
    totalByFunction: sorted(total),
    totalByModule: sorted(modules),
  }
}

/** Prints a summary; `per` divides the times (say, by the number of requests) for a per-request figure. */
export function printSummary(summary: ProfileSummary, options: { top?: number; per?: number } = {}): void {
  const top = options.top ?? 30
  const per = options.per ?? 1
  const pct = (us: number) => `${((us / summary.busyUs) * 100).toFixed(1)}%`.padStart(6)
  const each = (us: number) => `${(us / per / 1000).toFixed(3)} ms`.padStart(10)
  const unit = per === 1 ? 'total' : `per one of ${per}`
  const list = (title: string, rows: [string, number][], n: number) => {
    console.log(`\n${title} (share of non-idle time, ${unit}):`)
    for (const [name, us] of rows.slice(0, n)) console.log(`  ${pct(us)} ${each(us)}  ${name}`)
  }
  console.log(`\nnon-idle sampled time: ${(summary.busyUs / 1000).toFixed(0)} ms`)
  list('self time by area', summary.areas, summary.areas.length)
  list('top functions by self time', summary.selfByFunction, top)
  list('top functions by total time', summary.totalByFunction, top)
  list('modules by total time', summary.totalByModule, top)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'))
  if (!file) throw new Error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [--top=30] [--per=N]')
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  printSummary(summariseProfile(profile), { top: Number(arg('top') ?? 30), per: Number(arg('per') ?? 1) })
}
