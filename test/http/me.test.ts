import { NOTIFICATION_KINDS, newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('me: profile and preferences', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('answers who I am: the person, active memberships with roles, and the token', async () => {
    const ws = await newWorkspace(server)
    const person = await ws.addMember('member')
    const me = await person.api.get('/v1/me')
    expect(me.status).toBe(200)
    expect(me.headers.get('etag')).toBeTruthy()
    expect(me.body).toEqual({
      user: {
        id: person.user.id,
        email: person.user.email,
        name: person.user.name,
        avatarUrl: null,
        timeZone: null,
        locale: null,
        createdAt: expect.any(String),
      },
      memberships: [{ orgId: ws.orgId, orgName: 'Acme', memberId: person.memberId, role: 'member' }],
      token: {
        scopes: ['work:read', 'work:write'],
        clientId: null,
        clientName: null,
        resource: expect.stringMatching(/\/v1$/),
        expiresAt: expect.any(String),
      },
    })
  })

  it('lists every active membership with its role, and drops one that ends', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const person = await a.addMember('admin')
    const inB = await server.storage.transaction(async (s) => {
      const now = new Date().toISOString()
      const id = newId('MemberId')
      await s.members.insert({
        id,
        orgId: b.orgId,
        userId: person.user.id,
        kind: 'person',
        role: 'guest',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      })
      return id
    })
    const roles = (await person.api.get('/v1/me')).body.memberships.map((m: any) => [m.orgId, m.role])
    expect(roles).toEqual(
      [
        [a.orgId, 'admin'],
        [b.orgId, 'guest'],
      ].sort((x, y) => x[0]!.localeCompare(y[0]!)),
    )
    await b.api.delete(`/v1/orgs/${b.orgId}/members/${inB}`)
    const after = (await person.api.get('/v1/me')).body.memberships.map((m: any) => m.orgId)
    expect(after).toEqual([a.orgId])
  })

  it('updates the profile, canonicalising the time zone and locale, and the name shows in workspaces', async () => {
    const ws = await newWorkspace(server)
    const res = await ws.api.patch('/v1/me', {
      name: '  Ada Lovelace ',
      avatarUrl: 'https://example.com/ada.png',
      timeZone: 'europe/paris',
      locale: 'EN-gb',
    })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({
      name: 'Ada Lovelace',
      avatarUrl: 'https://example.com/ada.png',
      timeZone: 'Europe/Paris',
      locale: 'en-GB',
    })
    // One resource, one representation: the change answers what `GET /v1/me` reads.
    expect((await ws.api.get('/v1/me')).body).toEqual(res.body)
    const members = await ws.api.get(`/v1/orgs/${ws.orgId}/members`)
    expect(members.body.data[0].name).toBe('Ada Lovelace')
    const cleared = await ws.api.patch('/v1/me', { avatarUrl: null, timeZone: null })
    expect(cleared.body.user).toMatchObject({ avatarUrl: null, timeZone: null, locale: 'en-GB' })
  })

  it('refuses a time zone that is not IANA, a malformed locale or avatar, pointing at the field, and keeps the profile', async () => {
    const ws = await newWorkspace(server)
    await ws.api.patch('/v1/me', { timeZone: 'America/New_York', locale: 'en-US' })
    // The schema states the shape of a zone name and of an avatar URL (400); which zones exist, what
    // a BCP 47 tag is and a blank name are rules beyond it (422).
    for (const [field, value, status, code] of [
      ['timeZone', 'Mars/Olympus_Mons', 422, 'rule_violated'],
      ['timeZone', '+02:00', 400, 'validation_failed'],
      ['locale', 'en_US', 422, 'rule_violated'],
      ['locale', 'not a tag', 422, 'rule_violated'],
      ['avatarUrl', 'javascript:alert(1)', 400, 'validation_failed'],
      ['name', '   ', 422, 'rule_violated'],
    ] as const) {
      const res = await ws.api.patch('/v1/me', { [field]: value })
      expect(res.status, `${field}=${value}`).toBe(status)
      expect(res.body.code).toBe(code)
      expect(res.body.errors[0].pointer).toBe(`/body/${field}`)
    }
    expect((await ws.api.patch('/v1/me', {})).status).toBe(400)
    expect((await ws.api.get('/v1/me')).body.user).toMatchObject({
      timeZone: 'America/New_York',
      locale: 'en-US',
    })
  })

  it('needs work:write to change the profile and work:read to read it', async () => {
    const reader = await newPerson(server.engine, { scopes: ['work:read'] })
    expect((await server.as(reader.token).get('/v1/me')).status).toBe(200)
    const denied = await server.as(reader.token).patch('/v1/me', { name: 'X' })
    expect(denied).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } })
    const writer = await newPerson(server.engine, { scopes: ['work:write'] })
    expect((await server.as(writer.token).get('/v1/me')).status).toBe(403)
    expect((await server.request('GET', '/v1/me', { token: null })).status).toBe(401)
  })

  it('reads default preferences, then changes them; the default workspace must be mine', async () => {
    const ws = await newWorkspace(server)
    const stranger = await newWorkspace(server)
    const prefs = '/v1/me/preferences'
    // Mail (docs/mail.md): at once, every kind, until the person says otherwise.
    expect((await ws.api.get(prefs)).body).toEqual({
      defaultOrgId: null,
      weekStart: 'monday',
      dateFormat: 'locale',
      notificationDelivery: 'instant',
      digestHour: 9,
      mailKinds: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, true])),
      updatedAt: null,
    })
    const changed = await ws.api.patch(prefs, { defaultOrgId: ws.orgId, weekStart: 'sunday' })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ defaultOrgId: ws.orgId, weekStart: 'sunday', dateFormat: 'locale' })
    const more = await ws.api.patch(prefs, { dateFormat: 'iso' })
    expect(more.body).toEqual({
      defaultOrgId: ws.orgId,
      weekStart: 'sunday',
      dateFormat: 'iso',
      notificationDelivery: 'instant',
      digestHour: 9,
      mailKinds: expect.objectContaining({ assigned: true, mentioned: true }),
      updatedAt: expect.any(String),
    })
    expect((await ws.api.get(prefs)).body).toEqual(more.body)

    // Mail goes at once, in a daily digest or not at all (docs/mail.md): no weekly digest.
    const inert = await ws.api.patch(prefs, { notificationDelivery: 'weeklyDigest' })
    expect(inert).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', errors: [{ pointer: '/body/notificationDelivery' }] },
    })

    const refused = await ws.api.patch(prefs, { defaultOrgId: stranger.orgId, weekStart: 'saturday' })
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/defaultOrgId' }] },
    })
    const bad = await ws.api.patch(prefs, { weekStart: 'friday' })
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    expect((await ws.api.get(prefs)).body).toEqual(more.body)
  })

  it('changes only the mail kinds sent, and keeps the delivery across other changes', async () => {
    const ws = await newWorkspace(server)
    const prefs = '/v1/me/preferences'
    const first = await ws.api.patch(prefs, {
      notificationDelivery: 'dailyDigest',
      mailKinds: { taskCreated: false },
    })
    expect(first.body).toMatchObject({
      notificationDelivery: 'dailyDigest',
      mailKinds: { taskCreated: false },
    })
    const second = await ws.api.patch(prefs, { mailKinds: { commented: false }, dateFormat: 'iso' })
    expect(second.body).toMatchObject({
      notificationDelivery: 'dailyDigest',
      dateFormat: 'iso',
      mailKinds: { taskCreated: false, commented: false, mentioned: true },
    })
    expect((await ws.api.get(prefs)).body).toEqual(second.body)
  })

  it('reads a default workspace I have left as null', async () => {
    const ws = await newWorkspace(server)
    const person = await ws.addMember('member')
    await person.api.patch('/v1/me/preferences', { defaultOrgId: ws.orgId })
    await ws.api.delete(`/v1/orgs/${ws.orgId}/members/${person.memberId}`)
    expect((await person.api.get('/v1/me/preferences')).body.defaultOrgId).toBeNull()
  })

  it('checks If-Match on a preferences change', async () => {
    const ws = await newWorkspace(server)
    const read = await ws.api.get('/v1/me/preferences')
    const etag = read.headers.get('etag')!
    expect(
      (await ws.api.patch('/v1/me/preferences', { weekStart: 'sunday' }, { 'if-match': etag })).status,
    ).toBe(200)
    const stale = await ws.api.patch('/v1/me/preferences', { weekStart: 'saturday' }, { 'if-match': etag })
    expect(stale).toMatchObject({ status: 412, body: { code: 'precondition_failed' } })
  })
})
