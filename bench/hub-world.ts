/**
 * The hub bench's world, seeded in bulk: one person in `workspaces` workspaces of `tasks` tasks each.
 * What is small (the owners, orgs, teams, a running cycle per team, the person's memberships and
 * grants, a dozen comments that mention the person, the daily plan) goes through the engine, so it
 * is what the engine writes; the bulk (the tasks with their numbers, board and cycle ranks, history,
 * subscribers and dependencies, the comments on them, the `assigned` notifications and every event
 * these would have emitted) is written many rows per statement in one transaction per workspace.
 * The database's own triggers and generated columns keep the search index, as for any insert.
 * The notifier's position is moved past the bulk events, as if it had delivered them (its
 * `assigned` notifications are among the bulk rows); it then derives the mentions for real.
 */
import {
  createUser,
  type MemberId,
  newId,
  type OrgId,
  type Principal,
  type RawInput,
  ranksInOrder,
  type TeamId,
} from '@workgraph/core'
import { createKyselyStorage } from '@workgraph/kysely'
import type { RunningServer } from '@workgraph/server'

export const WORDS = [
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
/** A word in few records, so a search for it can be read to the end and compared whole. */
export const RARE_WORD = 'zeppelin'
export const PERSON_NAME = 'Hub Person'
/** Comments through the engine that mention the person, per workspace (the `mentions` section). */
const MENTIONS = 12
const HOUR = 3_600_000

/** A task as the model needs it. */
export interface SeedTask {
  orgId: OrgId
  id: string
  title: string
  description: string
  assigned: boolean
  dueDate: string | null
  completedAt: string | null
  archived: boolean
  inCycle: boolean
  blockerIds: string[]
}
export interface SeedComment {
  orgId: OrgId
  id: string
  body: string
}
export interface SeedOrg {
  orgId: OrgId
  teamId: TeamId
  /** The person's member there. */
  memberId: MemberId
  tasks: SeedTask[]
  comments: SeedComment[]
}
export interface HubWorld {
  person: Principal
  /** The day every due date is relative to (UTC, the day of seeding). */
  today: string
  orgs: SeedOrg[]
  /** The daily plan's task items, in order: `orgId/taskId`. */
  plan: string[]
}

type Db = RunningServer['storage']['db']

export const shiftDay = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00.000Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** Rows per statement: under SQLite's 32,766 bound parameters (Postgres allows 65,535). */
async function insertRows(db: Db, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  if (rows.length === 0) return
  const per = Math.floor(30_000 / Object.keys(rows[0]!).length)
  for (let i = 0; i < rows.length; i += per)
    await db
      .insertInto(table as never)
      .values(rows.slice(i, i + per) as never)
      .execute()
}

export async function seedHubWorld(
  server: RunningServer,
  workspaces: number,
  tasks: number,
  log: (line: string) => void,
): Promise<HubWorld> {
  const { engine, storage } = server
  const user = await createUser(storage, { email: 'hub@example.com', name: PERSON_NAME })
  const person = await engine.tokens.verifyAccessToken(
    await engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read', 'work:write'] }),
  )
  const now = Date.now()
  const nowIso = new Date(now).toISOString()
  const today = nowIso.slice(0, 10)
  const orgs: SeedOrg[] = []
  const owners: Principal[] = []
  let bulkMs = 0
  for (let o = 0; o < workspaces; o++) {
    const owner = await createUser(storage, { email: `owner${o}@example.com`, name: `Owner ${o}` })
    const ownerPrincipal = await engine.tokens.verifyAccessToken(
      await engine.tokens.issueAccessToken({ userId: owner.id, scopes: ['work:read', 'work:write'] }),
    )
    owners.push(ownerPrincipal)
    const call = callAs(server, ownerPrincipal)
    const org = await call<{ id: OrgId }>('orgs.create', { body: { name: `Org ${o}` } })
    const team = await call<{ id: TeamId }>('teams.create', {
      params: { orgId: org.id },
      body: { name: 'Engineering', key: 'ENG' },
    })
    const cycle = await call<{ id: string }>('cycles.create', {
      params: { orgId: org.id, teamId: team.id },
      body: {
        startsAt: new Date(now - 3 * 24 * HOUR).toISOString(),
        endsAt: new Date(now + 4 * 24 * HOUR).toISOString(),
      },
    })
    const memberId = newId('MemberId') as MemberId
    await storage.transaction((s) =>
      s.members.insert({
        id: memberId,
        orgId: org.id,
        userId: user.id,
        kind: 'person',
        role: o % 3 === 2 ? 'guest' : 'member',
        status: 'active',
        createdAt: nowIso,
        updatedAt: nowIso,
      }),
    )
    // Every third workspace: a guest who sees the one team through a grant.
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
    const started = performance.now()
    const seeded = await bulkOrg(server, {
      o,
      orgId: org.id,
      teamId: team.id,
      cycleId: cycle.id,
      ownerMemberId: (await storage.read((s) => s.members.findByUser(org.id, owner.id)))!.id,
      memberId,
      tasks,
      now,
      today,
    })
    bulkMs += performance.now() - started
    orgs.push({ orgId: org.id, teamId: team.id, memberId, ...seeded })
  }
  log(`bulk rows written in ${(bulkMs / 1000).toFixed(1)} s`)
  // Through the engine: comments that mention the person (the notifier derives their notifications).
  for (let o = 0; o < orgs.length; o++) {
    const { orgId, tasks: rows, comments } = orgs[o]!
    const call = callAs(server, owners[o]!)
    const open = rows.filter((t) => !t.assigned && !t.archived && !t.completedAt)
    for (let m = 0; m < Math.min(MENTIONS, open.length); m++) {
      const body = `@hubperson can you look at the ${WORDS[m % WORDS.length]} part?`
      const comment = await call<{ id: string }>('tasks.comments.create', {
        params: { orgId, taskId: open[m]!.id },
        body: { body },
      })
      comments.push({ orgId, id: comment.id, body })
    }
  }
  await engine.notify({ onError: (e) => log(`notifier: ${String(e)}`) })
  // The person's plan for today: two of their tasks due today in each workspace, and a note.
  const plan: string[] = []
  const asPerson = callAs(server, person)
  for (const { orgId, tasks: rows } of orgs) {
    const due = rows.filter((t) => t.assigned && t.dueDate === today && !t.completedAt && !t.archived)
    for (const t of due.slice(0, 2)) {
      await asPerson('me.dailyPlan.items.create', {
        params: { date: today },
        body: { task: { orgId, id: t.id } },
      })
      plan.push(`${orgId}/${t.id}`)
    }
  }
  await asPerson('me.dailyPlan.items.create', {
    params: { date: today },
    body: { text: 'Write the weekly notes' },
  })
  return { person, today, orgs, plan }
}

function callAs(server: RunningServer, principal: Principal) {
  return async <T>(id: string, input: RawInput): Promise<T> => {
    const result = await server.engine.execute(id, input, principal)
    if (result.status >= 300) throw new Error(`${id}: HTTP ${result.status} ${JSON.stringify(result.body)}`)
    return result.body as T
  }
}

interface BulkInput {
  o: number
  orgId: OrgId
  teamId: TeamId
  cycleId: string
  ownerMemberId: string
  memberId: MemberId
  tasks: number
  now: number
  today: string
}

/**
 * One workspace's tasks and what hangs off them, in one transaction: task n is created a minute
 * after task n-1 (the last three days before seeding are left free), every tenth is assigned to the
 * person and due within four days either side of today, one in twenty is completed in the last two
 * days (never near 24 hours ago, so the `unblocked` section does not change during a run), one in a
 * hundred archived, a third of the assigned ones in the running cycle, every fourth assigned one
 * blocked by a completed task (and every eighth by an open one too), a comment by the owner on one
 * task in ten.
 */
async function bulkOrg(server: RunningServer, input: BulkInput) {
  const { storage } = server
  const { o, orgId, teamId, cycleId, memberId, ownerMemberId, tasks: count, now, today } = input
  const states = await storage.read((s) => s.states.listForTeam(orgId, teamId, { includeArchived: false }))
  const backlog = states.find((s) => s.category === 'backlog')!
  const done = states.find((s) => s.category === 'completed')!
  const start = now - 3 * 24 * HOUR - count * 60_000
  const iso = (ms: number) => new Date(ms).toISOString()
  const isCompleted = (n: number) => n % 20 === 5
  // Hours ago: 1–20 or 30–47, by the task's place among the completed ones.
  const completedAgo = (n: number) => {
    const k = Math.floor(n / 20) % 38
    return (k < 20 ? k + 1 : k + 10) * HOUR
  }
  const ids = Array.from({ length: count }, () => newId('TaskId'))
  const completedCount = Array.from({ length: count }, (_, n) => n).filter(isCompleted).length
  const boardRanks = { backlog: ranksInOrder(count - completedCount), done: ranksInOrder(completedCount) }
  const inCycle = (n: number) => n % 30 === 0
  const cycleRanks = ranksInOrder(Math.ceil(count / 30))
  let backlogAt = 0
  let doneAt = 0
  const taskRows: Array<Record<string, unknown>> = []
  const seedTasks: SeedTask[] = []
  const history: Array<Record<string, unknown>> = []
  const subscribers: Array<Record<string, unknown>> = []
  const dependencies: Array<Record<string, unknown>> = []
  const comments: Array<Record<string, unknown>> = []
  const seedComments: SeedComment[] = []
  const notifications: Array<Record<string, unknown>> = []
  const events: Array<{ at: number; event: Record<string, unknown> }> = []
  for (let n = 0; n < count; n++) {
    const id = ids[n]!
    const createdAt = iso(start + n * 60_000)
    const assigned = n % 10 === 0
    const completed = isCompleted(n)
    const completedAt = completed ? iso(now - completedAgo(n)) : null
    const archivedAt = n % 100 === 99 ? createdAt : null
    const title = `${WORDS[n % WORDS.length]} ${WORDS[(n * 7 + 3) % WORDS.length]} task ${n}`
    const description = `About ${WORDS[(n * 3 + 1) % WORDS.length]} in workspace ${o}${n % 199 === 0 ? ` ${RARE_WORD}` : ''}`
    const dueDate = assigned ? shiftDay(today, ((n / 10) % 9) - 4) : null
    const cycle = inCycle(n)
    const blockerIds =
      assigned && n % 40 === 0 && n + 5 < count ? [ids[n + 5]!, ...(n % 80 === 0 ? [ids[n + 1]!] : [])] : []
    const row: Record<string, unknown> = {
      orgId,
      id,
      teamId,
      number: n + 1,
      title,
      description,
      // Created in the backlog; the completed ones moved later (their history and event say so).
      stateId: backlog.id,
      assigneeId: assigned ? memberId : null,
      creatorId: ownerMemberId,
      priority: 'none',
      estimate: null,
      dueDate,
      startDate: null,
      parentId: null,
      createdAt,
      updatedAt: createdAt,
      startedAt: null,
      completedAt: null,
      canceledAt: null,
      archivedAt: null,
      deletedAt: null,
      cycleId: cycle ? cycleId : null,
      projectId: null,
      milestoneId: null,
      boardRank: '',
      projectRank: null,
      cycleRank: cycle ? cycleRanks[n / 30]! : null,
    }
    const view = taskView(row, 'backlog')
    const created = newId('EventId')
    events.push({
      at: start + n * 60_000,
      event: {
        id: created,
        kind: 'task.created',
        actorId: ownerMemberId,
        resourceType: 'task',
        resourceId: id,
        teamId,
        data: { task: view },
        createdAt,
      },
    })
    history.push(historyEntry(orgId, id, ownerMemberId, 'created', null, { key: view.key, title }, createdAt))
    subscribers.push({ orgId, taskId: id, actorId: ownerMemberId, createdAt })
    if (assigned) {
      subscribers.push({ orgId, taskId: id, actorId: memberId, createdAt })
      // What the notifier writes for `task.created` with an assignee, a second later.
      const at = start + n * 60_000 + 1000
      const notification = {
        id: newId('NotificationId'),
        orgId,
        recipientId: memberId,
        kind: 'assigned',
        record: { type: 'task', id },
        actorId: ownerMemberId,
        eventId: created,
        summary: `${view.key} ${title}`,
        readAt: null,
        snoozedUntil: null,
        archivedAt: null,
        createdAt: iso(at),
        updatedAt: iso(at),
      }
      const { record, ...rest } = notification
      notifications.push({ ...rest, recordType: record.type, recordId: record.id, dedupeKey: created })
      events.push({
        at,
        event: {
          id: newId('EventId'),
          kind: 'notification.created',
          // The notifier runs as the system: no actor.
          actorId: null,
          resourceType: 'notification',
          resourceId: notification.id,
          teamId: null,
          recipientId: memberId,
          data: { notification: { ...notification, state: 'unread' } },
          createdAt: iso(at),
        },
      })
    }
    if (completed) {
      row.stateId = done.id
      row.completedAt = completedAt
      row.updatedAt = completedAt
      const after = taskView(row, 'completed')
      events.push({
        at: now - completedAgo(n),
        event: {
          id: newId('EventId'),
          kind: 'task.updated',
          actorId: ownerMemberId,
          resourceType: 'task',
          resourceId: id,
          teamId,
          data: {
            task: after,
            changes: {
              stateId: { before: backlog.id, after: done.id },
              completedAt: { before: null, after: completedAt },
            },
          },
          createdAt: completedAt,
        },
      })
      history.push(historyEntry(orgId, id, ownerMemberId, 'stateId', backlog.id, done.id, completedAt!))
    }
    if (archivedAt) {
      row.archivedAt = archivedAt
      events.push({
        at: start + n * 60_000 + 2000,
        event: {
          id: newId('EventId'),
          kind: 'task.archived',
          actorId: ownerMemberId,
          resourceType: 'task',
          resourceId: id,
          teamId,
          data: { task: taskView(row, 'backlog') },
          createdAt: iso(start + n * 60_000 + 2000),
        },
      })
      history.push(historyEntry(orgId, id, ownerMemberId, 'archivedAt', null, archivedAt, archivedAt))
    }
    row.boardRank = completed ? boardRanks.done[doneAt++]! : boardRanks.backlog[backlogAt++]!
    taskRows.push(row)
    for (const blockerId of blockerIds)
      dependencies.push({ orgId, blockerId, blockedId: id, createdBy: ownerMemberId, createdAt })
    seedTasks.push({
      orgId,
      id,
      title,
      description,
      assigned,
      dueDate,
      completedAt,
      archived: archivedAt !== null,
      inCycle: cycle,
      blockerIds,
    })
    if (n % 10 === 3) {
      const at = start + n * 60_000 + 30_000
      const commentId = newId('CommentId')
      const body = `Thinking about ${WORDS[(n * 5 + 2) % WORDS.length]} and ${WORDS[(n * 9 + 4) % WORDS.length]} for task ${n}${n % 310 === 3 ? ` ${RARE_WORD}` : ''}`
      const comment = {
        orgId,
        id: commentId,
        subjectType: 'task',
        subjectId: id,
        taskId: id,
        threadId: commentId,
        authorId: ownerMemberId,
        automation: null,
        body,
        createdAt: iso(at),
        updatedAt: iso(at),
        editedAt: null,
        deletedAt: null,
        resolvedAt: null,
        resolvedById: null,
      }
      comments.push(comment)
      seedComments.push({ orgId, id: commentId, body })
      const { threadId: _t, ...rest } = comment
      events.push({
        at,
        event: {
          id: newId('EventId'),
          kind: 'comment.created',
          actorId: ownerMemberId,
          resourceType: 'comment',
          resourceId: commentId,
          teamId,
          data: { comment: { ...rest, parentId: null }, subjectType: 'task', subjectId: id, taskId: id },
          createdAt: iso(at),
        },
      })
    }
  }
  events.sort((a, b) => a.at - b.at)
  await storage.db.transaction().execute(async (trx) => {
    await insertRows(trx as Db, 'tasks', taskRows)
    await insertRows(trx as Db, 'taskSubscribers', subscribers)
    await insertRows(trx as Db, 'taskDependencies', dependencies)
    await insertRows(trx as Db, 'comments', comments)
    await insertRows(trx as Db, 'notifications', notifications)
    await trx
      .updateTable('teams')
      .set({ nextNumber: count })
      .where('orgId', '=', orgId)
      .where('id', '=', teamId)
      .execute()
    // History and events through storage's own bulk writes: the event sequence stays the counter's.
    await createKyselyStorage({ db: trx as Db, dialect: storage.dialect }).read(async (store) => {
      for (let i = 0; i < history.length; i += 2000)
        await store.taskHistory.insert(history.slice(i, i + 2000) as never)
      let last = 0
      for (let i = 0; i < events.length; i += 2000) {
        const stored = await store.events.append(
          orgId,
          events.slice(i, i + 2000).map((e) => e.event) as never,
        )
        last = stored.at(-1)?.seq ?? last
      }
      // The notifier has delivered these: its notifications are the bulk rows above.
      await store.notifier.claim(orgId)
      await store.notifier.advance(orgId, last)
    })
  })
  return { tasks: seedTasks, comments: seedComments }
}

function historyEntry(
  orgId: string,
  taskId: string,
  actorId: string,
  field: string,
  before: unknown,
  after: unknown,
  createdAt: string,
) {
  return {
    id: newId('TaskHistoryId'),
    orgId,
    taskId,
    actorId,
    automation: null,
    field,
    before,
    after,
    createdAt,
  }
}

/** The task as `tasks.get` shows it (what `newTask` builds), for the events' data. */
function taskView(row: Record<string, unknown>, stateCategory: string) {
  return {
    id: row.id,
    orgId: row.orgId,
    teamId: row.teamId,
    key: `ENG-${row.number}`,
    number: row.number,
    title: row.title,
    description: row.description,
    stateId: row.stateId,
    stateCategory,
    assigneeId: row.assigneeId,
    creatorId: row.creatorId,
    priority: row.priority,
    estimate: row.estimate,
    dueDate: row.dueDate,
    startDate: row.startDate,
    parentId: row.parentId,
    isBlocked: false,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    canceledAt: row.canceledAt,
    archivedAt: row.archivedAt,
    cycleId: row.cycleId,
    projectId: row.projectId,
    milestoneId: row.milestoneId,
    labelIds: [],
    fields: {},
  }
}
