/**
 * Query plans of the hot reads, on the permissions bench's org (100,000 tasks, 50 teams, 1,000
 * projects, 1,000 members and their team and project grants) plus 20,000 events, 5,000 comments,
 * 10,000 dependencies and 10,000 notifications, seeded straight through storage. For each read it
 * records the SQL the repository runs (at Kysely's executor, with its values: only what the database
 * ran) and prints the database's plan for it: on Postgres
 * `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)`, on SQLite `EXPLAIN QUERY PLAN` plus the time of ten runs.
 * On Postgres statistics are gathered first (ANALYZE), as autovacuum would; on SQLite only with
 * `--analyze` (see docs/performance-log.md for why the server does not).
 * `--before` drops the indexes of migrations 0029 and 0030 first (and restores the one 0030 replaces), to show the plans without them.
 */
import type {
  Actor,
  NotificationId,
  NotificationRecord,
  OrgId,
  ReadScope,
  TaskId,
  TeamId,
} from '@workgraph/core'
import { loadProfile, newId, readScope, UNSCOPED } from '@workgraph/core'
import type { CommentRecord } from '@workgraph/core/storage'
import type { RunningServer } from '@workgraph/server'
import { mulberry32, type Person } from './permissions-world.ts'
import { seedWorld } from './seed-world.ts'
import { onPostgres, percentile, postgres, runBench } from './support.ts'

const before = process.argv.includes('--before')
const random = mulberry32(7)

await runBench('plans', async (server, schema) => {
  const { storage } = server
  const world = await seedWorld(server, 'Plans')
  const { teamIds, people, rows } = world
  const org = { id: world.orgId }
  let started = performance.now()
  await seedOthers(storage, org.id, teamIds, people, rows)
  console.log(
    `${storage.dialect}: other records seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  started = performance.now()
  if (postgres) await onPostgres(`set search_path = ${schema}; analyze`)
  else if (process.argv.includes('--analyze'))
    await storage.db.executeQuery({ sql: 'analyze', parameters: [], query: null } as never)
  console.log(`ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  if (before) {
    for (const index of [
      'tasks_team_created',
      'tasks_team_updated',
      'grants_subject',
      'task_dependencies_blocker',
    ])
      await storage.db.schema.dropIndex(index).execute()
    await storage.db.schema
      .createIndex('task_dependencies_blocked')
      .on('task_dependencies')
      .columns(['org_id', 'blocked_id'])
      .execute()
    console.log('dropped the indexes of migrations 0029 and 0030 (--before)')
  }

  const actorOf = (p: Person): Actor => ({
    id: p.memberId,
    kind: 'person',
    orgId: org.id,
    role: p.role,
    userId: p.user.id,
    name: p.user.name,
  })
  const scopeOf = async (p: Person) => readScope(await storage.read((s) => loadProfile(s, actorOf(p))))
  const guest1 = people.find((p) => p.kind === 'guest-1')!
  const guestFew = people.find((p) => p.kind === 'guest-few')!
  const member = people.find((p) => p.kind === 'member')!
  const guestProjects = people.find((p) => p.kind === 'guest-projects')!
  const guestTeamProjects = people.find((p) => p.kind === 'guest-team-projects')!
  // Team grants and project grants reached through team memberships: the team side is large.
  const guestMany = people.find((p) => p.kind === 'guest-many')!
  const scopes: Record<string, ReadScope> = {
    'guest, 1 team': await scopeOf(guest1),
    'guest, 2–4 teams': await scopeOf(guestFew),
    'guest, 1–3 projects': await scopeOf(guestProjects),
    'guest, 1 team + 1–3 projects': await scopeOf(guestTeamProjects),
    'guest, via team memberships': await scopeOf(guestMany),
    member: await scopeOf(member),
  }
  const commented = rows[0]!.id as TaskId
  const recipient = people[3]!.memberId
  const now = new Date().toISOString()
  const page = (sort: string, direction: 'asc' | 'desc' = 'desc') =>
    ({ sort, direction, after: null, limit: 50 }) as never

  type Read = (s: Parameters<Parameters<typeof storage.read>[0]>[0]) => Promise<unknown>
  const reads: [string, Read][] = [
    [
      'tasks.list, member (org-wide), -createdAt',
      (s) => s.tasks.list(org.id, { archived: false }, page('createdAt'), scopes.member!),
    ],
    ...(
      [
        'guest, 1 team',
        'guest, 2–4 teams',
        'guest, 1–3 projects',
        'guest, 1 team + 1–3 projects',
        'guest, via team memberships',
      ] as const
    ).flatMap((who): [string, Read][] => [
      [
        `tasks.list, ${who}, -createdAt`,
        (s) => s.tasks.list(org.id, { archived: false }, page('createdAt'), scopes[who]!),
      ],
      [
        `tasks.list, ${who}, -updatedAt`,
        (s) => s.tasks.list(org.id, { archived: false }, page('updatedAt'), scopes[who]!),
      ],
    ]),
    [
      'tasks.list, ?teamId= (one team), -createdAt',
      (s) => s.tasks.list(org.id, { archived: false, teamId: teamIds[30]! }, page('createdAt'), UNSCOPED),
    ],
    ['loadProfile: teamsOf', (s) => s.access.teamsOf(org.id, guestFew.memberId)],
    ['loadProfile: grantsFor', (s) => s.access.grantsFor(org.id, guestFew.memberId, teamIds.slice(0, 3))],
    [
      'events.list (stream), guest 2–4 teams, from the start',
      (s) => s.events.list(org.id, 0, 100, scopes['guest, 2–4 teams']!),
    ],
    ['events.list (stream), member, the last 100', (s) => s.events.list(org.id, 19_900, 100, scopes.member!)],
    [
      'tasks.comments.list on a task',
      (s) =>
        s.comments.list(
          org.id,
          { subjectType: 'task', subjectId: commented } as never,
          page('threadId', 'asc'),
        ),
    ],
    [
      'notifications.list, inbox',
      (s) => s.notifications.list(org.id, recipient, { view: 'inbox' } as never, now, page('createdAt')),
    ],
    ['notifications.counts', (s) => s.notifications.counts(org.id, recipient, now)],
  ]

  // Recorded where every query runs (the executor), with its real values: the hot reads are compiled
  // once with stand-ins for their values (`compiledOnce`), so a plugin would see the stand-ins.
  let compiled: { sql: string; parameters: readonly unknown[] }[] = []
  let recording = false
  const executor = Object.getPrototypeOf(Object.getPrototypeOf(storage.db.getExecutor())) as {
    executeQuery: (
      query: { sql: string; parameters: readonly unknown[] },
      ...rest: unknown[]
    ) => Promise<unknown>
  }
  const execute = executor.executeQuery
  executor.executeQuery = function (this: unknown, query, ...rest) {
    if (recording) compiled.push({ sql: query.sql, parameters: [...query.parameters] })
    return execute.call(this, query, ...rest)
  }
  const prefix = postgres ? 'explain (analyze, buffers, costs off) ' : 'explain query plan '
  for (const [label, read] of reads) {
    compiled = []
    recording = true
    await storage.read(read)
    recording = false
    const query = compiled[0]!
    const plan = await storage.db.executeQuery<Record<string, unknown>>({
      ...query,
      sql: prefix + query.sql,
    } as never)
    const times: number[] = []
    for (let i = 0; i < 10; i++) {
      const t = performance.now()
      await storage.db.executeQuery(query as never)
      times.push(performance.now() - t)
    }
    console.log(`\n### ${label} (median of 10: ${percentile(times, 0.5).toFixed(2)} ms)\n`)
    console.log(`    ${query.sql}\n`)
    // SQLite's plan is a tree (id, parent): indent each step under its parent, as the shell does.
    const depth = new Map<unknown, number>([[0, 0]])
    const lines = plan.rows.map((r) => {
      if (postgres) return String(Object.values(r)[0])
      const d = (depth.get(r.parent) ?? 0) + 1
      depth.set(r.id, d)
      return `${'  '.repeat(d - 1)}${String(r.detail)}`
    })
    console.log(lines.map((l) => `    ${l}`).join('\n'))
  }
})

/** 20,000 events over the teams, 5,000 comments (100 on the first task), 10,000 notifications over 100 people. */
async function seedOthers(
  storage: RunningServer['storage'],
  orgId: OrgId,
  teamIds: TeamId[],
  people: Person[],
  tasks: { id: string; teamId: string }[],
) {
  const author = people[0]!.memberId
  const base = Date.parse('2025-06-01T00:00:00.000Z')
  const at = (i: number) => new Date(base + i * 1000).toISOString()
  for (let batch = 0; batch < 40; batch++) {
    await storage.transaction(async (store) => {
      const events = Array.from({ length: 500 }, (_, k) => {
        const task = tasks[Math.floor(random() * tasks.length)]!
        return {
          id: newId('EventId'),
          kind: 'task.updated',
          actorId: author,
          resourceType: 'task',
          resourceId: task.id,
          teamId: task.teamId as TeamId,
          data: { title: 'x' },
          createdAt: at(batch * 500 + k),
        }
      })
      await store.events.append(orgId, events)
    })
  }
  await storage.transaction(async (store) => {
    for (let i = 0; i < 5_000; i++) {
      const task = (i < 100 ? tasks[0]! : tasks[Math.floor(random() * tasks.length)]!).id as TaskId
      const id = newId('CommentId')
      const comment: CommentRecord = {
        id,
        orgId,
        subjectType: 'task',
        subjectId: task,
        taskId: task,
        threadId: id,
        authorId: author,
        automation: null,
        body: `Comment ${i}`,
        createdAt: at(i),
        updatedAt: at(i),
        editedAt: null,
        deletedAt: null,
        resolvedAt: null,
        resolvedById: null,
      }
      await store.comments.insert(comment)
    }
    // Dependencies: 10,000 edges between random tasks (every listed page then holds some blocked tasks).
    for (let i = 0; i < 10_000; i++) {
      const blocker = tasks[Math.floor(random() * tasks.length)]!.id as TaskId
      const blocked = tasks[Math.floor(random() * tasks.length)]!.id as TaskId
      if (blocker === blocked) continue
      await store.taskDependencies.add({
        orgId,
        blockerId: blocker,
        blockedId: blocked,
        createdBy: author,
        createdAt: at(i),
      })
    }
    for (let i = 0; i < 10_000; i++) {
      const task = tasks[i % tasks.length]!
      const notification: NotificationRecord = {
        id: newId('NotificationId') as NotificationId,
        orgId,
        recipientId: people[i % 100]!.memberId,
        kind: 'assigned',
        record: { type: 'task', id: task.id },
        actorId: author,
        eventId: null,
        summary: `Task ${i}`,
        readAt: i % 3 === 0 ? at(i) : null,
        snoozedUntil: null,
        archivedAt: null,
        createdAt: at(i),
        updatedAt: at(i),
        dedupeKey: `n${i}`,
      }
      await store.notifications.insert(notification)
    }
  })
  void teamIds
}
