/**
 * The hub bench's correctness check: what `hub.today`, `hub.inbox` and `hub.search` must answer,
 * computed from the seeded rows (bench/hub-world.ts keeps what it wrote; the notifications are
 * read back as rows, since the notifier wrote the mentions), compared with what the hub answers.
 * A mismatch is a failure: a fast wrong answer fails the bench.
 */
import type { RunningServer } from '@workgraph/server'
import { type HubWorld, RARE_WORD, type SeedTask, shiftDay } from './hub-world.ts'
import { failures } from './support.ts'

type Read = (
  id: string,
  query: Record<string, unknown>,
) => Promise<{ data: Array<{ id: string; orgId: string }>; nextCursor?: string | null }>

const TODAY_LIMIT = 10
const INBOX_LIMIT = 20
const HOUR = 3_600_000

const same = (what: string, got: unknown, want: unknown) => {
  const a = JSON.stringify(got)
  const b = JSON.stringify(want)
  if (a !== b) failures.push(`${what}: got ${a.slice(0, 300)}, the model says ${b.slice(0, 300)}`)
}
const isoOf = (value: unknown) => (value === null ? null : new Date(value as string).toISOString())

export async function checkHub(server: RunningServer, world: HubWorld, read: Read): Promise<void> {
  const started = performance.now()
  await checkToday(server, world)
  await checkInbox(server, world, read)
  await checkSearch(world, read)
  console.log(`checked against the model in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** Every notification of the person, as rows, newest first as the hub merges them. */
async function notificationsOf(server: RunningServer, world: HubWorld) {
  const rows = await server.storage.db
    .selectFrom('notifications')
    .select(['orgId', 'id', 'kind', 'readAt', 'archivedAt', 'snoozedUntil', 'createdAt'])
    .where(
      'recipientId',
      'in',
      world.orgs.map((o) => o.memberId),
    )
    .execute()
  const now = Date.now()
  return rows
    .map((r) => ({ ...r, createdAt: isoOf(r.createdAt)!, snoozedUntil: isoOf(r.snoozedUntil) }))
    .filter((r) => r.archivedAt === null && (r.snoozedUntil === null || Date.parse(r.snoozedUntil) <= now))
    .sort((a, b) =>
      a.createdAt !== b.createdAt
        ? a.createdAt > b.createdAt
          ? -1
          : 1
        : a.orgId !== b.orgId
          ? a.orgId < b.orgId
            ? -1
            : 1
          : a.id > b.id
            ? -1
            : 1,
    )
}

/** The sections of `hub.today` from the seeded tasks: first `limit` by (due, workspace, id), and `more`. */
async function checkToday(server: RunningServer, world: HubWorld) {
  const { today } = world
  const now = Date.now()
  const all = world.orgs.flatMap((o) => o.tasks)
  const byId = new Map(all.map((t) => [t.id, t]))
  const open = (t: SeedTask) => !t.completedAt && !t.archived
  const mine = all.filter((t) => t.assigned && open(t))
  const unblocked = (t: SeedTask) => {
    const blockers = t.blockerIds.map((id) => byId.get(id)!)
    return (
      blockers.some((b) => b.completedAt && Date.parse(b.completedAt) >= now - 24 * HOUR) &&
      !blockers.some((b) => open(b))
    )
  }
  const sections: Record<string, (t: SeedTask) => boolean> = {
    overdue: (t) => t.dueDate! < today,
    dueToday: (t) => t.dueDate === today,
    dueSoon: (t) => t.dueDate! >= shiftDay(today, 1) && t.dueDate! <= shiftDay(today, 2),
    currentCycle: (t) => t.inCycle,
    unblocked,
  }
  const order = (a: SeedTask, b: SeedTask) =>
    a.dueDate! !== b.dueDate!
      ? a.dueDate! < b.dueDate!
        ? -1
        : 1
      : a.orgId !== b.orgId
        ? a.orgId < b.orgId
          ? -1
          : 1
        : a.id < b.id
          ? -1
          : 1
  const result = await server.engine.execute('hub.today', { query: { date: today } }, world.person)
  const body = result.body as Record<string, unknown>
  const section = (name: string) => body[name] as { items: Array<{ id: string }>; more: boolean }
  for (const [name, test] of Object.entries(sections)) {
    const want = mine.filter(test).sort(order)
    same(
      `hub.today ${name}`,
      { ids: section(name).items.map((t) => t.id), more: section(name).more },
      { ids: want.slice(0, TODAY_LIMIT).map((t) => t.id), more: want.length > TODAY_LIMIT },
    )
    if (want.length === 0) failures.push(`hub.today ${name}: the seed left it empty`)
  }
  const mentions = (await notificationsOf(server, world))
    .filter((n) => n.kind === 'mentioned' && n.readAt === null)
    .sort((a, b) =>
      a.createdAt !== b.createdAt ? (a.createdAt > b.createdAt ? -1 : 1) : a.id > b.id ? -1 : 1,
    )
  same(
    'hub.today mentions',
    { ids: section('mentions').items.map((n) => n.id), more: section('mentions').more },
    { ids: mentions.slice(0, TODAY_LIMIT).map((n) => n.id), more: mentions.length > TODAY_LIMIT },
  )
  if (mentions.length === 0) failures.push('hub.today mentions: the seed left it empty')
  same('hub.today approvals', body.approvals, { items: [], more: false })
  same('hub.today updatesDue', body.updatesDue, { items: [], more: false })
  same(
    'hub.today plan',
    (body.plan as Array<{ task: { orgId: string; id: string } | null }>)
      .filter((i) => i.task)
      .map((i) => `${i.task!.orgId}/${i.task!.id}`),
    world.plan,
  )
}

/** The first three pages of `hub.inbox`, and `hub.inbox.counts` per workspace. */
async function checkInbox(server: RunningServer, world: HubWorld, read: Read) {
  const model = await notificationsOf(server, world)
  const got: string[] = []
  let cursor: string | null | undefined
  for (let page = 0; page < 3; page++) {
    const body = await read('hub.inbox', { limit: INBOX_LIMIT, ...(cursor ? { cursor } : {}) })
    got.push(...body.data.map((n) => n.id))
    cursor = body.nextCursor
    if (!cursor) break
  }
  same(
    'hub.inbox pages 1-3',
    got,
    model.slice(0, 3 * INBOX_LIMIT).map((n) => n.id),
  )
  const counts = await server.engine.execute('hub.inbox.counts', { query: {} }, world.person)
  const byOrg = (counts.body as { data: Array<{ orgId: string; inbox: number; unread: number }> }).data
  same(
    'hub.inbox.counts',
    byOrg.map((c) => [c.orgId, c.inbox, c.unread]),
    world.orgs
      .map((o) => o.orgId)
      .sort()
      .map((orgId) => {
        const mine = model.filter((n) => n.orgId === orgId)
        return [orgId, mine.length, mine.filter((n) => n.readAt === null).length]
      }),
  )
}

const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}\p{M}]+/u)
const matches = (text: string, terms: string[]) => {
  const words = wordsOf(text)
  return terms.every((t) => words.some((w) => w.startsWith(t)))
}

/**
 * Search: the rare word read to the last page equals the model's set of matching tasks and comments;
 * on the first page of the timed queries every hit is a real match, scores do not increase, and the
 * page is full when the model has enough matches.
 */
async function checkSearch(world: HubWorld, read: Read) {
  const model = (terms: string[]) => {
    const keys = new Set<string>()
    for (const o of world.orgs) {
      for (const t of o.tasks)
        if (!t.archived && matches(`${t.title} ${t.description}`, terms)) keys.add(`${o.orgId}/task/${t.id}`)
      for (const c of o.comments) if (matches(c.body, terms)) keys.add(`${o.orgId}/comment/${c.id}`)
    }
    return keys
  }
  const key = (h: { orgId: string; id: string; type?: string }) => `${h.orgId}/${h.type}/${h.id}`
  const rare = model([RARE_WORD])
  const got: string[] = []
  let cursor: string | null | undefined
  for (let page = 0; page < 1000; page++) {
    const body = await read('hub.search', { q: RARE_WORD, limit: 200, ...(cursor ? { cursor } : {}) })
    got.push(...body.data.map(key))
    cursor = body.nextCursor
    if (!cursor) break
  }
  same(`hub.search q=${RARE_WORD}: hits`, got.length, rare.size)
  if (new Set(got).size !== got.length) failures.push(`hub.search q=${RARE_WORD}: a hit on two pages`)
  const missing = [...rare].filter((k) => !got.includes(k))
  if (missing.length > 0) failures.push(`hub.search q=${RARE_WORD}: ${missing.length} matches not found`)
  for (const q of ['rocket launch', 'orb']) {
    const terms = q.split(' ')
    const want = model(terms)
    const body = (await read('hub.search', { q, limit: 50 })) as unknown as {
      data: Array<{ orgId: string; id: string; type: string; score: number }>
    }
    same(`hub.search q="${q}": first page size`, body.data.length, Math.min(50, want.size))
    const wrong = body.data.filter((h) => !want.has(key(h)))
    if (wrong.length > 0) failures.push(`hub.search q="${q}": ${wrong.length} hits that do not match`)
    if (body.data.some((h, i) => i > 0 && h.score > body.data[i - 1]!.score))
      failures.push(`hub.search q="${q}": scores not in order`)
  }
}
