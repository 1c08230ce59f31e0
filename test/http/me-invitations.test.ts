import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { mailsTo } from '../support/outbox.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const mine = '/v1/me/invitations'

describeEachDatabase('me.invitations', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const invite = async (ws: TestWorkspace, email: string, role = 'member') => {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/invitations`, { email, role })
    if (res.status !== 201) throw new Error(JSON.stringify(res.body))
    return res.body as { id: string }
  }
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!

  it('lists pending invitations to my address across workspaces, with the workspace and the inviter', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    await server.as(b.owner.token).patch(`/v1/orgs/${b.orgId}`, { name: 'Beta' })
    const person = await newPerson(server.engine)
    const me = server.as(person.token)
    const fromA = await invite(a, person.user.email)
    // Sent in upper case: addresses compare case-insensitively.
    const fromB = await invite(b, person.user.email.toUpperCase(), 'admin')
    await invite(a, `someone.else.${Date.now()}@example.com`)
    const listed = await me.get(mine)
    expect(listed.status).toBe(200)
    const ownerA = (await a.api.get('/v1/me')).body.user.name
    expect(listed.body.data).toEqual(
      [
        {
          id: fromA.id,
          orgId: a.orgId,
          orgName: 'Acme',
          role: 'member',
          state: 'pending',
          invitedBy: { memberId: expect.any(String), name: ownerA },
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
          declinedAt: null,
        },
        expect.objectContaining({ id: fromB.id, orgId: b.orgId, orgName: 'Beta', role: 'admin' }),
      ].sort((x: any, y: any) => (x.id < y.id ? -1 : 1)),
    )
    // Not the token or anything of other people's invitations.
    expect(JSON.stringify(listed.body)).not.toContain('token')
    // Accepted, revoked and expired ones are left out.
    await me.post('/v1/invitations/accept', { token: tokenOf(mailsTo(person.user.email).at(0)!.link) })
    await b.api.post(`/v1/orgs/${b.orgId}/invitations/${fromB.id}/revoke`)
    const c = await newWorkspace(server)
    const expired = await invite(c, person.user.email)
    await server.storage.db
      .updateTable('invitations')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute()
    expect((await me.get(mine)).body.data).toEqual([])
  })

  it('pages exactly', async () => {
    const person = await newPerson(server.engine)
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await invite(await newWorkspace(server), person.user.email)).id)
    const me = server.as(person.token)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res: any = await me.get(`${mine}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...res.body.data.map((i: any) => i.id))
      if (res.body.nextCursor) expect(res.body.data).toHaveLength(2)
      cursor = res.body.nextCursor
      pages++
    } while (cursor)
    expect(seen).toEqual([...ids].sort())
    expect(pages).toBe(3)
    expect((await me.get(`${mine}?cursor=forged.cursor`)).body.code).toBe('invalid_cursor')
  })

  it('declines: the link stops working, managers see invitation.declined, and declining again answers the same', async () => {
    const ws = await newWorkspace(server)
    const person = await newPerson(server.engine)
    const me = server.as(person.token)
    const invitation = await invite(ws, person.user.email)
    const token = tokenOf(mailsTo(person.user.email).at(-1)!.link)
    const declined = await me.post(`${mine}/${invitation.id}/decline`)
    expect(declined.status).toBe(200)
    expect(declined.body).toMatchObject({
      id: invitation.id,
      state: 'declined',
      declinedAt: expect.any(String),
    })
    expect((await me.post('/v1/invitations/accept', { token })).body.code).toBe('invitation_invalid')
    expect((await me.get(mine)).body.data).toEqual([])
    const again = await me.post(`${mine}/${invitation.id}/decline`)
    expect(again.body).toEqual(declined.body)
    // The workspace sees the state and the event, once.
    const seen = await ws.api.get(`/v1/orgs/${ws.orgId}/invitations/${invitation.id}`)
    expect(seen.body).toMatchObject({ state: 'declined', declinedAt: declined.body.declinedAt })
    const all = await ws.api.get(`/v1/orgs/${ws.orgId}/invitations?state=all`)
    expect(all.body.data.map((i: any) => i.state)).toEqual(['declined'])
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/invitations`)).body.data).toEqual([])
    const events = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    const kinds = events.filter((e) => e.kind === 'invitation.declined')
    expect(kinds).toHaveLength(1)
    expect(kinds[0]).toMatchObject({ resourceId: invitation.id, actorId: null })
    // The owner reads it on the workspace stream, as they read invitation.created; a guest does not.
    const stream = `/v1/orgs/${ws.orgId}/stream?from=start&limit=500&kinds=invitation.created,invitation.declined`
    const owner = await ws.api.get(stream)
    expect(owner.body.data.map((e: any) => e.kind)).toEqual(['invitation.created', 'invitation.declined'])
    const guest = await ws.addMember('guest')
    expect((await guest.api.get(stream)).body.data).toEqual([])
    // Declined: nothing to resend.
    const resend = await ws.api.post(`/v1/orgs/${ws.orgId}/invitations/${invitation.id}/resend`)
    expect(resend.body).toMatchObject({ status: 409, code: 'conflict', state: 'declined' })
  })

  it('refuses an invitation accepted, revoked or expired (409), and another address’s (404); nothing changes', async () => {
    const ws = await newWorkspace(server)
    const person = await newPerson(server.engine)
    const me = server.as(person.token)
    const revoked = await invite(ws, person.user.email)
    await ws.api.post(`/v1/orgs/${ws.orgId}/invitations/${revoked.id}/revoke`)
    expect((await me.post(`${mine}/${revoked.id}/decline`)).body).toMatchObject({
      status: 409,
      code: 'conflict',
      state: 'revoked',
    })
    const other = await newWorkspace(server)
    const expired = await invite(other, person.user.email)
    await server.storage.db
      .updateTable('invitations')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute()
    expect((await me.post(`${mine}/${expired.id}/decline`)).body).toMatchObject({
      code: 'conflict',
      state: 'expired',
    })
    const third = await newWorkspace(server)
    const accepted = await invite(third, person.user.email)
    await me.post('/v1/invitations/accept', { token: tokenOf(mailsTo(person.user.email).at(-1)!.link) })
    expect((await me.post(`${mine}/${accepted.id}/decline`)).body).toMatchObject({
      code: 'conflict',
      state: 'accepted',
    })

    const stranger = await invite(ws, `stranger.${Date.now()}@example.com`)
    const notMine = await me.post(`${mine}/${stranger.id}/decline`)
    expect(notMine).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/invitations/${stranger.id}`)).body.state).toBe('pending')
    expect((await me.post(`${mine}/inv_01JD3Q2R4S5T6V7W8X9YZABCDE/decline`)).status).toBe(404)
    expect((await me.post(`${mine}/task_01JD3Q2R4S5T6V7W8X9YZABCDE/decline`)).body.code).toBe(
      'invalid_identifier',
    )
    const events = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    expect(events.filter((e) => e.kind === 'invitation.declined')).toEqual([])
  })
})
