/**
 * The task list's sides in isolation, for A/B runs of storage code on one seeded file: seeds the
 * permissions world (bench/permissions-world.ts) once into SCRATCH_DB (default /tmp/sk-scratch.sqlite,
 * kept with a .json of its ids), then, on each run, times `store.tasks.list` (limit 50, first page)
 * in CPU time for scopes of 1 team, 1–3 projects, a team and 1–3 projects, 10–20, 17–39 and 100–374
 * projects (programs' and initiatives' sizes), and prints a fingerprint of every first page so two
 * versions of the code can be checked to return the same pages. SCRATCH_DB may be a Postgres URL (an
 * existing, empty database; the ids are kept in /tmp/list-sides-<db>.json): then wall time is timed.
 *   npx tsx --conditions=dev-source bench/list-sides.ts   (SORTS=createdAt:desc,updatedAt:desc ROUNDS=30)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { OrgId, ReadScope, TeamId } from '@workgraph/core'
import type { TaskSort } from '@workgraph/core/storage'
import { connect } from '@workgraph/kysely'
import { startServer } from '@workgraph/server'
import { mulberry32, TEAMS } from './permissions-world.ts'
import { seedWorld } from './seed-world.ts'

const file = process.env.SCRATCH_DB ?? '/tmp/sk-scratch.sqlite'
const postgres = /^postgres(ql)?:/.test(file)
const meta = postgres ? `/tmp/list-sides-${new URL(file).pathname.slice(1)}.json` : `${file}.json`
const fresh = !existsSync(meta)
const server = await startServer({
  databaseUrl: file,
  config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
})
const { storage } = server
let orgId: OrgId
let teamIds: TeamId[]
let projectsByTeam: Record<string, string[]>
if (fresh) {
  const world = await seedWorld(server, 'Bench')
  ;({ orgId, teamIds } = world)
  projectsByTeam = Object.fromEntries(world.projectsByTeam)
  // Statistics and the visibility map, as autovacuum leaves a bulk load (without statistics
  // Postgres planned a one-team page at 45 ms).
  if (postgres) {
    const { db, pool } = await connect({ url: file })
    await pool!.query('vacuum analyze')
    await db.destroy()
  }
  writeFileSync(meta, JSON.stringify({ orgId, teamIds, projectsByTeam }))
} else {
  ;({ orgId, teamIds, projectsByTeam } = JSON.parse(readFileSync(meta, 'utf8')))
}
const projects = Object.values(projectsByTeam).flat()
const random = mulberry32(7)
const pick = (n: number) => {
  const pool = [...projects]
  return Array.from({ length: n }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]!)
}
const base = {
  orgWide: false,
  actorId: 'mem_00000000000000000000000001',
  programIds: [],
  initiativeIds: [],
} as unknown as ReadScope
const scope = (teams: string[], ps: string[]) => ({ ...base, teamIds: teams, projectIds: ps }) as ReadScope
const classes: [string, ReadScope[]][] = [
  ['1 team', Array.from({ length: 10 }, (_, k) => scope([teamIds[(k * 7) % TEAMS]!], []))],
  ['1-3 projects', Array.from({ length: 10 }, (_, k) => scope([], pick(1 + (k % 3))))],
  ['team+1-3', Array.from({ length: 10 }, (_, k) => scope([teamIds[(k * 7) % TEAMS]!], pick(1 + (k % 3))))],
  ['10-20 projects', Array.from({ length: 10 }, (_, k) => scope([], pick(10 + k)))],
  ['17-39 projects', Array.from({ length: 10 }, (_, k) => scope([], pick(17 + 2 * k)))],
  ['team+10-20', Array.from({ length: 10 }, (_, k) => scope([teamIds[(k * 7) % TEAMS]!], pick(10 + k)))],
  ['100-374 projects', Array.from({ length: 10 }, (_, k) => scope([], pick(100 + 30 * k)))],
]
const sorts = (process.env.SORTS ?? 'createdAt:desc')
  .split(',')
  .map((s) => s.split(':') as [TaskSort, 'asc' | 'desc'])
const rounds = Number(process.env.ROUNDS ?? 40)
const list = (s: ReadScope, sort: TaskSort, direction: 'asc' | 'desc') =>
  storage.read((st) =>
    st.tasks.list(orgId, { archived: false }, { sort, direction, after: null, limit: 50 }, s),
  )
const out: string[] = []
for (const [sort, direction] of sorts) {
  // Fingerprint of every first page, to compare variants.
  const pages: string[] = []
  for (const [, scopes] of classes)
    for (const s of scopes) pages.push((await list(s, sort, direction)).map((t) => t.id).join())
  const fp = (await import('node:crypto'))
    .createHash('sha1')
    .update(pages.join('|'))
    .digest('hex')
    .slice(0, 10)
  // CPU time of this process on SQLite (the query runs here); wall time on Postgres (it runs there).
  const times = new Map<string, number[]>()
  for (let r = 0; r < rounds + 5; r++)
    for (const [label, scopes] of classes) {
      const s = scopes[r % scopes.length]!
      const c = process.cpuUsage()
      const w = performance.now()
      await list(s, sort, direction)
      const d = process.cpuUsage(c)
      const ms = postgres ? performance.now() - w : (d.user + d.system) / 1000
      if (r >= 5) times.set(label, [...(times.get(label) ?? []), ms])
    }
  out.push(`${sort}:${direction} pages ${fp}`)
  for (const [label, t] of times) {
    t.sort((a, b) => a - b)
    out.push(
      `  ${label.padEnd(18)} p50 ${postgres ? 'wall' : 'cpu'} ${t[Math.floor(t.length / 2)]!.toFixed(2)} ms`,
    )
  }
}
console.log(out.join('\n'))
await server.close()
