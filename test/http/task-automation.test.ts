import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
const HOUR = 3_600_000
/** Noon UTC; each test starts here, and moves the clock both engines read. */
const START = Date.parse('2030-03-04T12:00:00.000Z')

type Server = Awaited<ReturnType<typeof startTestServer>>

describeEachDatabase('teams’ auto-close and auto-archive', (db) => {
  // Two engines (two servers) on one database, as two instances of a deployment.
  let target: DatabaseTarget
  let a: Server
  let b: Server
  let now = START
  beforeAll(async () => {
    target = await db.fresh()
    const shared: TestDatabase = { ...db, fresh: async () => ({ ...target, drop: async () => {} }) }
    a = await startTestServer(shared, { clock: () => new Date(now) })
    b = await startTestServer(shared, { clock: () => new Date(now) })
  }, 60_000)
  beforeEach(async () => {
    now = START
    // The database is the suite's: no team an earlier test automated takes part in this one's passes.
    await a.storage.db
      .updateTable('teamSettings')
      .set({ autoCloseDays: null, autoArchiveDays: null })
      .execute()
  })
  afterAll(async () => {
    await a.drop()
    await b.drop()
    await target.drop()
  })

  const iso = (at: number) => new Date(at).toISOString()
  const fail = (error: unknown) => {
    throw error
  }
  /** Moves the clock; the owner signs in again, as access tokens live 15 minutes of it. */
  async function at(time: number, ws: TestWorkspace) {
    now = time
    const token = await a.engine.tokens.issueAccessToken({
      userId: ws.owner.user.id,
      scopes: ['work:read', 'work:write'],
    })
    ws.api = a.as(token)
  }
  const eventsOf = (ws: TestWorkspace) => a.storage.read((s) => s.events.list(ws.orgId as never, 0, 10_000))

  async function task(ws: TestWorkspace, title: string, state: string, extra: object = {}) {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
      teamId: ws.teamId,
      title,
      stateId: ws.states[state]!.id,
      ...extra,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.id as string
  }
  const read = async (ws: TestWorkspace, id: string) =>
    (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${id}`)).body
  /** Where the workspace's stream is now, and what it carries from there (checked against the document). */
  const streamAt = async (ws: TestWorkspace) =>
    (await ws.api.get(`/v1/orgs/${ws.orgId}/stream?from=now`)).body.nextCursor as string
  const streamedSince = async (ws: TestWorkspace, cursor: string) =>
    (await ws.api.get(`/v1/orgs/${ws.orgId}/stream?limit=500&cursor=${encodeURIComponent(cursor)}`)).body
      .data as any[]
  const settings = (ws: TestWorkspace, body: object) =>
    ws.api.patch(`/v1/orgs/${ws.orgId}/teams/${ws.teamId}/settings`, body)

  it('closes tasks nobody started once nothing touched them for autoCloseDays, not an hour early', async () => {
    const ws = await newWorkspace(a)
    const base = `/v1/orgs/${ws.orgId}`
    expect((await settings(ws, { autoCloseDays: 30, triageEnabled: true })).status).toBe(200)
    const ids = {
      backlog: await task(ws, 'Old idea', 'Backlog'),
      todo: await task(ws, 'Planned, never started', 'Todo'),
      started: await task(ws, 'Being worked on', 'In Progress'),
      done: await task(ws, 'Finished', 'Done'),
      edited: await task(ws, 'Edited on day 10', 'Todo'),
      discussed: await task(ws, 'Commented on day 20', 'Backlog'),
      parent: await task(ws, 'Parent of started work', 'Backlog'),
      triage: (await ws.api.post(`${base}/teams/${ws.teamId}/triage`, { title: 'A request' })).body.id,
      snoozed: (await ws.api.post(`${base}/teams/${ws.teamId}/triage`, { title: 'Later' })).body.id,
    }
    await task(ws, 'Started subtask', 'In Progress', { parentId: ids.parent })
    await ws.api.post(`${base}/tasks/${ids.snoozed}/triage/snooze`, { until: iso(START + 40 * DAY) })
    await at(START + 10 * DAY, ws)
    await ws.api.patch(`${base}/tasks/${ids.edited}`, { title: 'Edited on day 10, again' })
    await at(START + 20 * DAY, ws)
    await ws.api.post(`${base}/tasks/${ids.discussed}/comments`, { body: 'Still wanted.' })
    const before = (await eventsOf(ws)).length

    await at(START + 30 * DAY - HOUR, ws)
    expect(await a.engine.automateTasks({ onError: fail })).toEqual({ closed: 0, archived: 0, failed: 0 })
    expect((await eventsOf(ws)).length).toBe(before)

    await at(START + 30 * DAY, ws)
    const cursor = await streamAt(ws)
    const pass = await a.engine.automateTasks({ onError: fail })
    expect(pass).toEqual({ closed: 3, archived: 0, failed: 0 })
    const canceled = ws.states.Canceled!.id
    for (const key of ['backlog', 'todo', 'triage'] as const) {
      expect(await read(ws, ids[key]), key).toMatchObject({
        stateId: canceled,
        stateCategory: 'canceled',
        canceledAt: iso(now),
        archivedAt: null,
      })
    }
    for (const key of ['started', 'done', 'edited', 'discussed', 'parent', 'snoozed'] as const) {
      expect((await read(ws, ids[key])).stateCategory, key).not.toBe('canceled')
    }
    const history = (await ws.api.get(`${base}/tasks/${ids.todo}/history`)).body.data
    expect(history[0]).toMatchObject({
      field: 'stateId',
      before: ws.states.Todo!.id,
      after: canceled,
      actorId: null,
      automation: 'autoClose',
    })
    // Each closed task says why, in a comment by the system that names the setting.
    const comments = (await ws.api.get(`${base}/tasks/${ids.todo}/comments`)).body.data
    expect(comments).toEqual([
      expect.objectContaining({
        authorId: null,
        automation: 'autoClose',
        body: expect.stringContaining('for 30 days'),
        createdAt: iso(now),
      }),
    ])
    expect(comments[0].body).toContain('*Canceled*')
    const all = (await eventsOf(ws)).slice(before)
    expect(
      all
        .filter((e) => e.kind === 'comment.created')
        .map((e) => [e.actorId, e.data.taskId])
        .sort(),
    ).toEqual([ids.backlog, ids.todo, ids.triage].map((id) => [null, id]).sort())
    const events = all.filter((e) => e.kind === 'task.updated')
    expect(all).toHaveLength(6)
    for (const event of events) {
      expect(event).toMatchObject({ kind: 'task.updated', actorId: null, teamId: ws.teamId })
      expect(event.data).toMatchObject({
        automation: 'autoClose',
        task: { stateId: canceled },
        changes: { stateId: { after: canceled }, canceledAt: { before: null, after: iso(now) } },
      })
    }

    expect((await streamedSince(ws, cursor)).map((e) => [e.kind, e.actorId, e.data.automation])).toEqual(
      Array(3)
        .fill([
          ['task.updated', null, 'autoClose'],
          ['comment.created', null, undefined],
        ])
        .flat(),
    )

    // Run again at the same time: nothing left to do.
    expect(await b.engine.automateTasks({ onError: fail })).toEqual({ closed: 0, archived: 0, failed: 0 })
    expect((await eventsOf(ws)).length).toBe(before + 6)

    // Each waits its own period: the edited task 30 days after its edit, the snoozed one its snooze.
    await at(START + 41 * DAY, ws)
    expect((await a.engine.automateTasks({ onError: fail })).closed).toBe(2)
    expect((await read(ws, ids.edited)).stateCategory).toBe('canceled')
    expect((await read(ws, ids.snoozed)).stateCategory).toBe('canceled')
    expect((await read(ws, ids.discussed)).stateCategory).toBe('backlog')
  })

  it('archives tasks autoArchiveDays after they closed, subtasks before their parent', async () => {
    const ws = await newWorkspace(a)
    const base = `/v1/orgs/${ws.orgId}`
    expect((await settings(ws, { autoArchiveDays: 10 })).status).toBe(200)
    const done = await task(ws, 'Done on day 0', 'Done')
    const parent = await task(ws, 'Parent done on day 0', 'Done')
    const child = await task(ws, 'Child done on day 0', 'Done', { parentId: parent })
    const holder = await task(ws, 'Done, with an open subtask', 'Done')
    const open = await task(ws, 'Open subtask', 'Todo', { parentId: holder })
    const later = await task(ws, 'Canceled on day 5', 'Todo')
    const reopened = await task(ws, 'Done, reopened on day 5', 'Done')
    await at(START + 5 * DAY, ws)
    await ws.api.patch(`${base}/tasks/${later}`, { stateId: ws.states.Canceled!.id })
    await ws.api.patch(`${base}/tasks/${reopened}`, { stateId: ws.states.Todo!.id })
    const before = (await eventsOf(ws)).length

    await at(START + 10 * DAY - HOUR, ws)
    expect((await a.engine.automateTasks({ onError: fail })).archived).toBe(0)

    // One task per transaction: the parent's turn comes once its child is archived.
    await at(START + 10 * DAY, ws)
    const cursor = await streamAt(ws)
    expect(await a.engine.automateTasks({ batch: 1, onError: fail })).toEqual({
      closed: 0,
      archived: 3,
      failed: 0,
    })
    for (const id of [done, parent, child]) expect((await read(ws, id)).archivedAt).toBe(iso(now))
    for (const id of [holder, open, later, reopened]) expect((await read(ws, id)).archivedAt).toBeNull()
    const events = (await eventsOf(ws)).slice(before)
    expect(events.map((e) => [e.kind, e.resourceId, e.actorId, e.data.automation])).toEqual(
      expect.arrayContaining([
        ['task.archived', done, null, 'autoArchive'],
        ['task.archived', child, null, 'autoArchive'],
        ['task.archived', parent, null, 'autoArchive'],
      ]),
    )
    expect(events).toHaveLength(3)
    expect((await streamedSince(ws, cursor)).map((e) => [e.kind, e.actorId, e.data.automation])).toEqual(
      Array(3).fill(['task.archived', null, 'autoArchive']),
    )
    expect(events.findIndex((e) => e.resourceId === child)).toBeLessThan(
      events.findIndex((e) => e.resourceId === parent),
    )
    const history = (await ws.api.get(`${base}/tasks/${done}/history`)).body.data
    expect(history[0]).toMatchObject({
      field: 'archivedAt',
      before: null,
      after: iso(now),
      actorId: null,
      automation: 'autoArchive',
    })

    // A task someone restores gets a full period again.
    await at(START + 12 * DAY, ws)
    expect((await ws.api.post(`${base}/tasks/${done}/restore`)).status).toBe(200)
    await at(START + 15 * DAY, ws)
    expect((await a.engine.automateTasks({ onError: fail })).archived).toBe(1)
    expect((await read(ws, later)).archivedAt).toBe(iso(now))
    expect((await read(ws, holder)).archivedAt).toBeNull()
    expect((await read(ws, done)).archivedAt).toBeNull()
    await at(START + 22 * DAY, ws)
    expect((await a.engine.automateTasks({ onError: fail })).archived).toBe(1)
    expect((await read(ws, done)).archivedAt).toBe(iso(now))
  })

  it('leaves alone other teams: without the settings, set back to null, archived', async () => {
    const ws = await newWorkspace(a)
    const base = `/v1/orgs/${ws.orgId}`
    const quiet = await newWorkspace(a)
    /** Another team of the workspace, with one task in its backlog. */
    async function teamWithTask(key: string) {
      const team = await ws.api.post(`${base}/teams`, { name: key, key })
      expect(team.status).toBe(201)
      const states = await a.storage.read((s) =>
        s.states.listForTeam(ws.orgId, team.body.id, { includeArchived: false }),
      )
      const stateId = states.find((s) => s.category === 'backlog')!.id
      const created = await ws.api.post(`${base}/tasks`, { teamId: team.body.id, title: key, stateId })
      expect(created.status).toBe(201)
      return { teamId: team.body.id as string, taskId: created.body.id as string }
    }
    const closes = await task(ws, 'In the automated team', 'Backlog')
    const reset = await teamWithTask('DES')
    const archived = await teamWithTask('OPS')
    const untouched = await task(quiet, 'In a workspace without settings', 'Backlog')
    const teamSettings = (teamId: string, body: object) =>
      ws.api.patch(`${base}/teams/${teamId}/settings`, body)
    expect((await settings(ws, { autoCloseDays: 1 })).status).toBe(200)
    await teamSettings(reset.teamId, { autoCloseDays: 1, autoArchiveDays: 1 })
    expect((await teamSettings(reset.teamId, { autoCloseDays: null, autoArchiveDays: null })).status).toBe(
      200,
    )
    expect((await teamSettings(archived.teamId, { autoCloseDays: 1 })).status).toBe(200)
    expect((await ws.api.post(`${base}/teams/${archived.teamId}/archive`)).status).toBe(200)

    await at(START + 365 * DAY, ws)
    expect(await a.engine.automateTasks({ onError: fail })).toEqual({ closed: 1, archived: 0, failed: 0 })
    expect((await read(ws, closes)).stateCategory).toBe('canceled')
    expect((await read(ws, reset.taskId)).stateCategory).toBe('backlog')
    expect((await read(ws, archived.taskId)).stateCategory).toBe('backlog')
    await at(START + 365 * DAY, quiet)
    expect((await read(quiet, untouched)).stateCategory).toBe('backlog')
  })

  it('closes and archives each task once when two engines run the pass at the same time', async () => {
    const ws = await newWorkspace(a)
    await settings(ws, { autoCloseDays: 3, autoArchiveDays: 2 })
    const ids: string[] = []
    for (let i = 0; i < 7; i++) ids.push(await task(ws, `Idea ${i}`, i < 5 ? 'Backlog' : 'Done'))
    const before = (await eventsOf(ws)).length
    const both = async () => {
      const run = (s: Server) => s.engine.automateTasks({ batch: 2, onError: fail })
      // At once on Postgres; one after the other on SQLite, whose connections in one process would
      // wait on each other's write lock synchronously.
      const [x, y] =
        db.name === 'postgres' ? await Promise.all([run(a), run(b)]) : [await run(a), await run(b)]
      return { closed: x.closed + y.closed, archived: x.archived + y.archived, failed: x.failed + y.failed }
    }

    await at(START + 3 * DAY, ws)
    expect(await both()).toEqual({ closed: 5, archived: 2, failed: 0 })
    await at(START + 5 * DAY, ws)
    expect(await both()).toEqual({ closed: 0, archived: 5, failed: 0 })
    expect(await both()).toEqual({ closed: 0, archived: 0, failed: 0 })

    const events = (await eventsOf(ws)).slice(before)
    expect(events.filter((e) => e.kind === 'task.updated')).toHaveLength(5)
    expect(events.filter((e) => e.kind === 'task.archived')).toHaveLength(7)
    for (const id of ids) {
      const history = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${id}/history`)).body.data
      expect(history.filter((h: any) => h.actorId === null).length, id).toBe(ids.indexOf(id) < 5 ? 2 : 1)
    }
  })
})
