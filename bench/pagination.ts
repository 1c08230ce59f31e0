/**
 * Keyset pagination bench: seeds 10,000 tasks, walks all of them through the HTTP API (checking each comes
 * back exactly once, in order), then times the first page against a deep one, over HTTP and through
 * `engine.execute`. SQLite (temp file, WAL) by default; `--postgres` uses DATABASE_URL or a local server,
 * in a throwaway schema.
 */
import { availableParallelism } from 'node:os'
import type { OrgId, Principal, RawInput, Task, TeamId } from '@workgraph/core'
import { createUser, newId, ranksInOrder } from '@workgraph/core'
import type { TaskRecord } from '@workgraph/core/storage'
import type { RunningServer } from '@workgraph/server'
import { failures, fmt, onPostgres, percentile, postgres, runBench } from './support.ts'

const TASKS = 10_000
const LIMIT = 200
const DEEP_PAGE = 45
const WARMUP = 5
const SAMPLES = 30
const BATCH = 1_000

interface SortCase {
  label: string
  /** The `sort` query parameter; undefined exercises the default (`-createdAt`). */
  param?: string
  key: 'createdAt' | 'updatedAt'
  desc: boolean
}
const SORTS: SortCase[] = [
  { label: 'default (-createdAt)', key: 'createdAt', desc: true },
  { label: 'updatedAt', param: 'updatedAt', key: 'updatedAt', desc: false },
]

type Query = Record<string, string>
type Page = { data: Task[]; nextCursor: string | null }
type PageFn = (query: Query) => Promise<Page>

await runBench('pagination', run)

async function run({ url, engine, storage }: RunningServer, schema: string): Promise<void> {
  console.log(`${storage.dialect}, node ${process.version}, ${availableParallelism()} cores`)
  const user = await createUser(storage, { email: 'bench@example.com', name: 'Bench' })
  const token = await engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read', 'work:write'] })
  const principal = await engine.tokens.verifyAccessToken(token)
  const call = async <T>(id: string, input: RawInput) =>
    (await engine.execute(id, input, principal)).body as T
  const org = await call<{ id: OrgId }>('orgs.create', { body: { name: 'Bench' } })
  const teamBody = { name: 'Bench', key: 'BEN' }
  const team = await call<{ id: TeamId }>('teams.create', { params: { orgId: org.id }, body: teamBody })

  const started = performance.now()
  await seed(storage, org.id, team.id, principal)
  console.log(`seeded ${TASKS} tasks in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  // Without statistics (a fresh bulk load; autoanalyze lags it, or autovacuum is off) Postgres reads every
  // task and sorts them instead of seeking the keyset index. Measure the analysed steady state by default.
  if (postgres && !process.argv.includes('--no-analyze')) {
    await onPostgres(`analyze ${schema}.tasks, ${schema}.teams, ${schema}.workflow_states`)
  }

  const overHttp: PageFn = async (query) => {
    const response = await fetch(`${url}/v1/orgs/${org.id}/tasks?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
    return (await response.json()) as Page
  }
  const paths: Record<string, PageFn> = {
    HTTP: overHttp,
    'engine.execute': (query) => call<Page>('tasks.list', { params: { orgId: org.id }, query }),
  }

  const rows: string[] = []
  for (const sort of SORTS) {
    const deepCursor = await walk(overHttp, sort)
    if (!deepCursor) continue
    const positions = [queryOf(sort), queryOf(sort, deepCursor)]
    for (const [path, fetchPage] of Object.entries(paths)) {
      const [first, deep] = await timePages(fetchPage, positions)
      const ratio = percentile(deep!, 0.5) / percentile(first!, 0.5)
      rows.push(
        `| ${path} | ${sort.label} | ${fmt(first!, 0.95)} | ${fmt(deep!, 0.95)} | ${ratio.toFixed(2)} |`,
      )
    }
  }
  console.log(`\nLatency in ms, median / p95 of ${SAMPLES} requests each after ${WARMUP} warm-up rounds:\n`)
  console.log(`| path | sort | page 1 | page ${DEEP_PAGE} | deep/first (median) |`)
  console.log('| --- | --- | --- | --- | --- |')
  console.log(rows.join('\n'))
}

/**
 * Inserts straight through storage: 10k `tasks.create` calls take over a minute on Postgres. Timestamps come in
 * groups of four equal values (different groups for the two sorts), so ties must be broken by id.
 */
async function seed(storage: RunningServer['storage'], orgId: OrgId, teamId: TeamId, principal: Principal) {
  const member = await storage.read((s) => s.members.findByUser(orgId, principal.userId))
  const states = await storage.read((s) => s.states.listForTeam(orgId, teamId, { includeArchived: false }))
  const state = states.find((st) => st.category === 'backlog') // the default state, as tasks.create picks it
  if (!member || !state) throw new Error('seeding needs the owner membership and a backlog state')
  const base = Date.parse('2025-01-01T00:00:00.000Z')
  const at = (seconds: number) => new Date(base + seconds * 1000).toISOString()
  const ranks = ranksInOrder(TASKS)
  for (let from = 0; from < TASKS; from += BATCH) {
    await storage.transaction(async (store) => {
      for (let i = from; i < Math.min(from + BATCH, TASKS); i++) {
        const shuffled = (i * 7919) % TASKS // 7919 is prime to 10,000: a permutation, so updatedAt order differs
        const task: TaskRecord = {
          id: newId('TaskId'),
          orgId,
          teamId,
          number: await store.teams.nextTaskNumber(orgId, teamId),
          title: `Task ${i}`,
          description: null,
          stateId: state.id,
          assigneeId: null,
          creatorId: member.id,
          priority: 'none',
          estimate: null,
          dueDate: null,
          createdAt: at(Math.floor(i / 4)),
          updatedAt: at(86_400 + Math.floor(shuffled / 4)),
          startedAt: null,
          completedAt: null,
          canceledAt: null,
          archivedAt: null,
          boardRank: ranks[i]!,
        }
        await store.tasks.insert(task)
      }
    })
  }
}

/** Walks the whole list; checks count, uniqueness and order, and returns the cursor of page DEEP_PAGE. */
async function walk(fetchPage: PageFn, sort: SortCase): Promise<string | null> {
  const seen = new Set<string>()
  let previous: Task | null = null
  let cursor: string | null = null
  let deepCursor: string | null = null
  let pages = 0
  const started = performance.now()
  do {
    const page = await fetchPage(queryOf(sort, cursor))
    pages++
    for (const task of page.data) {
      if (seen.has(task.id)) failures.push(`${sort.label}: ${task.id} returned twice (page ${pages})`)
      if (previous && !inOrder(previous, task, sort)) failures.push(`${sort.label}: ${task.id} out of order`)
      seen.add(task.id)
      previous = task
    }
    cursor = page.nextCursor
    if (pages === DEEP_PAGE - 1) deepCursor = cursor
  } while (cursor && pages <= TASKS)
  if (seen.size !== TASKS) failures.push(`${sort.label}: ${seen.size} distinct tasks, expected ${TASKS}`)
  if (!deepCursor) failures.push(`${sort.label}: the walk ended before page ${DEEP_PAGE}`)
  const ms = (performance.now() - started).toFixed(0)
  console.log(`walked ${sort.label} over HTTP: ${pages} pages, ${seen.size} distinct tasks, ${ms} ms`)
  return deepCursor
}

/** Strictly after `a` in the list's (sort key, id) order. ISO strings of one format compare as text. */
function inOrder(a: Task, b: Task, sort: SortCase): boolean {
  const [x, y] = sort.desc ? [b, a] : [a, b]
  return x[sort.key] < y[sort.key] || (x[sort.key] === y[sort.key] && x.id < y.id)
}

function queryOf(sort: SortCase, cursor?: string | null): Query {
  return { limit: String(LIMIT), ...(sort.param ? { sort: sort.param } : {}), ...(cursor ? { cursor } : {}) }
}

/** Alternates the positions in every round, so drift (GC, caches, the OS) hits both alike. */
async function timePages(fetchPage: PageFn, queries: Query[]): Promise<number[][]> {
  const samples = queries.map(() => [] as number[])
  for (let round = 0; round < WARMUP + SAMPLES; round++) {
    for (const [i, query] of queries.entries()) {
      const started = performance.now()
      const page = await fetchPage(query)
      const elapsed = performance.now() - started
      if (page.data.length !== LIMIT) failures.push(`timed page returned ${page.data.length} rows`)
      if (round >= WARMUP) samples[i]!.push(elapsed)
    }
  }
  return samples
}
