import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

/**
 * A record named in the body that does not exist or that the caller cannot view is a bad value of
 * that field (422 `reference_not_found` pointing at it); the same record named in the path is what
 * the request is about, and answers 404.
 */
describeEachDatabase('references in the body and in the path', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('tasks.create: an unknown or hidden teamId is a 422 at /body/teamId, and nothing is created', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const design = (await ws.api.post(`${o}/teams`, { name: 'Design', key: 'DES' })).body
    const guest = await teamGuest(ws, 'contribute')
    const unknown = 'team_01JD3Q2R4S5T6V7W8X9YZABCDE'
    const refused = [
      await ws.api.post(`${o}/tasks`, { teamId: unknown, title: 'Nowhere' }),
      // The guest sees only the sample team: Design is hidden from them, answered as if absent.
      await guest.api.post(`${o}/tasks`, { teamId: design.id, title: 'Hidden' }),
      // A team of another workspace is not one of this workspace.
      await ws.api.post(`${o}/tasks`, { teamId: (await newWorkspace(server)).teamId, title: 'Elsewhere' }),
    ]
    for (const res of refused)
      expect(res).toMatchObject({
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer: '/body/teamId' }] },
      })
    // The missing and the hidden team read the same.
    expect(refused[1]!.body.detail).toBe(refused[0]!.body.detail)
    // In a batch, the pointer names the item.
    const batch = await ws.api.post(`${o}/tasks/batch-create`, {
      items: [
        { teamId: ws.teamId, title: 'Fine' },
        { teamId: unknown, title: 'Nowhere' },
      ],
    })
    expect(batch).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/items/1/teamId' }] },
    })
    const titles = (await ws.api.get(`${o}/tasks?limit=100`)).body.data.map((t: any) => t.title)
    expect(titles).not.toEqual(expect.arrayContaining(['Nowhere']))
    expect(titles).not.toContain('Fine')
    expect(titles).not.toContain('Hidden')

    // A visible team the caller may only view is still a 403, and the same team in the path a 404.
    const viewer = await teamGuest(ws, 'view', design.id)
    expect(await viewer.api.post(`${o}/tasks`, { teamId: design.id, title: 'Read only' })).toMatchObject({
      status: 403,
      body: { code: 'capability_required' },
    })
    expect((await guest.api.get(`${o}/teams/${design.id}`)).status).toBe(404)
    expect((await ws.api.get(`${o}/teams/${unknown}`)).status).toBe(404)
  })

  it('grants.create: a missing or hidden container or subject team is a 422 at its field', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const design = (await ws.api.post(`${o}/teams`, { name: 'Design', key: 'DES' })).body
    // `manage` on the sample team only: Design is hidden from the lead.
    const lead = await teamGuest(ws, 'manage')
    const guest = await ws.addMember('guest')
    const unknownTeam = 'team_01JD3Q2R4S5T6V7W8X9YZABCDE'
    const elsewhere = await newWorkspace(server)
    const project = (
      await elsewhere.api.post(`/v1/orgs/${elsewhere.orgId}/projects`, {
        name: 'Theirs',
        teamIds: [elsewhere.teamId],
      })
    ).body
    expect(project.id).toBeDefined()
    const grant = (who: typeof ws.api, body: Record<string, string>) =>
      who.post(`${o}/grants`, {
        subjectType: 'member',
        subjectId: guest.memberId,
        capability: 'view',
        ...body,
      })
    const cases: Array<[string, Promise<any>, string]> = [
      [
        'hidden team',
        grant(lead.api, { containerType: 'team', containerId: design.id }),
        '/body/containerId',
      ],
      [
        'missing team',
        grant(lead.api, { containerType: 'team', containerId: unknownTeam }),
        '/body/containerId',
      ],
      [
        "another workspace's project",
        grant(ws.api, { containerType: 'project', containerId: project.id }),
        '/body/containerId',
      ],
      [
        'hidden subject team',
        grant(lead.api, {
          subjectType: 'team',
          subjectId: design.id,
          containerType: 'team',
          containerId: ws.teamId,
        }),
        '/body/subjectId',
      ],
      [
        'missing member',
        grant(ws.api, {
          subjectId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE',
          containerType: 'team',
          containerId: ws.teamId,
        }),
        '/body/subjectId',
      ],
    ]
    const answers = []
    for (const [what, answer, pointer] of cases) {
      const res = await answer
      answers.push(res)
      expect({ what, ...res }).toMatchObject({
        what,
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer }] },
      })
    }
    // The hidden team reads as the missing one.
    expect(answers[0].body.detail).toBe(answers[1].body.detail)
    // Nothing was granted; a visible team without `manage` is still a 403, a grant in the path a 404.
    const grants = (await ws.api.get(`${o}/grants?subjectId=${guest.memberId}`)).body.data
    expect(grants).toEqual([])
    const viewer = await teamGuest(ws, 'view')
    expect(await grant(viewer.api, { containerType: 'team', containerId: ws.teamId })).toMatchObject({
      status: 403,
      body: { code: 'capability_required' },
    })
    expect((await ws.api.get(`${o}/grants/grt_01JD3Q2R4S5T6V7W8X9YZABCDE`)).status).toBe(404)
  })

  it('every operation that names a record in its body answers a missing one with 422 at that field', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const missing = (prefix: string) => `${prefix}_01JD3Q2R4S5T6V7W8X9YZABCDE`
    const view = (await ws.api.post(`${o}/views`, { name: 'Mine', filter: {} })).body
    const cases: Array<[string, Promise<any>, string]> = [
      [
        'views.create',
        ws.api.post(`${o}/views`, { name: 'Shared', filter: {}, teamId: missing('team') }),
        '/body/teamId',
      ],
      ['views.update', ws.api.patch(`${o}/views/${view.id}`, { teamId: missing('team') }), '/body/teamId'],
      [
        'labels.create',
        ws.api.post(`${o}/labels`, { name: 'Elsewhere', teamId: missing('team') }),
        '/body/teamId',
      ],
      [
        'updateRequests.create',
        ws.api.post(`${o}/update-requests`, { subjectType: 'project', subjectId: missing('proj') }),
        '/body/subjectId',
      ],
      [
        'notificationRules.create',
        ws.api.post(`${o}/notification-rules`, {
          target: { type: 'project', id: missing('proj') },
          kinds: ['taskCreated'],
        }),
        '/body/target/id',
      ],
      [
        'notificationMutes.create',
        ws.api.post(`${o}/notification-mutes`, { record: { type: 'task', id: missing('task') } }),
        '/body/record/id',
      ],
      [
        'tasks.batchUpdate',
        ws.api.post(`${o}/tasks/batch-update`, { items: [{ id: missing('task'), title: 'x' }] }),
        '/body/items/0/id',
      ],
    ]
    for (const [id, answer, pointer] of cases)
      expect({ id, ...(await answer) }).toMatchObject({
        id,
        status: 422,
        body: { code: 'reference_not_found', errors: [{ pointer }] },
      })
    // Nothing was stored: the view is still personal, and no label was made.
    expect((await ws.api.get(`${o}/views/${view.id}`)).body.teamId ?? null).toBeNull()
    expect((await ws.api.get(`${o}/labels?limit=100`)).body.data.map((l: any) => l.name)).not.toContain(
      'Elsewhere',
    )
  })
})
