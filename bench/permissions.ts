/**
 * Permissions-at-scale bench: one org with 100,000 tasks over 50 teams and 1,000 projects, and 1,000 members
 * (admins, members, guests) holding a mix of team, project and org grants, seeded straight through storage. For a sample of actors of each kind it
 * checks that the first page of `tasks.list` is exactly what a model of the grants says the actor can see,
 * then times that page through `engine.execute` and over HTTP, and times the storage query with the
 * permission predicate against the same query without it (plus `loadProfile`, the per-request grants
 * look-up). It ends with the query plan of the scoped query. SQLite (temp file, WAL) by default;
 * `--postgres` uses DATABASE_URL or a local server, in a throwaway schema.
 */
import { availableParallelism } from 'node:os'
import type { Actor, OrgId, Principal, RawInput, ReadScope, Task, TeamId } from '@workgraph/core'
import { loadProfile, readScope, UNSCOPED } from '@workgraph/core'
import type { TaskFilter } from '@workgraph/core/storage'
import type { RunningServer } from '@workgraph/server'
import { CLASSES, type Kind, type Person, type Row, TASKS } from './permissions-world.ts'
import { seedWorld } from './seed-world.ts'
import { analyzePostgres, failures, fmt, percentile, postgres, runBench } from './support.ts'

const LIMIT = 50
const ACTORS_PER_CLASS = 10
const WARMUP = 20
const SAMPLES = 200
/** Guests whose whole visible list is walked through the engine and compared with the model. */
const WALKS = 4

interface Sampled {
  person: Person
  actor: Actor
  principal: Principal
  token: string
  scope: ReadScope
  visible: Row[]
  /** A guest that sees exactly one team: the unscoped query filtered to that team returns the same page. */
  teamFilter: TaskFilter | null
}
type Page = { data: Task[]; nextCursor: string | null }

await runBench('perm', run)

async function run(server: RunningServer, schema: string): Promise<void> {
  const { engine, storage } = server
  console.log(`${storage.dialect}, node ${process.version}, ${availableParallelism()} cores`)
  const world = await seedWorld(server, 'Bench')
  const { people, access, rows } = world
  const org = { id: world.orgId }
  if (postgres) await analyzePostgres(schema)
  const call = async <T>(id: string, input: RawInput, principal: Principal) => {
    const result = await engine.execute(id, input, principal)
    if (result.status >= 300) throw new Error(`${id}: HTTP ${result.status} ${JSON.stringify(result.body)}`)
    return result.body as T
  }

  // The model: which teams and projects each actor sees, from the seeded grants alone (not from the
  // engine). A task is visible when its team or its project is.
  const visibleTeams = (person: Person): Set<string> | 'all' => {
    if (person.role !== 'guest') return 'all'
    const mine = access.teamsOf.get(person.memberId) ?? new Set<string>()
    const reaching = access.grants.filter(
      (g) => g.subjectId === person.memberId || (g.subjectType === 'team' && mine.has(g.subjectId)),
    )
    if (reaching.some((g) => g.containerType === 'org')) return 'all'
    return new Set(reaching.map((g) => g.containerId))
  }
  const sorted = [...rows].sort(byCreatedDesc)

  const sampled = new Map<Kind, Sampled[]>()
  for (const { kind } of CLASSES) {
    const candidates = people
      .filter((p) => p.kind === kind)
      .map((person) => {
        const teams = visibleTeams(person)
        const visible = sorted.filter(
          (r) =>
            !r.archived &&
            (teams === 'all' || teams.has(r.teamId) || (r.projectId !== null && teams.has(r.projectId))),
        )
        return { person, teams, visible }
      })
      .sort((a, b) => a.visible.length - b.visible.length || a.person.index - b.person.index)
    // Evenly spaced by how much they see, so each class spans its smallest and its largest view.
    const picks = spaced(candidates, ACTORS_PER_CLASS)
    const list: Sampled[] = []
    for (const { person, teams, visible } of picks) {
      const token = await engine.tokens.issueAccessToken({ userId: person.user.id, scopes: ['work:read'] })
      const actor: Actor = {
        id: person.memberId,
        kind: 'person',
        orgId: org.id,
        role: person.role,
        userId: person.user.id,
        name: person.user.name,
      }
      const scope = readScope(await storage.read((s) => loadProfile(s, actor)))
      if (scope.orgWide !== (teams === 'all'))
        failures.push(
          `${kind} ${person.memberId}: readScope says orgWide=${scope.orgWide}, the model disagrees`,
        )
      const only =
        teams !== 'all' && teams.size === 1 && [...teams][0]!.startsWith('team_')
          ? ([...teams][0] as TeamId)
          : undefined
      list.push({
        person,
        actor,
        principal: await engine.tokens.verifyAccessToken(token),
        token,
        scope,
        visible,
        teamFilter: only ? { archived: false, teamId: only } : null,
      })
    }
    sampled.set(kind, list)
  }

  // The client and the server share one event loop: when a slow step keeps it busy past the server's
  // keep-alive timeout, fetch may reuse a socket the server has just closed (ECONNRESET). Such a
  // request is sent once more on a fresh connection, and counted.
  let resets = 0
  const overHttp = async (s: Sampled, query: Record<string, string>): Promise<Page> => {
    const send = () =>
      fetch(`${server.url}/v1/orgs/${org.id}/tasks?${new URLSearchParams(query)}`, {
        headers: { authorization: `Bearer ${s.token}` },
      })
    const response = await send().catch((error) => {
      if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error
      resets++
      return send()
    })
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
    return (await response.json()) as Page
  }
  const viaEngine = (s: Sampled, query: Record<string, string>) =>
    call<Page>('tasks.list', { params: { orgId: org.id }, query }, s.principal)
  const firstPage = { sort: 'createdAt' as const, direction: 'desc' as const, after: null, limit: LIMIT }
  const scopedPage = (s: Sampled) =>
    storage.read((st) => st.tasks.list(org.id, { archived: false }, firstPage, s.scope))
  const unscopedPage = (filter: TaskFilter) =>
    storage.read((st) => st.tasks.list(org.id, filter, firstPage, UNSCOPED))

  // Correctness: the first page through every path equals the model's, for every sampled actor.
  for (const [kind, list] of sampled) {
    for (const s of list) {
      const expected = s.visible.slice(0, LIMIT).map((r) => r.id)
      const pages: [string, string[]][] = [
        ['engine', (await viaEngine(s, { limit: String(LIMIT) })).data.map((t) => t.id)],
        ['HTTP', (await overHttp(s, { limit: String(LIMIT) })).data.map((t) => t.id)],
        ['storage', (await scopedPage(s)).slice(0, LIMIT).map((t) => t.id)],
      ]
      for (const [path, ids] of pages) {
        if (ids.join() !== expected.join())
          failures.push(`${kind} ${s.person.memberId} via ${path}: ${ids.length} ids, expected ${expected.length}; \
first difference at ${ids.findIndex((id, i) => id !== expected[i])}`)
      }
    }
  }
  // And whole lists for a few guests: every visible task once, in order, and nothing else.
  const started = performance.now()
  const walkers = ['guest-1', 'guest-few', 'guest-many', 'guest-team-projects'].map((k) => {
    const list = sampled.get(k as Kind)!
    return list[Math.floor(list.length / 2)]!
  })
  for (const s of walkers.slice(0, WALKS)) {
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const page: Page = await viaEngine(s, { limit: '200', ...(cursor ? { cursor } : {}) })
      ids.push(...page.data.map((t) => t.id))
      cursor = page.nextCursor
    } while (cursor && ids.length <= TASKS)
    if (ids.join() !== s.visible.map((r) => r.id).join())
      failures.push(
        `${s.person.kind} ${s.person.memberId}: walked ${ids.length} tasks, model has ${s.visible.length}`,
      )
  }
  const walked = walkers.map((s) => s.visible.length).join(', ')
  console.log(
    `walked ${walked} tasks of ${WALKS} guests through the engine in ${(performance.now() - started).toFixed(0)} ms`,
  )
  console.log(
    failures.length === 0
      ? 'correctness: every first page (engine, HTTP, storage) and every walk matched the model'
      : `correctness: ${failures.length} problems, listed at the end`,
  )

  // Timing: each round takes the next actor of the class and runs every path once, in a rotating order.
  const paths: Record<string, (s: Sampled) => Promise<unknown>> = {
    engine: (s) => viaEngine(s, { limit: String(LIMIT) }),
    http: (s) => overHttp(s, { limit: String(LIMIT) }),
    scoped: scopedPage,
    unscoped: () => unscopedPage({ archived: false }),
    'unscoped-team': (s) => unscopedPage(s.teamFilter!),
    profile: (s) => storage.read((st) => loadProfile(st, s.actor)),
  }
  const table: string[] = []
  const notes: string[] = []
  for (const { kind, label } of CLASSES) {
    const list = sampled.get(kind)!
    const names = Object.keys(paths).filter((n) => n !== 'unscoped-team' || list.every((s) => s.teamFilter))
    const samples = Object.fromEntries(names.map((n) => [n, [] as number[]]))
    for (let round = 0; round < WARMUP + SAMPLES; round++) {
      const s = list[round % list.length]!
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length]!
        const t0 = performance.now()
        await paths[name]!(s)
        if (round >= WARMUP) samples[name]!.push(performance.now() - t0)
      }
    }
    const [scoped, unscoped] = [percentile(samples.scoped!, 0.5), percentile(samples.unscoped!, 0.5)]
    const share = (base: number) => `${Math.round(((scoped - base) / scoped) * 100)}%`
    const team = samples['unscoped-team']
    if (team) {
      notes.push(
        `${label}: the unscoped query filtered to the guest's one team (\`teamId\`, the same rows) took ` +
          `${fmt(team)} ms; the predicate's share against that is ${share(percentile(team, 0.5))}.`,
      )
    }
    const returned = list.map((s) => Math.min(LIMIT, s.visible.length))
    const visible = list.map((s) => s.visible.length)
    table.push(
      `| ${label} | ${span(visible)} | ${span(returned)} | ${fmt(samples.engine!)} | ${fmt(samples.http!)} | ` +
        `${fmt(samples.scoped!)} | ${fmt(samples.unscoped!)} | ${share(unscoped)} | ${fmt(samples.profile!)} |`,
    )
  }
  console.log(
    `\nLatency in ms, p50 / p99 of ${SAMPLES} requests per class (${ACTORS_PER_CLASS} actors in turn) after ` +
      `${WARMUP} warm-up requests. First page, limit ${LIMIT}, default sort (-createdAt).\n`,
  )
  console.log(
    '| class | visible tasks | rows returned | engine.execute | HTTP | storage, scoped | storage, unscoped (org-wide page) | predicate share (p50) | loadProfile |',
  )
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  console.log(table.join('\n'))
  console.log(`\n${notes.join('\n')}`)
  console.log(`HTTP requests sent again after a reset keep-alive socket: ${resets}`)

  await explain(server, org.id, sampled)
}

/**
 * The plan of the scoped first-page query for a few guests and an admin. The SQL is the one the task repo
 * compiles: a plugin on a second storage over the same connection records it before it runs.
 */
async function explain({ storage }: RunningServer, orgId: OrgId, sampled: Map<Kind, Sampled[]>) {
  // The page query as run, with its values, recorded at Kysely's executor (the hot list is compiled
  // once with stand-ins, so a plugin would not see the values; and a page runs more queries after it).
  let compiled: { sql: string; parameters: readonly unknown[] } | null = null
  let recording = false
  const executor = Object.getPrototypeOf(Object.getPrototypeOf(storage.db.getExecutor())) as {
    executeQuery: (
      query: { sql: string; parameters: readonly unknown[] },
      ...rest: unknown[]
    ) => Promise<unknown>
  }
  const execute = executor.executeQuery
  executor.executeQuery = function (this: unknown, query, ...rest) {
    if (recording && /from "tasks" inner join "teams"/.test(query.sql))
      compiled = { sql: query.sql, parameters: [...query.parameters] }
    return execute.call(this, query, ...rest)
  }
  const page = { sort: 'createdAt' as const, direction: 'desc' as const, after: null, limit: LIMIT }
  const smallest = (kind: Kind) => sampled.get(kind)![0]!
  const cases: [string, Sampled, TaskFilter, ReadScope][] = [
    ['admin (no predicate)', smallest('admin'), { archived: false }, smallest('admin').scope],
    [
      'guest, 1 team (the smallest sampled team)',
      smallest('guest-1'),
      { archived: false },
      smallest('guest-1').scope,
    ],
    [
      'unscoped, teamId filter on that same team',
      smallest('guest-1'),
      smallest('guest-1').teamFilter!,
      UNSCOPED,
    ],
    [
      'guest, via team memberships',
      sampled.get('guest-many')!.at(-1)!,
      { archived: false },
      sampled.get('guest-many')!.at(-1)!.scope,
    ],
    ['guest, no grants', smallest('guest-none'), { archived: false }, smallest('guest-none').scope],
    [
      'guest, 1–3 projects (the smallest)',
      smallest('guest-projects'),
      { archived: false },
      smallest('guest-projects').scope,
    ],
    [
      'guest, 1 team + 1–3 projects (the largest)',
      sampled.get('guest-team-projects')!.at(-1)!,
      { archived: false },
      sampled.get('guest-team-projects')!.at(-1)!.scope,
    ],
  ]
  const prefix = postgres ? 'explain (analyze, buffers, costs off) ' : 'explain query plan '
  for (const [label, s, filter, scope] of cases) {
    compiled = null
    recording = true
    await storage.read((st) => st.tasks.list(orgId, filter, page, scope))
    recording = false
    const query = compiled as { sql: string; parameters: readonly unknown[] } | null
    if (!query) throw new Error('no query recorded')
    // The recorded CompiledQuery with EXPLAIN in front: same parameters, same connection settings.
    const result = await storage.db.executeQuery<Record<string, unknown>>({
      ...query,
      sql: prefix + query.sql,
    } as never)
    const lines = result.rows.map((r) => String(postgres ? Object.values(r)[0] : r.detail))
    console.log(`\n### ${label}: ${s.visible.length} visible tasks\n`)
    if (label.startsWith('guest, 1 team (') || label.startsWith('guest, 1 team +'))
      console.log(`${query.sql}\n`)
    console.log(lines.map((l) => `    ${l}`).join('\n'))
  }
}

/** `count` items evenly spaced through `items`, first and last included. */
function spaced<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))]!)
}

function byCreatedDesc(a: Row, b: Row): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

function span(values: number[]): string {
  const [lo, hi] = [Math.min(...values), Math.max(...values)]
  return lo === hi ? String(lo) : `${lo}–${hi}`
}
