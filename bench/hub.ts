/**
 * Hub bench: one person in `--orgs` workspaces (default 20) of `--tasks` tasks each (default 500;
 * the issue's full size is `--tasks=10000`), a member in each, with a tenth of the tasks assigned
 * to them by each workspace's owner (so the notifier fills their inbox). It times the first page
 * and the third page (following `nextCursor`) of `hub.search`, `hub.inbox` and `hub.activity`, and
 * `hub.resolve` of a task key, the first and third pages of `hub.tasks` and `hub.today` (the
 * assigned tasks are due within four days of today), through `engine.execute`, and checks each answer is complete (no
 * `partial`) and holds no duplicate. SQLite (temp file) by default; `--postgres` uses DATABASE_URL
 * or the local server in a throwaway schema.
 */
import { availableParallelism } from 'node:os'
import { createUser, type MemberId, newId, type OrgId, type RawInput, type TeamId } from '@workgraph/core'
import { failures, fmt, onPostgres, postgres, runBench } from './support.ts'

const flag = (name: string, fallback: number) => {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`))
  return given ? Number(given.split('=')[1]) : fallback
}
const ORGS = flag('orgs', 20)
const TASKS = flag('tasks', 500)
const SAMPLES = flag('samples', 30)
const LIMIT = 50
/** Notifications are a tenth of the tasks: smaller pages, so there is a third page to time. */
const INBOX_LIMIT = 20
const WORDS = [
  'login',
  'billing',
  'export',
  'rocket',
  'launch',
  'parser',
  'mobile',
  'invoice',
  'orbit',
  'cache',
]

const dayFromToday = (offset: number) => {
  const d = new Date()
  d.setUTCDate(d.getUTCDate() + offset)
  return d.toISOString().slice(0, 10)
}

await runBench('hub', async (server, schema) => {
  const { engine, storage } = server
  console.log(`${storage.dialect}, node ${process.version}, ${availableParallelism()} cores`)
  console.log(`${ORGS} workspaces x ${TASKS} tasks, ${SAMPLES} samples per read`)
  const person = await createUser(storage, { email: 'hub@example.com', name: 'Hub Person' })
  const token = await engine.tokens.issueAccessToken({
    userId: person.id,
    scopes: ['work:read', 'work:write'],
  })
  const principal = await engine.tokens.verifyAccessToken(token)

  const started = performance.now()
  for (let o = 0; o < ORGS; o++) {
    const owner = await createUser(storage, { email: `owner${o}@example.com`, name: `Owner ${o}` })
    const ownerPrincipal = await engine.tokens.verifyAccessToken(
      await engine.tokens.issueAccessToken({ userId: owner.id, scopes: ['work:read', 'work:write'] }),
    )
    const call = async <T>(id: string, input: RawInput) => {
      const result = await engine.execute(id, input, ownerPrincipal)
      if (result.status >= 300) throw new Error(`${id}: HTTP ${result.status} ${JSON.stringify(result.body)}`)
      return result.body as T
    }
    const org = await call<{ id: OrgId }>('orgs.create', { body: { name: `Org ${o}` } })
    const team = await call<{ id: TeamId }>('teams.create', {
      params: { orgId: org.id },
      body: { name: 'Engineering', key: 'ENG' },
    })
    const memberId = newId('MemberId') as MemberId
    const now = new Date().toISOString()
    await storage.transaction((s) =>
      s.members.insert({
        id: memberId,
        orgId: org.id,
        userId: person.id,
        kind: 'person',
        role: o % 3 === 2 ? 'guest' : 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    if (o % 3 === 2) {
      await call('grants.create', {
        params: { orgId: org.id },
        body: {
          subjectType: 'member',
          subjectId: memberId,
          containerType: 'team',
          containerId: team.id,
          capability: 'view',
        },
      })
    }
    for (let t = 0; t < TASKS; t += 100) {
      const items = Array.from({ length: Math.min(100, TASKS - t) }, (_, i) => {
        const n = t + i
        return {
          teamId: team.id,
          title: `${WORDS[n % WORDS.length]} ${WORDS[(n * 7 + 3) % WORDS.length]} task ${n}`,
          description: `About ${WORDS[(n * 3 + 1) % WORDS.length]} in workspace ${o}`,
          // Assigned ones are due within four days either side of today, so `hub.today` has sections to fill.
          ...(n % 10 === 0 ? { assigneeId: memberId, dueDate: dayFromToday(((n / 10) % 9) - 4) } : {}),
        }
      })
      await call('tasks.batchCreate', { params: { orgId: org.id }, body: { items } })
    }
  }
  await engine.notify({ onError: (e) => failures.push(String(e)) })
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  if (postgres) await onPostgres(`analyze ${schema}.tasks, ${schema}.events, ${schema}.notifications`)

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
  const time = async (label: string, run: () => Promise<unknown>) => {
    for (let i = 0; i < 3; i++) await run()
    const samples: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now()
      await run()
      samples.push(performance.now() - t0)
    }
    console.log(`${label.padEnd(34)} p50 / p99 ms  ${fmt(samples)}`)
  }
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
  const first = await read('hub.search', searchQuery)
  if (first.data.length !== LIMIT) failures.push(`hub.search: ${first.data.length} hits on the first page`)
  const searchCursor = await third('hub.search', searchQuery)
  const inboxCursor = await third('hub.inbox', { limit: INBOX_LIMIT })
  const activityCursor = await third('hub.activity', { limit: LIMIT })
  await time('hub.search q="rocket launch" p1', () => read('hub.search', searchQuery))
  if (searchCursor)
    await time('hub.search page 3', () => read('hub.search', { ...searchQuery, cursor: searchCursor }))
  await time('hub.search q="orb" (prefix) p1', () => read('hub.search', { q: 'orb', limit: LIMIT }))
  await time('hub.inbox p1', () => read('hub.inbox', { limit: INBOX_LIMIT }))
  if (inboxCursor)
    await time('hub.inbox page 3', () => read('hub.inbox', { limit: INBOX_LIMIT, cursor: inboxCursor }))
  await time('hub.activity p1', () => read('hub.activity', { limit: LIMIT }))
  if (activityCursor)
    await time('hub.activity page 3', () => read('hub.activity', { limit: LIMIT, cursor: activityCursor }))
  await time('hub.resolve ENG-42', () => read('hub.resolve', { ref: 'ENG-42' }))
  const tasksCursor = await third('hub.tasks', { limit: LIMIT })
  await time('hub.tasks (assigned, by due) p1', () => read('hub.tasks', { limit: LIMIT }))
  if (tasksCursor)
    await time('hub.tasks page 3', () => read('hub.tasks', { limit: LIMIT, cursor: tasksCursor }))
  const today = async () => {
    const result = await engine.execute('hub.today', { query: {} }, principal)
    const body = result.body as Record<string, { items?: unknown[]; more?: boolean }> & { partial: unknown[] }
    if (result.status !== 200 || body.partial.length > 0) failures.push(`hub.today: ${JSON.stringify(body)}`)
    if (!body.overdue?.more || !body.dueToday?.items?.length) failures.push('hub.today: sections not filled')
  }
  await time('hub.today', today)
})
