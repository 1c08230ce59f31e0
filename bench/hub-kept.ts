/**
 * `hub.search` and `hub.today` on a kept SQLite world (a file `bench/hub.ts` seeded with BENCH_KEEP=1),
 * through the server of `--checkout` (default: this one), so two checkouts time the same rows in
 * turn: alternate them. Answers are hashed (workspace, id, score of up to four pages of four
 * searches): both checkouts must print the same hash. A server migrates the file it opens, so give
 * each checkout its own copy of the kept file.
 *
 *   npx tsx --conditions=dev-source bench/hub-kept.ts /tmp/a.sqlite --checkout=/work/main --rounds=10
 */
import { createHash } from 'node:crypto'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { fmt } from './support.ts'

const file = process.argv[2]!
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const rounds = Number(option('rounds') ?? 10)
const checkout = resolve(option('checkout') ?? `${import.meta.dirname}/..`)
const { startServer } = (await import(
  `${checkout}/packages/server/src/index.ts`
)) as typeof import('@workgraph/server')
const server = await startServer({
  databaseUrl: file,
  config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
})
const { engine, storage } = server
const user = await storage.read((s) => s.users.getByEmail('hub@example.com'))
const principal = await engine.tokens.verifyAccessToken(
  await engine.tokens.issueAccessToken({ userId: user!.id, scopes: ['work:read'] }),
)
const read = async (id: string, query: Record<string, unknown>) => {
  const result = await engine.execute(id, { query }, principal)
  if (result.status !== 200) throw new Error(`${id}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body as {
    data: Array<{ orgId: string; id: string; score: number }>
    nextCursor?: string | null
  }
}
const hash = createHash('sha256')
const queries = ['rocket launch', 'orb', 'ro', 'zeppelin']
let third: string | null | undefined
for (const q of queries) {
  let cursor: string | null | undefined
  for (let page = 0; page < 4; page++) {
    const body = await read('hub.search', { q, limit: 50, ...(cursor ? { cursor } : {}) })
    hash.update(JSON.stringify(body.data.map((d) => [d.orgId, d.id, d.score])))
    if (q === 'rocket launch' && page === 1) third = body.nextCursor
    cursor = body.nextCursor
    if (!cursor) break
  }
}
console.log(`answers ${hash.digest('hex').slice(0, 16)}`)
const today = new Date().toISOString().slice(0, 10)
const reads: Array<[string, () => Promise<unknown>]> = [
  ['hub.search "rocket launch" p1', () => read('hub.search', { q: 'rocket launch', limit: 50 })],
  ['hub.search "orb" p1', () => read('hub.search', { q: 'orb', limit: 50 })],
  [
    'hub.search "rocket launch" p3',
    () => read('hub.search', { q: 'rocket launch', limit: 50, cursor: third }),
  ],
  ['hub.today', () => engine.execute('hub.today', { query: { date: today } }, principal)],
]
// CPU time as well as wall time: the process reads SQLite on its one thread, so its CPU per read is
// the work itself, which the machine's load moves far less than the wall time.
const samples = new Map(reads.map(([label]) => [label, [] as number[]]))
const cpu = new Map(reads.map(([label]) => [label, [] as number[]]))
console.log(`load before: ${loadavg()[0]!.toFixed(2)}`)
for (let round = -2; round < rounds; round++)
  for (const [label, run] of reads) {
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    await run()
    const used = process.cpuUsage(c0)
    if (round < 0) continue
    samples.get(label)!.push(performance.now() - t0)
    cpu.get(label)!.push((used.user + used.system) / 1000)
  }
for (const [label, values] of samples)
  console.log(
    `${label.padEnd(32)} wall p50 / p99 ms  ${fmt(values)}   CPU p50 / p99 ms  ${fmt(cpu.get(label)!)}`,
  )
console.log(`load after: ${loadavg()[0]!.toFixed(2)}`)
await server.close()
