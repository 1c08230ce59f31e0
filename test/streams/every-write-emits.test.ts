import {
  type AnyOperation,
  EVENT_KINDS,
  isOrgScoped,
  type Mailer,
  OPERATIONS,
  type OrgId,
  type StoredEvent,
  streamEventOf,
} from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exampleBody } from '../support/example-world.ts'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { createComponentValidator } from '../support/openapi-validator.ts'
import { type Ids, sampleWorld } from '../support/sample-world.ts'
import { SETTLING_VERBS } from '../support/settling-verbs.ts'

/**
 * Writes outside any workspace change only the caller's own account and personal data: no workspace
 * stream can carry them (docs/me.md says how they are observed).
 */
const ACCOUNT_ONLY = new Set([
  'me.sessions.revoke',
  'me.sessions.revokeOthers',
  'me.consents.revoke',
  'me.update',
  'me.preferences.update',
  'me.favorites.create',
  'me.favorites.move',
  'me.favorites.delete',
  'me.dailyPlan.items.create',
  'me.dailyPlan.items.update',
  'me.dailyPlan.items.delete',
  'me.dailyPlan.items.complete',
  'me.dailyPlan.items.reopen',
  'me.dailyPlan.items.move',
  'me.dailyPlan.carryOver',
  'me.away.create',
  'me.away.update',
  'me.away.delete',
])

/** Reads sent as POST (the URL travels in the body, out of logs): they change nothing, so emit nothing. */
const READS_BY_POST = new Set(['linkedItems.preview'])

/**
 * Personal writes that act in a named workspace: the timer files its events in its task's, the hub's
 * inbox batch in each workspace it lists.
 */
const IN_TASK_WORKSPACE = ['me.timer.start', 'me.timer.stop', 'hub.inbox.batch']

/** A write that needs another first: `restore` after `archive`, `reactivate` after `deactivate`, `remove` after `add`. */
const NEEDS = {
  restore: 'archive',
  reactivate: 'deactivate',
  remove: 'add',
  unresolve: 'resolve',
  unread: 'read',
  unsnooze: 'snooze',
  resume: 'pause',
  unlock: 'lock',
} as const

/**
 * Bodies for writes whose request example cannot be sent to a sample world as it is. Every other
 * write sends its example, which must succeed there and change something.
 */
const CHANGING: Record<string, (ids: Ids) => unknown> = {
  // Its example reads in two workspaces; a sample world is one.
  'hub.inbox.batch': (ids) => ({ action: 'read', workspaces: [{ orgId: ids.orgId }] }),
}
/** Operations whose path ids differ from the sample world's defaults. */
const IDS: Record<string, (ids: Ids) => Ids> = {
  // The sample project spans the sample team already; add (and then remove) another one.
  'projects.teams.add': (ids) => ({ ...ids, teamId: ids.otherTeamId! }),
  'projects.teams.remove': (ids) => ({ ...ids, teamId: ids.otherTeamId! }),
  // The sample task carries the sample label; the containers take org labels only.
  'tasks.labels.add': (ids) => ({ ...ids, labelId: ids.otherLabelId! }),
  // The other task is not linked to the sample task yet.
  'tasks.blockers.add': (ids) => ({ ...ids, blockerId: ids.otherTaskId! }),
  'tasks.relations.add': (ids) => ({ ...ids, relatedTaskId: ids.otherTaskId! }),
  // The sample task may have left the team's default column (tasks.update); the related one stays,
  // and its example moves it after the other task of that column.
  'tasks.move': (ids) => ({ ...ids, taskId: ids.relatedTaskId! }),
  'projects.labels.add': (ids) => ({ ...ids, labelId: ids.orgLabelId! }),
  'programs.labels.add': (ids) => ({ ...ids, labelId: ids.orgLabelId! }),
  'initiatives.labels.add': (ids) => ({ ...ids, labelId: ids.orgLabelId! }),
  'projects.labels.remove': (ids) => ({ ...ids, labelId: ids.orgLabelId! }),
  'programs.labels.remove': (ids) => ({ ...ids, labelId: ids.orgLabelId! }),
  'initiatives.labels.remove': (ids) => ({ ...ids, labelId: ids.orgLabelId! }),
  // Moving the last of two held projects before the first.
  'programs.projects.move': (ids) => ({ ...ids, projectId: ids.programProjectIds!.split(',')[1]! }),
  'initiatives.projects.move': (ids) => ({
    ...ids,
    initiativeId: ids.orderedInitiativeId!,
    projectId: ids.orderedProjectId!,
  }),
  // Triage decisions act on the sample world's waiting request.
  'triage.accept': (ids) => ({ ...ids, taskId: ids.triageTaskId! }),
  'triage.decline': (ids) => ({ ...ids, taskId: ids.triageTaskId! }),
  'triage.snooze': (ids) => ({ ...ids, taskId: ids.triageTaskId! }),
  // Only a completed cycle can be archived.
  'cycles.archive': (ids) => ({ ...ids, cycleId: ids.completedCycleId! }),
  'cycles.restore': (ids) => ({ ...ids, cycleId: ids.completedCycleId! }),
}
/** Query parameters a write needs (the record an upload goes to; the upload itself is an empty file). */
const QUERY: Record<string, (ids: Ids) => string> = {
  'attachments.create': (ids) => `?recordType=task&recordId=${ids.taskId}`,
}
/** Verbs after which the world's records may be gone or settled: they run after the others. */
const DESTRUCTIVE = new Set(['delete', ...SETTLING_VERBS])
const destructive = (op: AnyOperation) => DESTRUCTIVE.has(op.id.split('.').at(-1)!)
/** Writes that leave the sample world unusable for anyone after them (the org archived, the member gone). */
const ENDS_WORLD = new Set(['orgs.archive', 'orgs.restore', 'orgs.leave'])
const WRITES_PER_WORLD = 24
type World = Awaited<ReturnType<typeof sampleWorld>>
// Each write sends its request example from the reference: every example must succeed and change something.
const bodyOf = (op: AnyOperation, ids: Ids) =>
  op.body ? (CHANGING[op.id]?.(ids) ?? exampleBody(op, ids)) : undefined

const writes = OPERATIONS.filter((op) => op.method !== 'GET' && !op.reads)

function fill(op: AnyOperation, ids: Ids) {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? `missing-${name}`)
}

describeEachDatabase('every write emits events', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const mail: Array<{ to: string; link: string }> = []
  const mailer: Mailer = { send: async (m) => void mail.push(m) }
  // Every event read back is checked against the document's `StreamEvent`: each kind's typed `data`
  // must be what the code really emits.
  const mismatches: string[] = []
  let matches: (value: unknown) => string | null
  beforeAll(async () => {
    server = await startTestServer(db, {
      mailer,
      config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } },
    })
    // Compiled once, before the writes run concurrently: compiling the union takes a while.
    matches = createComponentValidator((await server.request('GET', '/v1/openapi.json')).body, 'StreamEvent')
  })
  afterAll(() => server.drop())

  // How far each org's log has been read. A write's events are what its org's log gained since the
  // last read; each event is read once (the log from the start at an org's first read, so a world's
  // own events are checked too), rather than the whole log again around every write.
  const readUpTo = new Map<string, number>()
  const newEvents = async (orgId: string) => {
    const events: StoredEvent[] = await server.storage.read((s) =>
      s.events.list(orgId as OrgId, readUpTo.get(orgId) ?? 0, 100_000),
    )
    for (const e of events) {
      const errors = matches(streamEventOf(e))
      if (errors) mismatches.push(`${e.kind}: ${errors} in ${JSON.stringify(e.data).slice(0, 400)}`)
    }
    if (events.length > 0) readUpTo.set(orgId, events.at(-1)!.seq)
    return events
  }

  it('has a way to run every write operation', () => {
    const unknown = writes.filter(
      (op) =>
        !isOrgScoped(op) &&
        !ACCOUNT_ONLY.has(op.id) &&
        !IN_TASK_WORKSPACE.includes(op.id) &&
        !['orgs.create', 'invitations.accept', 'me.invitations.decline'].includes(op.id),
    )
    expect(
      unknown.map((op) => op.id),
      'add a case for writes outside /v1/orgs/{orgId}',
    ).toEqual([])
  })

  it('appends at least one event to the workspace log for every write, of a documented kind', async () => {
    const kinds = new Set<string>()
    const silent: string[] = []
    // Writes that change the world for everything after them go last; those that end it run alone.
    const pending = writes
      .filter((op) => isOrgScoped(op) && !READS_BY_POST.has(op.id))
      .sort((a, b) => Number(destructive(a)) - Number(destructive(b)))
    const attempt = async (op: AnyOperation, world: World) => {
      const { ws } = world
      // IDS changes the path only: a body's example ids are the world's records of their rank.
      const ids = IDS[op.id]?.(world.ids) ?? world.ids
      // Leaving needs a member other than the (only) owner.
      const userId =
        op.id === 'orgs.leave'
          ? (await server.storage.read((s) => s.members.get(ids.orgId as OrgId, ids.memberId as never)))!
              .userId
          : ws.owner.user.id
      const token = await server.engine.tokens.issueAccessToken({
        userId,
        scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
      })
      const verb = op.id.split('.').at(-1) as keyof typeof NEEDS
      const prior = NEEDS[verb] && writes.find((o) => o.id === op.id.replace(/\.\w+$/, `.${NEEDS[verb]}`))
      if (prior) {
        const res = await server.request(prior.method, fill(prior, ids), {
          token,
          body: bodyOf(prior, world.ids),
        })
        if (res.status >= 300) return { res, added: [] }
      }
      await newEvents(ids.orgId!)
      const res = await server.request(op.method, `${fill(op, ids)}${QUERY[op.id]?.(ids) ?? ''}`, {
        token,
        body: bodyOf(op, world.ids),
      })
      return { res, added: await newEvents(ids.orgId!) }
    }
    // A sample world costs about 80 requests, so a world serves several writes in turn. A write that
    // fails or emits nothing there (an earlier write may have deleted what it needs, or made it a
    // no-op) runs again on a fresh world, and only that run decides.
    const runAll = async () => {
      let world: World | null = null
      let used = 0
      for (let op = pending.shift(); op; op = pending.shift()) {
        if (!world || used >= WRITES_PER_WORLD || ENDS_WORLD.has(op.id)) {
          world = await sampleWorld(server)
          used = 0
        }
        let { res, added } = await attempt(op, world)
        if ((res.status >= 300 || added.length === 0) && used > 0)
          ({ res, added } = await attempt(op, await sampleWorld(server)))
        used++
        if (ENDS_WORLD.has(op.id)) world = null
        expect(res.status, `${op.id}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
        if (added.length === 0) silent.push(op.id)
        for (const e of added) kinds.add(e.kind)
      }
    }
    await Promise.all(Array.from({ length: 4 }, runAll))
    expect(silent, 'writes that emitted no event').toEqual([])

    const owner = await newPerson(server.engine)
    const created = await server.as(owner.token).post('/v1/orgs', { name: 'Emits' })
    for (const e of await newEvents(created.body.id)) kinds.add(e.kind)
    expect(kinds).toContain('org.created')

    const invitee = await newPerson(server.engine)
    await server.as(owner.token).post(`/v1/orgs/${created.body.id}/invitations`, {
      email: invitee.user.email,
      role: 'member',
    })
    const token = new URL(mail.filter((m) => m.to === invitee.user.email).at(-1)!.link).searchParams.get(
      'token',
    )
    await newEvents(created.body.id)
    const accepted = await server.as(invitee.token).post('/v1/invitations/accept', { token })
    expect(accepted.status).toBe(200)
    const added = await newEvents(created.body.id)
    expect(added.length, 'invitations.accept emitted no event').toBeGreaterThan(0)
    for (const e of added) kinds.add(e.kind)

    // Declining files its event in the inviting workspace.
    const decliner = await newPerson(server.engine)
    const invited = await server.as(owner.token).post(`/v1/orgs/${created.body.id}/invitations`, {
      email: decliner.user.email,
      role: 'member',
    })
    await newEvents(created.body.id)
    const declined = await server.as(decliner.token).post(`/v1/me/invitations/${invited.body.id}/decline`)
    expect(declined.status).toBe(200)
    const declinedEvents = await newEvents(created.body.id)
    expect(declinedEvents.length, 'me.invitations.decline emitted no event').toBeGreaterThan(0)
    for (const e of declinedEvents) kinds.add(e.kind)

    // The timer: started and stopped on the sample task, each write files events in its workspace.
    const timerWorld = await sampleWorld(server)
    const timerToken = await server.engine.tokens.issueAccessToken({
      userId: timerWorld.ws.owner.user.id,
      scopes: ['work:read', 'work:write'],
    })
    for (const id of IN_TASK_WORKSPACE) {
      const op = writes.find((o) => o.id === id)!
      await newEvents(timerWorld.ids.orgId!)
      const res = await server.request(op.method, op.path, {
        token: timerToken,
        body: bodyOf(op, timerWorld.ids),
      })
      expect(res.status, `${op.id}: ${JSON.stringify(res.body)}`).toBe(200)
      const added = await newEvents(timerWorld.ids.orgId!)
      expect(added.length, `${op.id} emitted no event`).toBeGreaterThan(0)
      for (const e of added) kinds.add(e.kind)
    }

    const declared = new Set(EVENT_KINDS.flatMap((row) => row.kinds))
    const undeclared = [...kinds].filter((k) => !declared.has(k)).sort()
    expect(undeclared, 'event kinds no group declares (its group.ts `events`)').toEqual([])
    expect(mismatches, 'events whose data does not match their kind’s schema').toEqual([])
  }, 600_000)
})
