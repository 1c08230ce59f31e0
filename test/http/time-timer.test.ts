import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('personal timer', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let now = Date.parse('2030-01-16T09:00:00.000Z')
  const advance = (minutes: number) => {
    now += minutes * 60_000
  }
  beforeAll(async () => {
    server = await startTestServer(db, { clock: () => new Date(now) })
  })
  afterAll(() => server.drop())

  it('times a task and writes an entry in its workspace when stopped', async () => {
    const ws = await newWorkspace(server)
    const t = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Fix' })).body
    expect((await ws.api.get('/v1/me/timer')).body).toEqual({ timer: null })
    const started = await ws.api.post('/v1/me/timer', {
      task: { orgId: ws.orgId, key: t.key },
      note: 'Pairing',
    })
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ timer: { taskId: t.id, elapsedMinutes: 0 }, stopped: null })
    advance(12)
    expect((await ws.api.get('/v1/me/timer')).body.timer.elapsedMinutes).toBe(12)
    const stopped = await ws.api.post('/v1/me/timer/stop', {})
    expect(stopped.body).toMatchObject({
      entry: { taskId: t.id, minutes: 12, source: 'timer', note: 'Pairing', date: '2030-01-16' },
      discarded: null,
    })
    expect((await ws.api.get('/v1/me/timer')).body).toEqual({ timer: null })
    const listed = await ws.api.get(`/v1/orgs/${ws.orgId}/time-entries`)
    expect(listed.body.data.map((e: any) => e.id)).toEqual([stopped.body.entry.id])
    const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)).body.data.map((e: any) => e.kind)
    expect(kinds).toEqual(expect.arrayContaining(['timer.started', 'timeEntry.created', 'timer.stopped']))
    expect((await ws.api.post('/v1/me/timer/stop', {})).body.code).toBe('conflict')
  })

  it('keeps one timer per person across workspaces: starting another stops the first into an entry', async () => {
    const a = await newWorkspace(server)
    const ta = (await a.api.post(`/v1/orgs/${a.orgId}/tasks`, { teamId: a.teamId, title: 'A' })).body
    const b = await a.api.post('/v1/orgs', { name: 'Other' })
    const team = await a.api.post(`/v1/orgs/${b.body.id}/teams`, { name: 'Ops', key: 'OPS' })
    const tb = (await a.api.post(`/v1/orgs/${b.body.id}/tasks`, { teamId: team.body.id, title: 'B' })).body
    await a.api.post('/v1/me/timer', { task: { orgId: a.orgId, id: ta.id } })
    advance(10)
    const second = await a.api.post('/v1/me/timer', { task: { orgId: b.body.id, id: tb.id } })
    expect(second.body.stopped).toMatchObject({ orgId: a.orgId, taskId: ta.id, minutes: 10 })
    expect(second.body.timer).toMatchObject({ orgId: b.body.id, taskId: tb.id })
    expect((await a.api.get('/v1/me/timer')).body.timer.orgId).toBe(b.body.id)
    // Under a minute: nothing is written.
    const short = await a.api.post('/v1/me/timer/stop', { note: 'x' })
    expect(short.body).toEqual({ entry: null, discarded: 'too_short' })
  })

  it('needs contribute on the task, and treats a task one cannot view as missing', async () => {
    const ws = await newWorkspace(server)
    const t = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Fix' })).body
    const viewer = await teamGuest(ws, 'view')
    const denied = await viewer.api.post('/v1/me/timer', { task: { orgId: ws.orgId, id: t.id } })
    expect(denied).toMatchObject({ status: 403, body: { code: 'capability_required' } })
    const outsider = await newWorkspace(server)
    const missing = await outsider.api.post('/v1/me/timer', { task: { orgId: ws.orgId, id: t.id } })
    expect(missing).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    expect((await viewer.api.get('/v1/me/timer')).body).toEqual({ timer: null })
  })

  it('discards the timer when the person lost access to the task meanwhile', async () => {
    const ws = await newWorkspace(server)
    const t = (await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Fix' })).body
    const member = await ws.addMember('member')
    await member.api.post('/v1/me/timer', { task: { orgId: ws.orgId, id: t.id } })
    advance(5)
    await ws.api.patch(`/v1/orgs/${ws.orgId}/members/${member.memberId}`, { role: 'guest' })
    const stopped = await member.api.post('/v1/me/timer/stop', {})
    expect(stopped.body).toEqual({ entry: null, discarded: 'no_access' })
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/time-entries`)).body.data).toEqual([])
  })
})
