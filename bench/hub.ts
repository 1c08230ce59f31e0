/**
 * Hub bench: one person in `--workspaces` workspaces (default 20; `--orgs` is the same flag) of
 * `--tasks` tasks each (default 500; the issue's full size is `--tasks=10000`), seeded in bulk
 * (bench/hub-world.ts): a tenth of the tasks assigned to the person and due within four days either
 * side of today, comments, `assigned` and `mentioned` notifications, dependencies, a running cycle,
 * a daily plan. It checks the hub's answers against a model computed from the seeded rows
 * (`hub.today`'s sections, `hub.inbox`'s first three pages and counts, `hub.search`'s hits: a rare
 * word read to the end, and every hit of the timed queries a real match), then times `--rounds`
 * interleaved rounds (default 30, after 3 warm-up rounds) of: the first and third pages of
 * `hub.search`, `hub.inbox`, `hub.activity` and `hub.tasks`, a prefix search, `hub.resolve` of a key
 * and `hub.today`, through `engine.execute`, each answer checked complete (no `partial`) and free of
 * duplicates. The load average is printed before and after. `--explain` first prints, per read,
 * its costliest statements with their plans (bench/hub-profile.ts); `--seed-only` stops after seeding.
 * SQLite (temp file) by default;
 * `--postgres` uses DATABASE_URL or the local server in a throwaway schema.
 */
import { availableParallelism, loadavg } from 'node:os'
import { checkHub } from './hub-model.ts'
import { explainReads } from './hub-profile.ts'
import { seedHubWorld } from './hub-world.ts'
import { analyzePostgres, failures, fmt, postgres, runBench } from './support.ts'

const flag = (names: string[], fallback: number) => {
  const given = process.argv.find((a) => names.some((n) => a.startsWith(`--${n}=`)))
  return given ? Number(given.split('=')[1]) : fallback
}
const WORKSPACES = flag(['workspaces', 'orgs'], 20)
const TASKS = flag(['tasks'], 500)
const ROUNDS = flag(['rounds', 'samples'], 30)
const LIMIT = 50
/** Notifications are a tenth of the tasks: smaller pages, so there is a third page to time. */
const INBOX_LIMIT = 20
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

await runBench('hub', async (server, schema) => {
  const { engine, storage } = server
  console.log(`${storage.dialect}, node ${process.version}, ${availableParallelism()} cores`)
  console.log(`${WORKSPACES} workspaces x ${TASKS} tasks, ${ROUNDS} interleaved rounds`)
  console.log(`load average before seeding: ${load()}`)
  const started = performance.now()
  const world = await seedHubWorld(server, WORKSPACES, TASKS, (line) => console.log(line))
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  // `--seed-only`: the seeding's time alone (its growth with the size, issue 31).
  if (process.argv.includes('--seed-only')) return
  if (postgres) await analyzePostgres(schema)
  const principal = world.person

  const read = async (id: string, query: Record<string, unknown>) => {
    const result = await engine.execute(id, { query }, principal)
    if (result.status !== 200) throw new Error(`${id}: HTTP ${result.status} ${JSON.stringify(result.body)}`)
    const body = result.body as {
      data: Array<{ id: string; orgId: string }>
      nextCursor?: string | null
      partial: unknown[]
    }
    if (body.partial.length > 0) failures.push(`${id}: partial ${JSON.stringify(body.partial)}`)
    const keys = body.data.map((d) => `${d.orgId}/${d.id}`)
    if (new Set(keys).size !== keys.length) failures.push(`${id}: duplicate rows on a page`)
    return body
  }
  await checkHub(server, world, read)

  const third = async (id: string, query: Record<string, unknown>) => {
    let cursor: string | null | undefined
    for (let page = 0; page < 2; page++) {
      cursor = (await read(id, { ...query, ...(cursor ? { cursor } : {}) })).nextCursor
      if (!cursor) {
        failures.push(`${id}: fewer than three pages`)
        return null
      }
    }
    return cursor
  }
  const searchQuery = { q: 'rocket launch', limit: LIMIT }
  const searchCursor = await third('hub.search', searchQuery)
  const inboxCursor = await third('hub.inbox', { limit: INBOX_LIMIT })
  const activityCursor = await third('hub.activity', { limit: LIMIT })
  const tasksCursor = await third('hub.tasks', { limit: LIMIT })
  const today = async () => {
    const result = await engine.execute('hub.today', { query: { date: world.today } }, principal)
    const body = result.body as Record<string, { items?: unknown[]; more?: boolean }> & { partial: unknown[] }
    if (result.status !== 200 || body.partial.length > 0) failures.push(`hub.today: ${JSON.stringify(body)}`)
  }
  const reads: Array<[string, () => Promise<unknown>]> = [
    ['hub.today', today],
    ['hub.inbox p1', () => read('hub.inbox', { limit: INBOX_LIMIT })],
    ['hub.search q="rocket launch" p1', () => read('hub.search', searchQuery)],
    ['hub.search q="orb" (prefix) p1', () => read('hub.search', { q: 'orb', limit: LIMIT })],
    ['hub.activity p1', () => read('hub.activity', { limit: LIMIT })],
    ['hub.resolve ENG-42', () => read('hub.resolve', { ref: 'ENG-42' })],
    ['hub.tasks (assigned, by due) p1', () => read('hub.tasks', { limit: LIMIT })],
  ]
  if (searchCursor)
    reads.push(['hub.search page 3', () => read('hub.search', { ...searchQuery, cursor: searchCursor })])
  if (inboxCursor)
    reads.push(['hub.inbox page 3', () => read('hub.inbox', { limit: INBOX_LIMIT, cursor: inboxCursor })])
  if (activityCursor)
    reads.push(['hub.activity page 3', () => read('hub.activity', { limit: LIMIT, cursor: activityCursor })])
  if (tasksCursor)
    reads.push(['hub.tasks page 3', () => read('hub.tasks', { limit: LIMIT, cursor: tasksCursor })])

  if (process.argv.includes('--explain')) await explainReads(storage, reads)

  // Rounds interleave the reads, so a burst of load on the machine spreads over all of them.
  const samples = new Map<string, number[]>(reads.map(([label]) => [label, []]))
  console.log(`load average before timing: ${load()}`)
  for (let round = -3; round < ROUNDS; round++) {
    for (const [label, run] of reads) {
      const t0 = performance.now()
      await run()
      if (round >= 0) samples.get(label)!.push(performance.now() - t0)
    }
  }
  for (const [label, values] of samples) console.log(`${label.padEnd(34)} p50 / p99 ms  ${fmt(values)}`)
  console.log(`load average after timing: ${load()}`)
})
