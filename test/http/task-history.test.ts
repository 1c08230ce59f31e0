import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('task history', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('records creation, every changed field with before and after, archive and restore', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const t = (await ws.api.post(tasks, { teamId: ws.teamId, title: 'First' })).body
    const path = `${tasks}/${t.id}`
    await member.api.patch(path, { title: 'Second', priority: 'high', estimate: null })
    await ws.api.patch(path, { stateId: ws.states['In Progress']!.id })
    await ws.api.post(`${path}/archive`)
    await ws.api.post(`${path}/restore`)
    const history = await ws.api.get(`${path}/history`)
    expect(history.status).toBe(200)
    const owner = t.creatorId
    // Newest first: the restore leads, the creation comes last.
    expect(history.body.data.map((e: any) => [e.field, e.before, e.after, e.actorId])).toEqual([
      ['archivedAt', expect.any(String), null, owner],
      ['archivedAt', null, expect.any(String), owner],
      ['stateId', ws.states.Backlog!.id, ws.states['In Progress']!.id, owner],
      ['priority', 'none', 'high', member.memberId],
      ['title', 'First', 'Second', member.memberId],
      ['created', null, { key: 'ENG-1', title: 'First' }, owner],
    ])
    expect(history.body.data.every((e: any) => e.taskId === t.id)).toBe(true)
  })

  it('records nothing for a refused or empty change', async () => {
    const ws = await newWorkspace(server)
    const t = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Same' })).body
    const path = `/v1/orgs/${ws.orgId}/tasks/${t.id}`
    await ws.api.patch(path, { title: 'Same' })
    expect((await ws.api.patch(path, { title: 'New', stateId: ws.teamId })).status).toBe(400)
    const history = await ws.api.get(`${path}/history`)
    expect(history.body.data.map((e: any) => e.field)).toEqual(['created'])
  })

  it('pages through a long history without loss or repetition', async () => {
    const ws = await newWorkspace(server)
    const t = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 't0' })).body
    const path = `/v1/orgs/${ws.orgId}/tasks/${t.id}`
    for (let i = 1; i <= 6; i++) await ws.api.patch(path, { title: `t${i}` })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${path}/history?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      seen.push(...page.body.data.map((e: any) => (e.field === 'created' ? 'created' : e.after)))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(['t6', 't5', 't4', 't3', 't2', 't1', 'created'])
  })

  it('hides the history of a task the reader cannot view', async () => {
    const ws = await newWorkspace(server)
    const guest = await ws.addMember('guest')
    const t = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Secret' })).body
    const res = await guest.api.get(`/v1/orgs/${ws.orgId}/tasks/${t.id}/history`)
    expect(res.status).toBe(404)
  })
})
