/**
 * Workgraph against Directus 11 on the same permission-filtered list (issue 16): the first and second
 * page of 50 tasks, newest first, for a guest who may read one team and for the org's owner
 * (Directus: its administrator), at concurrency 1 and 32, in interleaved A/B rounds.
 *
 * Workgraph is the reference server on the permissions bench's org (bench/permissions-world.ts: 100,000
 * tasks, 50 teams, 1,000 members), started here as every bench does (bench/support.ts `runBench`).
 * Directus runs on its own, outside the repository (`bench/directus-setup.sh start` installs and starts
 * it; docs/performance-log.md, "Workgraph against Directus 11", says how); this script fails at once if
 * it does not answer at DIRECTUS_URL. It copies the org's teams and tasks into Directus's database
 * (DIRECTUS_DATABASE_URL) with the indexes the pages need, gives Directus the relations the permission
 * filter walks (tasks.team_id → teams, teams.grants ← team_grants.team_id), a policy whose read
 * permission on `tasks` is `{"team_id":{"grants":{"user_id":{"_eq":"$CURRENT_USER"}}}}`, a role with
 * that policy and a guest user with one team grant: the same team as workgraph's one-team guest. Both
 * sides must return the same task ids in the same order for every page before anything is timed.
 *
 * Directus's page: `GET /items/tasks?limit=50&sort=-created_at,-id&filter[archived_at][_null]=true`
 * (page two: `&page=2`, an offset), with a login JWT. Workgraph's: `GET /v1/orgs/{orgId}/tasks?limit=50`
 * (page two: its `nextCursor`), with a workgraph access token. The ratio is workgraph / Directus, the
 * median of the rounds' throughput ratios; the CPU columns are each server's main thread (Directus's
 * only when DIRECTUS_PID is set). `--postgres` (workgraph on Postgres too), `--rounds=3`, `--count=400`
 * (requests per round and side at concurrency 32; a quarter of that at 1). Not run by tests or CI.
 */
import { availableParallelism, loadavg } from 'node:os'
import type { UserId } from '@workgraph/core'
import pg from 'pg'
import { abRounds } from './ab-rounds.ts'
import { seedWorld } from './seed-world.ts'
import { analyzePostgres, failures, fmt, postgres, runBench } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const ROUNDS = Number(arg('rounds') ?? 3)
const COUNT = Number(arg('count') ?? 400)
const LIMIT = 50
const DIRECTUS_URL = (process.env.DIRECTUS_URL ?? 'http://127.0.0.1:8055').replace(/\/$/, '')
const DIRECTUS_DATABASE_URL =
  process.env.DIRECTUS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/directus_bench'
const ADMIN = {
  email: process.env.DIRECTUS_ADMIN_EMAIL ?? 'admin@example.com',
  password: process.env.DIRECTUS_ADMIN_PASSWORD ?? 'bench-admin-password',
}
const GUEST = { email: 'bench-guest@example.com', password: 'bench-guest-password' }
const DIRECTUS_PID = process.env.DIRECTUS_PID ? Number(process.env.DIRECTUS_PID) : null
const PERMISSION = { team_id: { grants: { user_id: { _eq: '$CURRENT_USER' } } } }
const DIRECTUS_PAGE = `/items/tasks?limit=${LIMIT}&sort=-created_at,-id&filter[archived_at][_null]=true`

// Before seeding anything (a minute of work): is Directus there?
try {
  const res = await fetch(`${DIRECTUS_URL}/server/ping`, { signal: AbortSignal.timeout(5_000) })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
} catch (error) {
  console.error(
    `Directus is not running at DIRECTUS_URL=${DIRECTUS_URL} (${(error as Error).message}).\n` +
      'Start Directus 11 first (`bench/directus-setup.sh start`, which installs it; see docs/performance-log.md, "Workgraph against Directus 11"), or point DIRECTUS_URL at it.',
  )
  process.exit(1)
}

await runBench('dx', async (server, schema) => {
  const { engine, storage, url } = server
  const loadAverage = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')
  console.log(
    `${storage.dialect}, node ${process.version}, ${availableParallelism()} cores, load average ${loadAverage()}`,
  )
  const world = await seedWorld(server, 'Directus comparison')
  const { owner, people, access } = world
  const org = { id: world.orgId }
  if (postgres) await analyzePostgres(schema)
  const guest = people.find((p) => p.kind === 'guest-1')!
  const guestTeam = access.grants.find((g) => g.subjectId === guest.memberId)!.containerId

  const wgToken = (userId: string) =>
    engine.tokens.issueAccessToken({ userId: userId as UserId, scopes: ['work:read'] })
  let started = performance.now()
  const directusPg = new pg.Client({ connectionString: DIRECTUS_DATABASE_URL })
  await directusPg.connect()
  const admin = await directusSetUp(directusPg, storage, guestTeam)
  await directusPg.end()
  console.log(`Directus loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const directusVersion = ((await api(admin.token, 'GET', '/server/info')) as { version?: string }).version
  console.log(`Directus ${directusVersion ?? '(version hidden)'} at ${DIRECTUS_URL}`)

  const readers = [
    { label: 'guest, 1 team grant', userId: guest.user.id, directus: GUEST },
    { label: 'owner / admin', userId: owner.id, directus: ADMIN },
  ]
  // Each reader's two pages on both sides: the same ids in the same order, or the comparison is void.
  const wgPath = `/v1/orgs/${org.id}/tasks?limit=${LIMIT}`
  const cells: { label: string; page: number; wg: string; dx: string; userId: string; who: typeof ADMIN }[] =
    []
  for (const reader of readers) {
    const dxToken = await login(reader.directus)
    const token = await wgToken(reader.userId)
    const first = (await getJson(url + wgPath, token)) as {
      data: { id: string }[]
      nextCursor: string
    }
    const second = (await getJson(
      `${url}${wgPath}&cursor=${encodeURIComponent(first.nextCursor)}`,
      token,
    )) as { data: { id: string }[] }
    const pages = [
      { page: 1, wg: wgPath, dx: DIRECTUS_PAGE, wgIds: first.data.map((t) => t.id) },
      {
        page: 2,
        wg: `${wgPath}&cursor=${encodeURIComponent(first.nextCursor)}`,
        dx: `${DIRECTUS_PAGE}&page=2`,
        wgIds: second.data.map((t) => t.id),
      },
    ]
    for (const p of pages) {
      const dxIds = ((await getJson(DIRECTUS_URL + p.dx, dxToken)) as { data: { id: string }[] }).data.map(
        (t) => t.id,
      )
      if (p.wgIds.length !== LIMIT || dxIds.join() !== p.wgIds.join())
        failures.push(`${reader.label}, page ${p.page}: Directus's ids differ from workgraph's`)
      cells.push({
        label: reader.label,
        page: p.page,
        wg: p.wg,
        dx: p.dx,
        userId: reader.userId,
        who: reader.directus,
      })
    }
  }
  if (failures.length > 0) return

  const rows: string[] = []
  started = performance.now()
  for (const c of cells) {
    for (const concurrency of [1, 32]) rows.push(await cell(c, concurrency))
  }
  console.log(
    `\n${storage.dialect} (workgraph) / Postgres (Directus): ${ROUNDS} interleaved rounds, ${COUNT} requests per round and side at concurrency 32 (${COUNT / 4} at 1), ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loadAverage()}\n`,
  )
  console.log(
    '| reader | page | concurrency | workgraph req/s | Directus req/s | ratio | workgraph p50 / p99 ms | Directus p50 / p99 ms | CPU ms per request, workgraph / Directus |',
  )
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const r of rows) console.log(r)

  async function cell(c: (typeof cells)[number], concurrency: number): Promise<string> {
    const count = concurrency === 1 ? COUNT / 4 : COUNT
    // Fresh tokens per cell: both sides' access tokens expire (Directus's ACCESS_TOKEN_TTL is 15 minutes
    // by default), and Postgres's seeding alone can outlast a token issued before it.
    const dxToken = await login(c.who)
    const token = await wgToken(c.userId)
    const job = (side: 'workgraph' | 'directus', n: number) => ({
      url: side === 'workgraph' ? url + c.wg : DIRECTUS_URL + c.dx,
      method: 'GET',
      headers: { authorization: `Bearer ${side === 'workgraph' ? token : dxToken}` },
      count: n,
      concurrency,
      expect: 200,
    })
    const ab = {
      a: { name: 'workgraph', job: (n: number) => job('workgraph', n), pid: process.pid },
      b: { name: 'directus', job: (n: number) => job('directus', n), pid: DIRECTUS_PID },
    }
    const label = `${c.label} page ${c.page}`
    const { a: wg, b: dx, ratio } = await abRounds(ab, { rounds: ROUNDS, count, label })
    const cpu = (ms: number) => (Number.isNaN(ms) ? 'n/a' : ms.toFixed(2))
    const row = `| ${c.label} | ${c.page} | ${concurrency} | ${wg.rate.toFixed(0)} | ${dx.rate.toFixed(0)} | ${ratio.toFixed(2)} | ${fmt(wg.latencies)} | ${fmt(dx.latencies)} | ${cpu(wg.cpuPerRequest)} / ${cpu(dx.cpuPerRequest)} |`
    console.log(row)
    return row
  }
})

async function getJson(target: string, token: string): Promise<unknown> {
  const res = await fetch(target, { headers: { authorization: `Bearer ${token}` } })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`GET ${target}: HTTP ${res.status} ${JSON.stringify(body)}`)
  return body
}

/** One Directus REST call as the given user; throws on anything but 2xx (a missing item gives null). */
async function api(token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(DIRECTUS_URL + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  // Directus answers 403 for what does not exist, to admins too.
  if (res.status === 404 || (method === 'GET' && res.status === 403)) return null
  const text = await res.text()
  if (!res.ok) throw new Error(`Directus ${method} ${path}: HTTP ${res.status} ${text}`)
  return text ? (JSON.parse(text) as { data: unknown }).data : null
}

async function login(user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${DIRECTUS_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  })
  if (!res.ok) throw new Error(`Directus login as ${user.email}: HTTP ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: { access_token: string } }).data.access_token
}

/**
 * Directus's side of the world, idempotent: the tables (created here on the first run, emptied on
 * later ones) filled with the org's teams and tasks, the keyset indexes, the relations, the policy,
 * role and guest user, and the guest's one team grant. Returns the administrator's token.
 */
async function directusSetUp(
  db: pg.Client,
  storage: { db: { executeQuery: (q: never) => Promise<{ rows: unknown[] }> } },
  guestTeam: string,
): Promise<{ token: string }> {
  const token = await login(ADMIN)
  await db.query(`
    create table if not exists teams (id text primary key, key text not null, name text not null);
    create table if not exists tasks (
      id text primary key, org_id text not null, team_id text not null, number integer not null,
      title text not null, description text, state_id text not null, assignee_id text,
      creator_id text not null, priority text not null, estimate double precision, due_date text,
      start_date text, parent_id text, cycle_id text, project_id text, milestone_id text,
      created_at timestamptz not null, updated_at timestamptz not null, started_at timestamptz,
      completed_at timestamptz, canceled_at timestamptz, archived_at timestamptz);
    create table if not exists team_grants (
      id serial primary key, team_id text not null,
      user_id uuid not null references directus_users (id) on delete cascade);
    -- The same keyset indexes as workgraph's (tasks_created, tasks_team_created; one org here).
    create index if not exists tasks_created on tasks (created_at, id);
    create index if not exists tasks_team_created on tasks (team_id, created_at, id);
    create index if not exists team_grants_user on team_grants (user_id, team_id);
    truncate team_grants, tasks, teams;`)
  // Storage's executor hands rows back in camel case; Directus's columns are the tables' own names.
  const snake = (row: unknown) =>
    Object.fromEntries(
      Object.entries(row as Record<string, unknown>).map(([k, v]) => [
        k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        v,
      ]),
    )
  const read = async (sql: string) =>
    (await storage.db.executeQuery({ sql, parameters: [], query: null } as never)).rows.map(snake)
  const fill = async (table: string, rows: unknown[]) => {
    for (let from = 0; from < rows.length; from += 5_000)
      await db.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1)`, [
        JSON.stringify(rows.slice(from, from + 5_000)),
      ])
  }
  await fill('teams', await read('select id, key, name from teams'))
  await fill(
    'tasks',
    await read(`select id, org_id, team_id, number, title, description, state_id, assignee_id, creator_id,
      priority, estimate, due_date, start_date, parent_id, cycle_id, project_id, milestone_id, created_at,
      updated_at, started_at, completed_at, canceled_at, archived_at from tasks where deleted_at is null`),
  )
  // Directus reads the schema once and caches it: tell it about the new tables.
  await api(token, 'POST', '/utils/cache/clear?system=true')
  if (!(await api(token, 'GET', '/relations/tasks/team_id')))
    await api(token, 'POST', '/relations', {
      collection: 'tasks',
      field: 'team_id',
      related_collection: 'teams',
    })
  if (!(await api(token, 'GET', '/relations/team_grants/team_id')))
    await api(token, 'POST', '/relations', {
      collection: 'team_grants',
      field: 'team_id',
      related_collection: 'teams',
      meta: { one_field: 'grants' },
    })
  if (!(await api(token, 'GET', '/fields/teams/grants')))
    await api(token, 'POST', '/fields/teams', { field: 'grants', type: 'alias', meta: { special: ['o2m'] } })

  const byName = async (collection: string, field: string, value: string) =>
    (
      (await api(
        token,
        'GET',
        `/${collection}?filter[${field}][_eq]=${encodeURIComponent(value)}&fields=id&limit=1`,
      )) as { id: string }[]
    )[0]?.id
  const policy =
    (await byName('policies', 'name', 'Bench team reader')) ??
    (
      (await api(token, 'POST', '/policies', {
        name: 'Bench team reader',
        admin_access: false,
        app_access: false,
      })) as {
        id: string
      }
    ).id
  const permission = (
    (await api(
      token,
      'GET',
      `/permissions?filter[policy][_eq]=${policy}&filter[collection][_eq]=tasks&filter[action][_eq]=read&fields=id`,
    )) as { id: number }[]
  )[0]
  const rule = { permissions: PERMISSION, validation: null, fields: ['*'] }
  if (permission) await api(token, 'PATCH', `/permissions/${permission.id}`, rule)
  else await api(token, 'POST', '/permissions', { policy, collection: 'tasks', action: 'read', ...rule })
  let role = await byName('roles', 'name', 'Bench guest')
  if (!role) {
    role = ((await api(token, 'POST', '/roles', { name: 'Bench guest' })) as { id: string }).id
    await api(token, 'POST', '/access', { role, policy })
  }
  let user = await byName('users', 'email', GUEST.email)
  if (!user) user = ((await api(token, 'POST', '/users', { ...GUEST, role })) as { id: string }).id
  await db.query('insert into team_grants (team_id, user_id) values ($1, $2)', [guestTeam, user])
  await db.query('analyze teams; analyze tasks; analyze team_grants')
  return { token }
}
