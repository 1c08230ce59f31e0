import { type MemberId, type OrgId, ProblemError } from '@workgraph/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/http.ts'
import { hubWorkspaces, postIn as post } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * The hub's reads of what I lead or follow (portfolio, updates, typeahead, agenda, digest); the inbox
 * batch is in hub-inbox-batch.test.ts. Alice owns A, is a member of B and a guest of C who sees only its ENG team; D is not hers. Nothing of
 * C's Secret team, of D, or of B's records she does not lead or follow may show.
 */
describeEachDatabase('hub: portfolio, updates, typeahead, agenda, digest', (db) => {
  let server: TestServer & { drop(): Promise<void> }
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** A follower row written straight to storage (the API would refuse a record she cannot view). */
  async function follow(orgId: string, recordType: string, recordId: string, actorId: string) {
    await server.storage.transaction((s) =>
      s.followers.add({
        orgId: orgId as OrgId,
        recordType,
        recordId,
        actorId: actorId as MemberId,
        addedAt: new Date().toISOString(),
      }),
    )
  }

  const day = (offset: number) => {
    const d = new Date()
    d.setUTCDate(d.getUTCDate() + offset)
    return d.toISOString().slice(0, 10)
  }

  let a: TestWorkspace
  let b: TestWorkspace
  let c: TestWorkspace
  let d: TestWorkspace
  let api: ReturnType<TestServer['as']>
  const ids: Record<string, string> = {}
  const name = (id: string) => Object.keys(ids).find((k) => ids[k] === id) ?? id

  beforeAll(async () => {
    const world = await hubWorkspaces(server)
    ;({ a, b, c, api } = world)
    const { aliceInA, aliceInB, aliceInC, secretTeam } = world
    d = await newWorkspace(server)

    // A: she leads a project (a milestone, a target date), owns a program.
    ids.pA = (
      await post(a, '/projects', {
        name: 'pA',
        teamIds: [a.teamId],
        leadId: aliceInA,
        targetDate: day(10),
      })
    ).id
    ids.mA = (await post(a, `/projects/${ids.pA}/milestones`, { name: 'Beta', targetDate: day(5) })).id
    ids.prgA = (await post(a, '/programs', { name: 'prgA', ownerId: aliceInA })).id
    ids.tA = (
      await post(a, '/tasks', { teamId: a.teamId, title: 'tA', assigneeId: aliceInA, dueDate: day(2) })
    ).id
    // Her team in A (a member of it already, or now): its cycle's days are on her agenda.
    await a.api.put(`/v1/orgs/${a.orgId}/teams/${a.teamId}/members/${aliceInA}`)
    const cycle = await post(a, `/teams/${a.teamId}/cycles`, {
      startsAt: `${day(1)}T00:00:00.000Z`,
      endsAt: `${day(8)}T00:00:00.000Z`,
    })
    ids.cycleA = cycle.id
    // B: she follows one project and owns an initiative; another project is not hers.
    ids.pB = (await post(b, '/projects', { name: 'pB', teamIds: [b.teamId] })).id
    const followed = await b.api.put(`/v1/orgs/${b.orgId}/projects/${ids.pB}/subscribers/${aliceInB}`)
    expect(followed.status).toBe(200)
    ids.pBother = (
      await post(b, '/projects', { name: 'pBother', teamIds: [b.teamId], targetDate: day(4) })
    ).id
    ids.iB = (await post(b, '/initiatives', { name: 'iB', ownerId: aliceInB, targetDate: day(3) })).id
    // C: she follows a project of ENG, which she sees, and one of Secret, which she does not.
    ids.pC = (await post(c, '/projects', { name: 'pC', teamIds: [c.teamId] })).id
    await follow(c.orgId, 'project', ids.pC!, aliceInC)
    ids.pCsecret = (
      await post(c, '/projects', { name: 'pCsecret', teamIds: [secretTeam], targetDate: day(6) })
    ).id
    await follow(c.orgId, 'project', ids.pCsecret!, aliceInC)
    ids.tCsecret = (
      await post(c, '/tasks', {
        teamId: secretTeam,
        title: 'tCsecret',
        assigneeId: aliceInC,
        dueDate: day(2),
      })
    ).id
    // D: not hers; a forged follower row with her member id of A must not leak it either.
    ids.pD = (await post(d, '/projects', { name: 'pD', teamIds: [d.teamId], targetDate: day(3) })).id
    await follow(d.orgId, 'project', ids.pD!, aliceInA)

    // Updates, in this order: A1, B1, hidden ones, A2, C1.
    const update = async (ws: TestWorkspace, key: string, project: string, health: string) => {
      ids[key] = (await post(ws, `/projects/${ids[project]}/updates`, { body: key, health })).id
    }
    await update(a, 'uA1', 'pA', 'onTrack')
    await update(b, 'uB1', 'pB', 'atRisk')
    await update(b, 'uBother', 'pBother', 'offTrack')
    await update(c, 'uCsecret', 'pCsecret', 'offTrack')
    await update(d, 'uD', 'pD', 'offTrack')
    await update(a, 'uA2', 'pA', 'offTrack')
    await update(c, 'uC1', 'pC', 'onTrack')

    // Her daily plan: a time block and an unscheduled item.
    const block = await api.post(`/v1/me/daily-plan/${day(1)}/items`, {
      text: 'Focus',
      timeBlock: { start: '09:00', end: '10:00' },
    })
    expect(block.status).toBe(201)
    ids.block = block.body.id
    await api.post(`/v1/me/daily-plan/${day(1)}/items`, { text: 'Whenever' })
  })

  describe('portfolio', () => {
    it('lists what she leads, owns or follows, worst health first, never what she cannot view', async () => {
      const res = await api.get('/v1/hub/portfolio')
      expect(res.status).toBe(200)
      expect(res.body.partial).toEqual([])
      const got = res.body.data.map((r: any) => name(r.id))
      // offTrack, atRisk, onTrack, then no health by target date (iB on day 3), then undated.
      expect(got).toEqual(['pA', 'pB', 'pC', 'iB', 'prgA'])
      expect(new Set(got)).toEqual(new Set(['pA', 'pB', 'iB', 'prgA', 'pC']))
      const pA = res.body.data[0]
      expect(pA).toMatchObject({
        orgId: a.orgId,
        type: 'project',
        health: 'offTrack',
        targetDate: day(10),
        nextMilestone: { id: ids.mA, name: 'Beta', targetDate: day(5) },
        lastUpdate: { id: ids.uA2, health: 'offTrack', excerpt: 'uA2' },
      })
      expect(pA.relations).toContain('lead')
      expect(res.body.data[1].relations).toEqual(['follower'])
      expect(res.body.data.find((r: any) => r.id === ids.prgA)).toMatchObject({
        type: 'program',
        relations: expect.arrayContaining(['lead']),
      })
      expect(res.body.data.find((r: any) => r.id === ids.iB)).toMatchObject({
        type: 'initiative',
        orgId: b.orgId,
      })
    })

    it('filters by type and workspace, pages with a signed cursor, refuses a bad type', async () => {
      const projects = await api.get('/v1/hub/portfolio?types=project')
      expect(projects.body.data.map((r: any) => name(r.id))).toEqual(['pA', 'pB', 'pC'])
      const inB = await api.get(`/v1/hub/portfolio?orgId=${b.orgId}`)
      expect(inB.body.data.map((r: any) => name(r.id))).toEqual(['pB', 'iB'])
      const all = (await api.get('/v1/hub/portfolio')).body.data.map((r: any) => r.id)
      const paged: string[] = []
      let cursor: string | null = null
      for (let i = 0; i < 10; i++) {
        const page: any = await api.get(
          `/v1/hub/portfolio?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
        expect(page.status).toBe(200)
        expect(page.body.data.length).toBeLessThanOrEqual(2)
        paged.push(...page.body.data.map((r: any) => r.id))
        cursor = page.body.nextCursor
        if (!cursor) break
      }
      expect(paged).toEqual(all)
      expect((await api.get('/v1/hub/portfolio?types=task')).status).toBe(400)
      const other = (await api.get('/v1/hub/portfolio?types=project&limit=1')).body.nextCursor
      expect((await api.get(`/v1/hub/portfolio?cursor=${encodeURIComponent(other)}`)).status).toBe(400)
    })

    it('reports a failing workspace in partial and answers with the others', async () => {
      const root = await server.storage.read(async (s) => s)
      const original = root.hubReads.related
      root.hubReads.related = async (orgId, ...rest) => {
        if (orgId === c.orgId) throw new ProblemError('service_unavailable', 'injected')
        return original(orgId, ...rest)
      }
      try {
        const res = await api.get('/v1/hub/portfolio')
        expect(res.status).toBe(200)
        expect(res.body.partial).toEqual([{ orgId: c.orgId, code: 'service_unavailable' }])
        expect(res.body.data.map((r: any) => name(r.id))).not.toContain('pC')
        expect(res.body.data.map((r: any) => name(r.id))).toContain('pA')
      } finally {
        root.hubReads.related = original
      }
    })
  })

  describe('updates', () => {
    it('merges the feeds of what she leads or follows, newest first, and pages across workspaces', async () => {
      const res = await api.get('/v1/hub/updates?limit=100')
      expect(res.status).toBe(200)
      expect(res.body.partial).toEqual([])
      expect(res.body.data.map((u: any) => name(u.id))).toEqual(['uC1', 'uA2', 'uB1', 'uA1'])
      expect(res.body.nextCursor).toBeNull()
      const paged: string[] = []
      let cursor: string | null = null
      for (let i = 0; i < 10; i++) {
        const page: any = await api.get(
          `/v1/hub/updates?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
        expect(page.status).toBe(200)
        paged.push(...page.body.data.map((u: any) => name(u.id)))
        cursor = page.body.nextCursor
        if (!cursor) break
      }
      expect(paged).toEqual(['uC1', 'uA2', 'uB1', 'uA1'])
      const atRisk = await api.get('/v1/hub/updates?health=atRisk')
      expect(atRisk.body.data.map((u: any) => name(u.id))).toEqual(['uB1'])
      const programs = await api.get('/v1/hub/updates?types=program')
      expect(programs.body.data).toEqual([])
      expect((await api.get('/v1/hub/updates?cursor=nope')).status).toBe(400)
    })
  })

  describe('typeahead', () => {
    it('matches name prefixes in every workspace, per type, only what she may view', async () => {
      const projects = await api.get('/v1/hub/typeahead?q=P&types=project')
      expect(projects.status).toBe(200)
      expect(projects.body.partial).toEqual([])
      expect(projects.body.data.map((h: any) => name(h.id))).toEqual(['pA', 'pB', 'pC', 'pBother'])
      const two = await api.get('/v1/hub/typeahead?q=p&types=project&limit=2')
      expect(two.body.data.map((h: any) => name(h.id))).toEqual(['pA', 'pB'])
      const exact = await api.get('/v1/hub/typeahead?q=pbother&types=project,milestone')
      expect(exact.body.data.map((h: any) => name(h.id))).toEqual(['pBother'])
      const beta = await api.get('/v1/hub/typeahead?q=bet')
      expect(beta.body.data.map((h: any) => [h.type, name(h.id)])).toEqual([['milestone', 'mA']])
      // Secret is C's team she cannot view; its task neither.
      expect((await api.get('/v1/hub/typeahead?q=SEC&types=team')).body.data).toEqual([])
      expect((await api.get('/v1/hub/typeahead?q=sec-1&types=task')).body.data).toEqual([])
      const task = (await api.get(`/v1/orgs/${a.orgId}/tasks/${ids.tA}`)).body
      const byKey = await api.get(`/v1/hub/typeahead?q=${task.key.toLowerCase()}&types=task&orgId=${a.orgId}`)
      expect(byKey.body.data[0]).toMatchObject({ type: 'task', id: ids.tA, key: task.key, orgId: a.orgId })
      // People: her membership in A, B and C, never D's members.
      const aliceName = a.owner.user.name
      const people = await api.get(`/v1/hub/typeahead?q=${encodeURIComponent(aliceName)}&types=person`)
      expect(new Set(people.body.data.map((h: any) => h.orgId))).toEqual(new Set([a.orgId, b.orgId, c.orgId]))
      expect((await api.get('/v1/hub/typeahead?q=p&types=user')).status).toBe(400)
      expect((await api.get('/v1/hub/typeahead?q=p&limit=11')).status).toBe(400)
    })
  })

  describe('agenda', () => {
    it('lists dated items of every workspace in the range, in order, only what she may view', async () => {
      const res = await api.get(`/v1/hub/agenda?from=${day(0)}&to=${day(14)}`)
      expect(res.status).toBe(200)
      expect(res.body.partial).toEqual([])
      const got = res.body.data.map((i: any) => `${i.date} ${i.kind} ${name(i.id)}`)
      expect(got).toEqual([
        `${day(1)} cycleStart cycleA`,
        `${day(1)} timeBlock block`,
        `${day(2)} taskDue tA`,
        `${day(3)} initiativeTarget iB`,
        `${day(5)} milestone mA`,
        `${day(8)} cycleEnd cycleA`,
        `${day(10)} projectTarget pA`,
      ])
      expect(res.body.data[1].time).toEqual({ start: '09:00', end: '10:00' })
      const narrow = await api.get(`/v1/hub/agenda?from=${day(3)}&to=${day(5)}&orgId=${b.orgId}`)
      expect(narrow.body.data.map((i: any) => name(i.id))).toEqual(['iB'])
      expect((await api.get(`/v1/hub/agenda?from=${day(0)}&to=${day(70)}`)).status).toBe(422)
      expect((await api.get(`/v1/hub/agenda?from=${day(3)}&to=${day(1)}`)).status).toBe(422)
    })
  })

  describe('digest', () => {
    it('groups what changed since a time per record she leads or follows, nothing else', async () => {
      await new Promise((r) => setTimeout(r, 5))
      const since = new Date().toISOString()
      await new Promise((r) => setTimeout(r, 5))
      // pA: a task of its milestone completed (the milestone is done), and its status changed.
      const done = Object.values(a.states).find((st) => st.category === 'completed')!.id
      const t = await post(a, '/tasks', {
        teamId: a.teamId,
        title: 'ship beta',
        projectId: ids.pA,
        milestoneId: ids.mA,
      })
      expect((await a.api.patch(`/v1/orgs/${a.orgId}/tasks/${t.id}`, { stateId: done })).status).toBe(200)
      const statuses = (await a.api.get(`/v1/orgs/${a.orgId}/project-statuses`)).body.data
      const project = (await a.api.get(`/v1/orgs/${a.orgId}/projects/${ids.pA}`)).body
      const next = statuses.find((st: any) => st.id !== project.statusId && st.category === 'started')
      expect(
        (await a.api.patch(`/v1/orgs/${a.orgId}/projects/${ids.pA}`, { statusId: next.id })).status,
      ).toBe(200)
      // pB: a new update moves its health from at risk to off track.
      ids.uB2 = (await post(b, `/projects/${ids.pB}/updates`, { body: 'uB2', health: 'offTrack' })).id
      // Not hers, or not visible to her.
      await post(b, `/projects/${ids.pBother}/updates`, { body: 'x', health: 'onTrack' })
      await post(c, `/projects/${ids.pCsecret}/updates`, { body: 'x', health: 'onTrack' })
      await post(d, `/projects/${ids.pD}/updates`, { body: 'x', health: 'onTrack' })

      const res = await api.get(`/v1/hub/digest?since=${encodeURIComponent(since)}`)
      expect(res.status).toBe(200)
      expect(res.body.partial).toEqual([])
      expect(res.body.data.map((r: any) => name(r.id))).toEqual(['pB', 'pA'])
      const [pB, pA] = res.body.data
      expect(pB).toMatchObject({
        orgId: b.orgId,
        updates: [{ id: ids.uB2, health: 'offTrack', excerpt: 'uB2' }],
        healthChanges: [{ from: 'atRisk', to: 'offTrack' }],
        statusChanges: [],
        tasksCompleted: { count: 0, items: [] },
      })
      expect(pA).toMatchObject({
        orgId: a.orgId,
        updates: [],
        healthChanges: [],
        statusChanges: [{ to: next.name }],
        milestonesCompleted: [{ id: ids.mA, name: 'Beta' }],
        tasksCompleted: { count: 1, items: [{ id: t.id, title: 'ship beta' }] },
      })
      const onlyB = await api.get(`/v1/hub/digest?since=${encodeURIComponent(since)}&orgId=${b.orgId}`)
      expect(onlyB.body.data.map((r: any) => name(r.id))).toEqual(['pB'])
      const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString()
      expect((await api.get(`/v1/hub/digest?since=${encodeURIComponent(longAgo)}`)).status).toBe(422)
    })
  })
})
