import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('project history', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('records every project write, newest first, page by page', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/projects`
    const p = (await ws.api.post(base, { name: 'P', teamIds: [ws.teamId] })).body
    const other = (await ws.api.post(base, { name: 'Q', teamIds: [ws.teamId] })).body
    const design = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const person = await ws.addMember('member')
    const label = (await ws.api.post(`/v1/orgs/${ws.orgId}/labels`, { name: 'Bug' })).body
    await ws.api.patch(`${base}/${p.id}`, { name: 'P2', targetDate: '2030-04-15' })
    await ws.api.post(`${base}/${p.id}/archive`)
    await ws.api.post(`${base}/${p.id}/restore`)
    await ws.api.put(`${base}/${p.id}/teams/${design.id}`)
    await ws.api.delete(`${base}/${p.id}/teams/${design.id}`)
    await ws.api.put(`${base}/${p.id}/members/${person.memberId}`)
    await ws.api.delete(`${base}/${p.id}/members/${person.memberId}`)
    await ws.api.put(`${base}/${p.id}/labels/${label.id}`)
    const m = (await ws.api.post(`${base}/${p.id}/milestones`, { name: 'M' })).body
    const r = (await ws.api.post(`${base}/${p.id}/relations`, { type: 'blocks', relatedProjectId: other.id }))
      .body
    await ws.api.delete(`/v1/orgs/${ws.orgId}/project-relations/${r.id}`)
    await ws.api.delete(`/v1/orgs/${ws.orgId}/milestones/${m.id}`)

    const entries: any[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(
        `${base}/${p.id}/history?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(4)
      entries.push(...page.body.data)
      cursor = page.body.nextCursor
    } while (cursor)
    // Newest first; reversed here to read in the order things happened.
    const changes = entries.map((e) => [e.field, e.before, e.after]).reverse()
    expect(changes).toEqual([
      ['created', null, { name: 'P' }],
      ['name', 'P', 'P2'],
      ['targetDate', null, '2030-04-15'],
      ['archivedAt', null, expect.any(String)],
      ['archivedAt', expect.any(String), null],
      ['teamIds', null, design.id],
      ['teamIds', design.id, null],
      ['members', null, person.memberId],
      ['members', person.memberId, null],
      ['labelIds', [], [label.id]],
      ['milestones', null, m.id],
      ['relations', null, r.id],
      ['relations', r.id, null],
      ['milestones', m.id, null],
    ])
    expect(new Set(entries.map((e) => e.actorId)).size).toBe(1)
    const stranger = await ws.addMember('guest')
    expect((await stranger.api.get(`${base}/${p.id}/history`)).status).toBe(404)
  })
})
