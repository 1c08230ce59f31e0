import { newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TestPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const away = '/v1/me/away'
const DAY_MS = 86_400_000
/** A calendar date `offset` days from today in a time zone (UTC by default). */
const day = (offset: number, timeZone = 'UTC') =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + offset * DAY_MS),
  )

describeEachDatabase('me.away', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  /** Makes `person` an active member of another workspace too. */
  const join = async (ws: TestWorkspace, person: TestPerson) => {
    const memberId = newId('MemberId')
    const now = new Date().toISOString()
    await server.storage.transaction((s) =>
      s.members.insert({
        id: memberId,
        orgId: ws.orgId,
        userId: person.user.id,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    return memberId
  }

  it('declares, reads, changes (with If-Match) and cancels a period; another person sees none of it', async () => {
    const ws = await newWorkspace(server)
    const created = await ws.api.post(away, {
      startDate: '2030-02-03',
      endDate: '2030-02-14',
      note: 'Skiing',
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ startDate: '2030-02-03', endDate: '2030-02-14', note: 'Skiing' })
    expect(created.body.id).toMatch(/^awy_/)
    const path = `${away}/${created.body.id}`
    expect(created.headers.get('location')).toBe(path)
    const got = await ws.api.get(path)
    expect(got.body).toEqual(created.body)
    const etag = got.headers.get('etag')!
    expect((await ws.api.patch(path, { note: null }, { 'if-match': '"stale"' })).status).toBe(412)
    const changed = await ws.api.patch(path, { endDate: '2030-02-16', note: null }, { 'if-match': etag })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ startDate: '2030-02-03', endDate: '2030-02-16', note: null })
    expect((await ws.api.get(path)).body).toEqual(changed.body)

    const other = await ws.addMember('member')
    expect((await other.api.get(path)).status).toBe(404)
    expect((await other.api.patch(path, { note: 'mine' })).status).toBe(404)
    expect((await other.api.delete(path)).status).toBe(404)
    expect((await other.api.get(away)).body.data).toEqual([])

    expect((await ws.api.delete(path)).status).toBe(204)
    expect((await ws.api.delete(path)).body).toMatchObject({ status: 404, code: 'not_found' })
    expect((await ws.api.get(path)).status).toBe(404)
    expect((await ws.api.get(away)).body.data).toEqual([])
  })

  it('refuses dates out of order, not on the calendar, longer than a year, and a long note; nothing is kept', async () => {
    const ws = await newWorkspace(server)
    const backwards = await ws.api.post(away, { startDate: '2030-02-10', endDate: '2030-02-09' })
    expect(backwards).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/endDate' }] },
    })
    const noSuchDay = await ws.api.post(away, { startDate: '2030-02-30', endDate: '2030-03-02' })
    expect(noSuchDay.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/body/startDate' }],
    })
    const tooLong = await ws.api.post(away, { startDate: '2030-01-01', endDate: '2031-01-02' })
    expect(tooLong.body).toMatchObject({ code: 'rule_violated', errors: [{ pointer: '/body/endDate' }] })
    expect((await ws.api.post(away, { startDate: '2030-01-01', endDate: '2031-01-01' })).status).toBe(201)
    const note = await ws.api.post(away, {
      startDate: '2032-01-01',
      endDate: '2032-01-02',
      note: 'x'.repeat(501),
    })
    expect(note.body).toMatchObject({ status: 400, code: 'validation_failed' })
    expect((await ws.api.get(away)).body.data).toHaveLength(1)
    // A change that would put the end before the start points at the field sent.
    const id = (await ws.api.get(away)).body.data[0].id
    const moved = await ws.api.patch(`${away}/${id}`, { startDate: '2031-01-05' })
    expect(moved.body).toMatchObject({ code: 'rule_violated', errors: [{ pointer: '/body/startDate' }] })
    expect((await ws.api.patch(`${away}/${id}`, {})).status).toBe(400)
  })

  it('refuses a period that shares a day with another, naming it; adjacent periods are fine', async () => {
    const ws = await newWorkspace(server)
    const first = (await ws.api.post(away, { startDate: '2030-05-10', endDate: '2030-05-20' })).body
    const clash = await ws.api.post(away, { startDate: '2030-05-20', endDate: '2030-05-25' })
    expect(clash).toMatchObject({ status: 409, body: { code: 'conflict', awayId: first.id } })
    const inside = await ws.api.post(away, { startDate: '2030-05-12', endDate: '2030-05-13' })
    expect(inside.body).toMatchObject({ code: 'conflict', awayId: first.id })
    const next = await ws.api.post(away, { startDate: '2030-05-21', endDate: '2030-05-25' })
    expect(next.status).toBe(201)
    // Moving one onto the other is refused too and changes nothing; a period may move within itself.
    const onto = await ws.api.patch(`${away}/${next.body.id}`, { startDate: '2030-05-18' })
    expect(onto).toMatchObject({ status: 409, body: { code: 'conflict', awayId: first.id } })
    expect((await ws.api.get(`${away}/${next.body.id}`)).body.startDate).toBe('2030-05-21')
    expect((await ws.api.patch(`${away}/${first.id}`, { startDate: '2030-05-09' })).status).toBe(200)
    // Another person's periods never clash with mine.
    const other = await ws.addMember('member')
    expect((await other.api.post(away, { startDate: '2030-05-10', endDate: '2030-05-20' })).status).toBe(201)
  })

  it('lists by start date in exact pages', async () => {
    const ws = await newWorkspace(server)
    const starts = ['2030-09-01', '2030-03-01', '2030-07-01', '2030-01-01', '2030-05-01']
    for (const s of starts) await ws.api.post(away, { startDate: s, endDate: s })
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res: any = await ws.api.get(`${away}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status).toBe(200)
      seen.push(...res.body.data.map((p: any) => p.startDate))
      if (res.body.nextCursor) expect(res.body.data).toHaveLength(2)
      cursor = res.body.nextCursor
      pages++
    } while (cursor)
    expect(seen).toEqual([...starts].sort())
    expect(pages).toBe(3)
    expect((await ws.api.get(`${away}?cursor=forged.cursor`)).body.code).toBe('invalid_cursor')
  })

  it('shows colleagues in every workspace that the person is away today, until when, never the note', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server, { teamKey: 'OPS' })
    const person = await a.addMember('member')
    const inB = await join(b, person)
    const members = async (ws: TestWorkspace) =>
      (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data as any[]
    const inA = `/v1/orgs/${a.orgId}/members/${person.memberId}`

    // A period that starts tomorrow is not shown yet.
    const later = (await person.api.post(away, { startDate: day(1), endDate: day(3), note: 'Dentist' })).body
    expect((await a.api.get(inA)).body.away).toBeUndefined()
    await person.api.delete(`${away}/${later.id}`)

    const now = (await person.api.post(away, { startDate: day(-1), endDate: day(4), note: 'Family matter' }))
      .body
    expect((await a.api.get(inA)).body).toMatchObject({ id: person.memberId, away: { until: day(4) } })
    expect((await a.api.get(inA)).body.away).toEqual({ until: day(4) })
    const listedA = await members(a)
    expect(listedA.find((m) => m.id === person.memberId).away).toEqual({ until: day(4) })
    expect(listedA.find((m) => m.userId === a.owner.user.id).away).toBeUndefined()
    const listedB = await members(b)
    expect(listedB.find((m) => m.id === inB).away).toEqual({ until: day(4) })
    expect(JSON.stringify(listedB)).not.toContain('Family matter')
    expect((await b.api.get(`/v1/orgs/${b.orgId}/members/${inB}`)).body.away).toEqual({ until: day(4) })

    // Ended early: no longer away.
    await person.api.patch(`${away}/${now.id}`, { endDate: day(-1) })
    expect((await a.api.get(inA)).body.away).toBeUndefined()
  })

  it('counts today on the person’s own calendar (their profile time zone)', async () => {
    const ws = await newWorkspace(server)
    const person = await ws.addMember('member')
    const path = `/v1/orgs/${ws.orgId}/members/${person.memberId}`
    // UTC+14: usually a day ahead of UTC. A period of that zone's today only.
    const zone = 'Pacific/Kiritimati'
    await person.api.patch('/v1/me', { timeZone: zone })
    await person.api.post(away, { startDate: day(0, zone), endDate: day(0, zone) })
    expect((await ws.api.get(path)).body.away).toEqual({ until: day(0, zone) })
    // UTC-12 is 26 hours behind: its today is never that day.
    await person.api.patch('/v1/me', { timeZone: 'Etc/GMT+12' })
    expect((await ws.api.get(path)).body.away).toBeUndefined()
  })

  it('pauses carry-over onto a day while away; the items wait and carry once back', async () => {
    const ws = await newWorkspace(server)
    const plan = '/v1/me/daily-plan'
    const item = (await ws.api.post(`${plan}/${day(-2)}/items`, { text: 'Reply to Ada' })).body
    const period = (await ws.api.post(away, { startDate: day(-1), endDate: day(2) })).body
    const paused = await ws.api.post(`${plan}/${day(0)}/carry-over`)
    expect(paused.status).toBe(200)
    expect(paused.body).toMatchObject({ date: day(0), carried: 0, awayUntil: day(2), items: [] })
    expect((await ws.api.get(`${plan}/items/${item.id}`)).body.date).toBe(day(-2))
    // The first day back carries them.
    const back = await ws.api.post(`${plan}/${day(3)}/carry-over`)
    expect(back.body).toMatchObject({
      carried: 1,
      awayUntil: null,
      items: [{ id: item.id, carriedFrom: day(-2) }],
    })
    await ws.api.delete(`${away}/${period.id}`)
  })
})
