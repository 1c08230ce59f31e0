import { type MemberId, ProblemError } from '@workgraph/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestPerson } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/http.ts'
import { hubWorkspaces } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import type { TestWorkspace } from '../support/workspace.ts'

/**
 * The hub reads across workspaces: a person in three orgs with different roles (owner, member,
 * guest with one team), one membership ended mid-way, one org failing through the store.
 */
describeEachDatabase('hub', (db) => {
  let server: TestServer & { drop(): Promise<void> }
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** Every page of a hub read, following `nextCursor`. */
  async function walk(api: ReturnType<TestServer['as']>, path: string) {
    const seen: any[] = []
    let cursor: string | null = null
    for (let i = 0; i < 100; i++) {
      const sep = path.includes('?') ? '&' : '?'
      const res: { status: number; body: any } = await api.get(
        `${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      expect(res.status).toBe(200)
      expect(res.body.partial).toEqual([])
      seen.push(...res.body.data)
      cursor = res.body.nextCursor
      if (!cursor) return seen
    }
    throw new Error('too many pages')
  }

  interface World {
    alice: TestPerson
    api: ReturnType<TestServer['as']>
    a: TestWorkspace
    b: TestWorkspace
    c: TestWorkspace
    aliceInB: MemberId
    aliceInC: MemberId
    secretTeam: string
    secretIds: string[]
    visibleIds: string[]
  }
  let world: World

  beforeAll(async () => {
    // A: Alice owns it. B: Alice is a member. C: Alice is a guest who sees the ENG team only.
    const { a, b, c, alice, api, aliceInB, aliceInC, secretTeam } = await hubWorkspaces(server)

    const post = async (ws: TestWorkspace, path: string, body: unknown) => {
      const res = await ws.api.post(`/v1/orgs/${ws.orgId}${path}`, body)
      if (res.status !== 201) throw new Error(`${path}: ${JSON.stringify(res.body)}`)
      return res.body
    }
    const visibleIds: string[] = []
    const secretIds: string[] = []
    const taskA = await post(a, '/tasks', {
      teamId: a.teamId,
      title: 'Launch plan',
      description: 'Orbit first',
    })
    visibleIds.push(taskA.id)
    visibleIds.push((await post(a, '/projects', { name: 'Launch week', teamIds: [a.teamId] })).id)
    visibleIds.push((await post(a, `/tasks/${taskA.id}/comments`, { body: 'The launch slipped a day' })).id)
    const taskB = await post(b, '/tasks', { teamId: b.teamId, title: 'Rocket launch checklist' })
    visibleIds.push(taskB.id)
    visibleIds.push(
      (
        await post(b, '/documents', {
          holderType: 'team',
          holderId: b.teamId,
          title: 'Launch runbook',
          content: 'Steps',
        })
      ).id,
    )
    visibleIds.push((await post(b, '/initiatives', { name: 'Launch everywhere' })).id)
    // The project does not match; its update does.
    const projectB = await post(b, '/projects', { name: 'Pad', teamIds: [b.teamId] })
    visibleIds.push(
      (await post(b, `/projects/${projectB.id}/updates`, { body: 'Launch on track', health: 'onTrack' })).id,
    )
    visibleIds.push((await post(c, '/tasks', { teamId: c.teamId, title: 'Launch party' })).id)
    // What Alice cannot view in C: a task, its comment, a project, a document and an update there.
    const secretTask = await post(c, '/tasks', { teamId: secretTeam, title: 'Launch secret' })
    secretIds.push(secretTask.id)
    secretIds.push((await post(c, `/tasks/${secretTask.id}/comments`, { body: 'launch codes' })).id)
    const secretProject = await post(c, '/projects', { name: 'Launch secretly', teamIds: [secretTeam] })
    secretIds.push(secretProject.id)
    secretIds.push(
      (
        await post(c, '/documents', {
          holderType: 'team',
          holderId: secretTeam,
          title: 'Launch keys',
          content: 'x',
        })
      ).id,
    )
    secretIds.push(
      (
        await post(c, `/projects/${secretProject.id}/updates`, {
          body: 'Launch secret going well',
          health: 'onTrack',
        })
      ).id,
    )
    // An initiative linking only the secret project is invisible to a guest of ENG.
    const secretInitiative = await post(c, '/initiatives', { name: 'Launch initiative hidden' })
    secretIds.push(secretInitiative.id)
    world = { alice, api, a, b, c, aliceInB, aliceInC, secretTeam, secretIds, visibleIds }
  })

  describe('search', () => {
    it('finds what the person may view in each workspace, nothing else, paging across workspaces', async () => {
      const { api, a, b, c, secretIds, visibleIds } = world
      const all = await api.get('/v1/hub/search?q=launch&limit=50')
      expect(all.status).toBe(200)
      expect(all.body.partial).toEqual([])
      const ids = all.body.data.map((h: any) => h.id)
      expect(new Set(ids)).toEqual(new Set(visibleIds))
      for (const secret of secretIds) expect(ids).not.toContain(secret)
      expect(new Set(all.body.data.map((h: any) => h.orgId))).toEqual(new Set([a.orgId, b.orgId, c.orgId]))
      const task = all.body.data.find((h: any) => h.title === 'Rocket launch checklist')
      expect(task).toMatchObject({
        type: 'task',
        key: 'ENG-1',
        orgId: b.orgId,
        parent: { type: 'team', id: b.teamId },
      })
      for (const hit of all.body.data) {
        expect(hit.score).toBeGreaterThan(0)
        expect(hit.score).toBeLessThanOrEqual(1)
      }
      // Each workspace's best hit scores 1.
      for (const orgId of [a.orgId, b.orgId, c.orgId])
        expect(
          Math.max(...all.body.data.filter((h: any) => h.orgId === orgId).map((h: any) => h.score)),
        ).toBe(1)

      // Page by page, across workspaces: every hit exactly once, in the same order.
      for (const limit of [1, 2, 3]) {
        const paged = await walk(api, `/v1/hub/search?q=launch&limit=${limit}`)
        expect(paged.map((h) => h.id)).toEqual(ids)
      }

      // Every word must begin a word of the record; types narrow the kinds.
      const two = await api.get('/v1/hub/search?q=rock%20laun')
      expect(two.body.data.map((h: any) => h.id)).toEqual([visibleIds[3]])
      const onlyTasks = await api.get('/v1/hub/search?q=launch&types=task')
      expect(new Set(onlyTasks.body.data.map((h: any) => h.type))).toEqual(new Set(['task']))
      expect(onlyTasks.body.data).toHaveLength(3)
      // The index's workspace and kind tokens are never matched as words.
      expect((await api.get('/v1/hub/search?q=task')).body.data).toEqual([])
      expect((await api.get('/v1/hub/search?q=org')).body.data).toEqual([])
      const onlyB = await api.get(`/v1/hub/search?q=launch&orgId=${b.orgId}`)
      expect(new Set(onlyB.body.data.map((h: any) => h.orgId))).toEqual(new Set([b.orgId]))
    })

    it('refuses a tampered cursor, a cursor of another read and bad input with 400', async () => {
      const { api } = world
      const first = await api.get('/v1/hub/search?q=launch&limit=1')
      const cursor = first.body.nextCursor as string
      expect(cursor).toBeTruthy()
      const [body, mac] = cursor.split('.')
      const json = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'))
      // Moving a workspace's position by hand: the signature no longer matches.
      for (const key of Object.keys(json.v)) json.v[key].r = 0
      const forged = `${Buffer.from(JSON.stringify(json)).toString('base64url')}.${mac}`
      for (const bad of [forged, `${cursor}x`, 'nonsense']) {
        const res = await api.get(`/v1/hub/search?q=launch&limit=1&cursor=${encodeURIComponent(bad)}`)
        expect(res.status).toBe(400)
        expect(res.body.code).toBe('invalid_cursor')
      }
      // The cursor of another query, or of another hub read.
      const other = await api.get(`/v1/hub/search?q=party&limit=1&cursor=${encodeURIComponent(cursor)}`)
      expect(other.body.code).toBe('invalid_cursor')
      const inbox = await api.get(`/v1/hub/inbox?cursor=${encodeURIComponent(cursor)}`)
      expect(inbox.body.code).toBe('invalid_cursor')
      expect((await api.get('/v1/hub/search?q=%25%25')).body.code).toBe('rule_violated')
      expect((await api.get('/v1/hub/search?q=launch&types=task,widget')).body.code).toBe('validation_failed')
      expect((await api.get('/v1/hub/search?q=a%20b%20c%20d%20e%20f%20g%20h%20i')).status).toBe(422)
    })

    it('reports a failing workspace in partial and answers with the others', async () => {
      const { api, c } = world
      const root = await server.storage.read(async (s) => s)
      const original = root.hubReads.search
      root.hubReads.search = async (orgId, ...rest) => {
        if (orgId === c.orgId) throw new ProblemError('service_unavailable', 'injected')
        return original(orgId, ...rest)
      }
      try {
        const res = await api.get('/v1/hub/search?q=launch&limit=2')
        expect(res.status).toBe(200)
        expect(res.body.partial).toEqual([{ orgId: c.orgId, code: 'service_unavailable' }])
        expect(res.body.data.every((h: any) => h.orgId !== c.orgId)).toBe(true)
        root.hubReads.search = async () => {
          throw new Error('boom')
        }
        const all = await api.get('/v1/hub/search?q=launch')
        expect(all.status).toBe(200)
        expect(all.body.data).toEqual([])
        expect(all.body.partial.map((p: any) => p.code)).toEqual([
          'internal_error',
          'internal_error',
          'internal_error',
        ])
      } finally {
        root.hubReads.search = original
      }
    })
  })

  describe('resolve', () => {
    it('resolves a task key in each workspace where it is visible, and ids', async () => {
      const { api, a, b, c, visibleIds, secretIds } = world
      const res = await api.get('/v1/hub/resolve?ref=eng-1')
      expect(res.status).toBe(200)
      expect(new Set(res.body.data.map((r: any) => r.orgId))).toEqual(new Set([a.orgId, b.orgId, c.orgId]))
      expect(res.body.data.every((r: any) => r.type === 'task' && r.key === 'ENG-1')).toBe(true)
      expect((await api.get('/v1/hub/resolve?ref=SEC-1')).body.data).toEqual([])
      const project = await api.get(`/v1/hub/resolve?ref=${visibleIds[1]}`)
      expect(project.body.data).toEqual([
        { orgId: a.orgId, type: 'project', id: visibleIds[1], key: null, title: 'Launch week' },
      ])
      expect((await api.get(`/v1/hub/resolve?ref=${secretIds[2]}`)).body.data).toEqual([])
      expect((await api.get('/v1/hub/resolve?ref=not%20a%20key')).body.code).toBe('validation_failed')
    })
  })

  describe('inbox and activity', () => {
    it('merges notifications and events of every workspace, newest first, and pages them', async () => {
      const { api, a, b, c, aliceInB, aliceInC, secretTeam } = world
      // B's and C's owners assign tasks to Alice; A has none for her (her own actions).
      const inB = await b.api.post(`/v1/orgs/${b.orgId}/tasks`, {
        teamId: b.teamId,
        title: 'For Alice',
        assigneeId: aliceInB,
      })
      const inC = await c.api.post(`/v1/orgs/${c.orgId}/tasks`, {
        teamId: c.teamId,
        title: 'Also for Alice',
        assigneeId: aliceInC,
      })
      expect([inB.status, inC.status]).toEqual([201, 201])
      await server.engine.notify({ onError: (e) => console.error(e) })
      const inbox = await walk(api, '/v1/hub/inbox?limit=1')
      expect(inbox.map((n) => n.orgId)).toEqual([c.orgId, b.orgId])
      expect(inbox.map((n) => n.record.id)).toEqual([inC.body.id, inB.body.id])
      // Marked read in its workspace, it leaves the unread view of the hub.
      await api.post(`/v1/orgs/${c.orgId}/notifications/${inbox[0].id}/read`)
      const unread = await api.get('/v1/hub/inbox?unread=true')
      expect(unread.body.data.map((n: any) => n.id)).toEqual([inbox[1].id])

      const activity = await walk(api, '/v1/hub/activity?limit=4')
      const ids = activity.map((e) => e.id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(new Set(activity.map((e) => e.orgId))).toEqual(new Set([a.orgId, b.orgId, c.orgId]))
      expect(activity.some((e) => e.teamId === secretTeam)).toBe(false)
      for (let i = 1; i < activity.length; i++)
        expect(activity[i - 1].createdAt >= activity[i].createdAt).toBe(true)
      const created = await api.get(`/v1/hub/activity?kinds=task.created&recordId=${inB.body.id}`)
      expect(created.body.data.map((e: any) => [e.kind, e.resourceId])).toEqual([
        ['task.created', inB.body.id],
      ])
    })
  })

  describe('membership ended', () => {
    it('drops the workspace from every read, also from a cursor issued before', async () => {
      const { api, b, aliceInB } = world
      const first = await api.get('/v1/hub/search?q=launch&limit=1')
      const removed = await b.api.delete(`/v1/orgs/${b.orgId}/members/${aliceInB}`)
      expect(removed.status).toBe(204)
      const rest = await walk(api, `/v1/hub/search?q=launch&limit=2`)
      expect(rest.some((h) => h.orgId === b.orgId)).toBe(false)
      const next = await api.get(
        `/v1/hub/search?q=launch&limit=50&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      )
      expect(next.status).toBe(200)
      expect(next.body.data.some((h: any) => h.orgId === b.orgId)).toBe(false)
      expect((await api.get('/v1/hub/inbox')).body.data.some((n: any) => n.orgId === b.orgId)).toBe(false)
      expect((await walk(api, '/v1/hub/activity?limit=50')).some((e) => e.orgId === b.orgId)).toBe(false)
      expect(
        (await api.get('/v1/hub/resolve?ref=ENG-1')).body.data.some((r: any) => r.orgId === b.orgId),
      ).toBe(false)
    })
  })
})
